import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, type Page } from "@playwright/test";
import { engramTest, resetTestData, signInThroughIdentifyPage, waitForHydration } from "./support";

const test = engramTest("test");

test.beforeEach(async ({ engram }) => resetTestData(engram.url));

/** Where screenshots worth showing go (set ENGRAM_SHOTS to keep them). */
const SHOTS = process.env.ENGRAM_SHOTS;

/** A current Anki deck with math, a table and a cloze note, built by Bun (bun:sqlite) as Playwright runs on Node. */
function richDeck(): string {
  const path = join(mkdtempSync(join(tmpdir(), "engram-anki-")), "Sciences.apkg");
  execFileSync(join(process.cwd(), "node_modules/.bin/bun"), ["tests/support/anki.ts", path, "rich"]);
  return path;
}

async function importDeck(page: Page, url: string) {
  await signInThroughIdentifyPage(page, url, "old_learner", "/d/notebooks");
  await page.getByRole("button", { name: "Import Anki deck" }).click();
  const dialog = page.getByRole("dialog", { name: "Import Anki deck" });
  await dialog.getByLabel("Deck (.apkg)").setInputFiles(richDeck());
  await dialog.getByRole("button", { name: "Import" }).click();
  await expect(dialog.getByText("Import complete.")).toBeVisible();
  await expect(dialog.locator(".obsidian-report-counts")).toContainText("Reviews carried over2");
  await dialog.getByRole("link", { name: "Open the notebook" }).click();
  await waitForHydration(page);
}

async function savedDetails(page: Page, url: string, noteId: string): Promise<string> {
  return (await (await page.request.get(`${url}/api/notes/${noteId}`)).json()).note.details;
}

test("an imported note's math is typeset with KaTeX, and its properties fold away and survive an edit", async ({ page, engram }) => {
  await importDeck(page, engram.url);
  await page.getByRole("link", { name: "Science", exact: true }).first().click();
  await waitForHydration(page);
  await page.getByRole("link", { name: "Mass–energy equivalence", exact: true }).first().click();
  await waitForHydration(page);
  const noteId = new URL(page.url()).pathname.slice(2);

  // Math: typeset by the server, KaTeX's stylesheet and fonts applied; the note (it has a table)
  // shows rendered until a click opens the Markdown editor.
  const shown = page.getByRole("textbox", { name: "note details" });
  await expect(shown.locator(".katex")).toHaveCount(2);
  await expect(shown.locator(".katex-display")).toHaveCount(1);
  expect(
    await shown
      .locator(".katex .mathnormal")
      .first()
      .evaluate((e) => getComputedStyle(e).fontFamily),
  ).toContain("KaTeX_Math");
  await expect(page.getByRole("note").filter({ hasText: "This note has math; edit it as Markdown" })).toBeVisible();

  // Properties: a table, not lines of text; folded and unfolded, the choice kept.
  const properties = page.getByRole("region", { name: "Properties" });
  await expect(properties.getByRole("row")).toHaveText(["anki_note_typeBasic", "tagsphysics"]);
  await expect(shown).not.toContainText("anki_note_type");
  await page.setViewportSize({ width: 1280, height: 900 });
  if (SHOTS) await page.screenshot({ path: join(SHOTS, "note-math-properties-1280.png"), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  if (SHOTS) await page.screenshot({ path: join(SHOTS, "note-math-properties-390.png"), fullPage: true });
  await properties.getByRole("button", { name: "Properties" }).click();
  await expect(properties.getByRole("button", { name: "Properties" })).toHaveAttribute("aria-expanded", "false");
  await expect(properties.getByRole("row")).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole("region", { name: "Properties" }).getByRole("button", { name: "Properties" })).toHaveAttribute(
    "aria-expanded",
    "false",
  );

  // An edit of the text keeps the properties once, as they were; the preview follows the edit.
  const before = await savedDetails(page, engram.url, noteId);
  const frontMatter = before.slice(0, before.indexOf("---\n\n") + 5);
  expect(frontMatter).toBe("---\nanki_note_type: Basic\ntags:\n  - physics\n---\n\n");
  await page.getByRole("textbox", { name: "note details" }).focus();
  const markdown = page.getByLabel("note details (markdown)");
  await expect(markdown).toBeFocused();
  await expect(markdown).not.toHaveValue(/anki_note_type/);
  await page.keyboard.press("Control+Home");
  await page.keyboard.type("Also $a^2 + b^2 = c^2$. ");
  await markdown.blur();
  await expect
    .poll(() => savedDetails(page, engram.url, noteId))
    .toBe(`${frontMatter}Also $a^2 + b^2 = c^2$. ${before.slice(frontMatter.length)}`);
  await expect(page.getByRole("region", { name: "Preview" }).locator(".katex")).toHaveCount(3);
});
