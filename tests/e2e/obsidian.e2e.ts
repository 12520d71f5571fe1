import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";
import { engramTest, injectNotes, resetTestData, signInThroughIdentifyPage, waitForHydration } from "./support";

const test = engramTest("test");

test.beforeEach(async ({ engram }) => resetTestData(engram.url));

/** Serious and critical axe violations of what the page shows now (as the accessibility sweep counts them). */
async function axeProblems(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return results.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.help}`);
}

test("a learner exports a notebook for Obsidian from its settings and imports it into another notebook", async ({ page, engram }) => {
  const ids = await injectNotes(page, engram.url, [
    { Title: "Biology", Details: "Life" },
    { Title: "Cells", "Parent Title": "Biology", Details: "Units of life" },
    { Title: "Mitochondria", "Parent Title": "Cells", Details: "---\ntags: [cell, energy]\n---\n\nPowerhouse" },
    { Title: "Copy" },
  ]);
  await signInThroughIdentifyPage(page, engram.url, "old_learner", "/d/notebooks");

  const cardOf = (title: string) => page.getByRole("listitem").filter({ has: page.getByRole("link", { name: title, exact: true }) });
  await cardOf("Biology").getByRole("button", { name: "Edit notebook settings" }).click();
  const settings = page.getByRole("dialog", { name: "Edit notebook settings" });
  const downloading = page.waitForEvent("download");
  await settings.getByRole("link", { name: "Export for Obsidian" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe("Biology-obsidian.zip");
  const zipPath = join(mkdtempSync(join(tmpdir(), "engram-obsidian-")), download.suggestedFilename());
  await download.saveAs(zipPath);
  await page.keyboard.press("Escape");
  await expect(settings).toHaveCount(0);

  await cardOf("Copy").getByRole("button", { name: "Edit notebook settings" }).click();
  await settings.getByRole("button", { name: "Import from Obsidian" }).click();
  const importDialog = page.getByRole("dialog", { name: "Import from Obsidian" });
  await importDialog.getByRole("button", { name: "Import" }).click();
  await expect(importDialog.getByRole("alert")).toHaveText("Failed to import file: choose a .zip file first");
  await importDialog.getByLabel("Vault (.zip)").setInputFiles(zipPath);
  await importDialog.getByRole("button", { name: "Import" }).click();
  await expect(importDialog.getByText("Import complete.")).toBeVisible();
  const counts = importDialog.locator(".obsidian-report-counts");
  await expect(counts).toContainText("Notes created2");
  await expect(counts).toContainText("Notes updated1");
  expect(await axeProblems(page)).toEqual([]);
  await importDialog.getByRole("button", { name: "OK" }).click();
  await waitForHydration(page);

  await page.goto(`${engram.url}/n${ids.Copy}`);
  await waitForHydration(page);
  await page.getByRole("link", { name: "Cells", exact: true }).first().click();
  await waitForHydration(page);
  await expect(page.getByText("Units of life")).toBeVisible();
  await page.getByRole("link", { name: "Mitochondria", exact: true }).first().click();
  await waitForHydration(page);
  // The front matter went out and came back, and shows as the note's properties.
  const properties = page.getByRole("region", { name: "Properties" });
  await expect(properties.getByRole("row")).toHaveText(["tagscell, energy"]);

  // The note's "more options" menu offers the same import, into the note's notebook; a damaged file is refused.
  await page.getByRole("button", { name: "more options" }).click();
  await page.getByRole("menuitem", { name: "Import from Obsidian" }).click();
  const fromNote = page.getByRole("dialog", { name: "Import from Obsidian" });
  await fromNote
    .getByLabel("Vault (.zip)")
    .setInputFiles({ name: "broken.zip", mimeType: "application/zip", buffer: Buffer.from("not a zip") });
  await fromNote.getByRole("button", { name: "Import" }).click();
  await expect(fromNote.getByRole("alert")).toContainText("Failed to import file: the file is not a zip archive or it is damaged");
});

test("on a phone, the notebooks page offers Import Anki deck, and a damaged deck is refused with the reason", async ({ page, engram }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await injectNotes(page, engram.url, [{ Title: "Biology" }]);
  await signInThroughIdentifyPage(page, engram.url, "old_learner", "/d/notebooks");
  await page.getByRole("button", { name: "Import Anki deck" }).click();
  const dialog = page.getByRole("dialog", { name: "Import Anki deck" });
  await expect(dialog.getByLabel("Carry over the review state")).toBeChecked();
  await dialog
    .getByLabel("Deck (.apkg)")
    .setInputFiles({ name: "deck.apkg", mimeType: "application/octet-stream", buffer: Buffer.from("not a zip") });
  await dialog.getByRole("button", { name: "Import" }).click();
  await expect(dialog.getByRole("alert")).toContainText("Failed to import file: the file is not a zip archive or it is damaged");
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  expect(await axeProblems(page)).toEqual([]);
  await page.keyboard.press("Escape");

  await page.getByRole("button", { name: "Edit notebook settings" }).click();
  const settings = page.getByRole("dialog", { name: "Edit notebook settings" });
  // The settings dialog scrolls on a phone (certification and AI sections come first): the vault buttons are reachable in it.
  await settings.getByRole("link", { name: "Export for Obsidian" }).scrollIntoViewIfNeeded();
  await expect(settings.getByRole("link", { name: "Export for Obsidian" })).toBeInViewport();
  const box = await settings.getByRole("button", { name: "Import from Obsidian" }).boundingBox();
  expect(box!.x + box!.width).toBeLessThanOrEqual(390);
});

test("a learner imports an Anki deck from the notebooks page and opens the new notebook", async ({ page, engram }) => {
  // Built by Bun (bun:sqlite), as Playwright runs on Node.
  const apkgPath = join(mkdtempSync(join(tmpdir(), "engram-anki-")), "Languages.apkg");
  execFileSync(join(process.cwd(), "node_modules/.bin/bun"), ["tests/support/anki.ts", apkgPath]);
  await signInThroughIdentifyPage(page, engram.url, "old_learner", "/d/notebooks");
  await page.getByRole("button", { name: "Import Anki deck" }).click();
  const dialog = page.getByRole("dialog", { name: "Import Anki deck" });
  await dialog.getByLabel("Deck (.apkg)").setInputFiles(apkgPath);
  await dialog.getByRole("button", { name: "Import" }).click();
  await expect(dialog.getByText("Import complete.")).toBeVisible();
  const counts = dialog.locator(".obsidian-report-counts");
  await expect(counts).toContainText("Notes created6");
  await expect(counts).toContainText("Memory trackers2");
  await expect(dialog.getByText("a.mp3: a sound, not imported: Engram notes hold no audio (the note keeps its text)")).toBeVisible();
  await dialog.getByRole("link", { name: "Open the notebook" }).click();
  await waitForHydration(page);
  await expect(page.getByRole("link", { name: "Spanish", exact: true }).first()).toBeVisible();
  await page.getByRole("link", { name: "Spanish", exact: true }).first().click();
  await waitForHydration(page);
  await page.getByRole("link", { name: "Hola", exact: true }).first().click();
  await waitForHydration(page);
  await expect(page.getByRole("region", { name: "Properties" }).getByRole("row")).toHaveText([
    "anki_note_typeBasic",
    "tagsspanish, greeting",
  ]);
});

test("an imported vault's embeds show on the note page: images at their size, players for audio and video, a link for a PDF", async ({
  page,
  engram,
}) => {
  // Built by Bun (tests/support/help-vault.ts), as Playwright runs on Node.
  const zipPath = join(mkdtempSync(join(tmpdir(), "engram-help-vault-")), "Obsidian Help.zip");
  execFileSync(join(process.cwd(), "node_modules/.bin/bun"), ["tests/support/help-vault.ts", zipPath]);
  const ids = await injectNotes(page, engram.url, [{ Title: "Help" }]);
  await signInThroughIdentifyPage(page, engram.url, "old_learner", `/n${ids.Help}`);
  await page.getByRole("button", { name: "more options" }).click();
  await page.getByRole("menuitem", { name: "Import from Obsidian" }).click();
  const dialog = page.getByRole("dialog", { name: "Import from Obsidian" });
  await dialog.getByLabel("Vault (.zip)").setInputFiles(zipPath);
  await dialog.getByRole("button", { name: "Import" }).click();
  await expect(dialog.getByText("Import complete.")).toBeVisible();
  await expect(dialog.locator(".obsidian-report-counts")).toContainText("Embedded files13");
  await dialog.getByRole("button", { name: "OK" }).click();
  await waitForHydration(page);

  const details = page.locator(".note-details");
  const naturalWidth = (image: ReturnType<Page["locator"]>) => image.evaluate((element) => (element as HTMLImageElement).naturalWidth);
  const open = async (...path: string[]) => {
    await page.goto(`${engram.url}/n${ids.Help}`);
    await waitForHydration(page);
    for (const title of path) {
      await page.getByRole("link", { name: title, exact: true }).first().click();
      await waitForHydration(page);
    }
  };

  // Rendered details show an embed in place, at its size.
  await open("Getting started", "Create a vault");
  const layout = details.getByRole("img", { name: "Workspace layout.jpg" });
  await expect(layout).toHaveAttribute("width", "600");
  await expect.poll(() => naturalWidth(layout)).toBeGreaterThan(0);

  // A note edited as Markdown (a callout) shows the files it embeds under its source, the other image.png told apart by its folder.
  await open("User interface", "Workspace");
  const embedded = page.getByRole("region", { name: "Embedded files" });
  await expect(embedded.getByRole("img", { name: "Workspace layout.jpg" })).toHaveAttribute("width", "600");
  await expect.poll(() => naturalWidth(embedded.getByRole("img", { name: "image.png" }))).toBe(8);
  await page.screenshot({ path: "/work/shots/files/embeds-markdown-mode-1280.png", fullPage: true });

  await open("Über Obsidian", "Großartige Funktionen");
  await expect.poll(() => naturalWidth(details.getByRole("img", { name: "Überblick.png" }))).toBe(240);
  await expect.poll(() => naturalWidth(details.getByRole("img", { name: "image.png" }).first())).toBe(6);
  await page.screenshot({ path: "/work/shots/files/embeds-funktionen-1280.png", fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.screenshot({ path: "/work/shots/files/embeds-funktionen-390.png", fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });

  // Players for audio and video; the WAV is a real recording, so the player reads its length.
  await open("Plugins", "Audio recorder");
  await expect(details.locator("audio.vault-embed")).toHaveCount(2);
  await expect(details.locator("video.vault-embed")).toHaveCount(1);
  const tone = details.locator("audio.vault-embed").nth(1);
  await expect.poll(() => tone.evaluate((audio) => (audio as HTMLAudioElement).duration)).toBeGreaterThan(0);
  await page.screenshot({ path: "/work/shots/files/embeds-audio-recorder-1280.png", fullPage: true });
  const notePart = await new AxeBuilder({ page }).include(".note-details").withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  expect(notePart.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);

  // A PDF is a link to the file.
  await open("Files and folders", "Accepted file formats");
  const pdf = details.getByRole("link", { name: "sample.pdf" }).first();
  const answer = await page.request.get(`${engram.url}${await pdf.getAttribute("href")}`);
  expect(answer.headers()["content-type"]).toBe("application/pdf");
});
