/**
 * Long work beside the request loop: Alice imports a large Obsidian vault while Bob, in his own
 * browser, keeps renaming one of his notes and saving; every save of his lands while the import
 * still runs. Alice reloads during the import: its progress shows again, then its result.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, expect, type Page } from "@playwright/test";
import JSZip from "jszip";
import { engramTest, injectNotes, resetTestData, signInThroughIdentifyPage, waitForHydration } from "./support";

const test = engramTest("test");
const VAULT_NOTES = Number(process.env.ENGRAM_LONG_WORK_NOTES ?? 6000);

test.beforeEach(async ({ engram }) => resetTestData(engram.url));

/** A vault of `count` notes in folders of 100, each linking to the previous one. */
async function largeVault(count: number): Promise<string> {
  const zip = new JSZip();
  for (let i = 0; i < count; i++) {
    const folder = `Topic ${Math.floor(i / 100)}`;
    zip.file(`${folder}/Note ${i}.md`, `Text of note ${i}, see [[Note ${Math.max(0, i - 1)}]].`);
  }
  const path = join(mkdtempSync(join(tmpdir(), "engram-long-work-")), "big-vault.zip");
  writeFileSync(path, await zip.generateAsync({ type: "nodebuffer", compression: "DEFLATE" }));
  return path;
}

async function personAt(browser: Browser, url: string, username: string, width: number, from: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 800 } });
  const page = await context.newPage();
  await signInThroughIdentifyPage(page, url, username, from);
  return page;
}

/** Whether the background work's card and the Testability toggle cover each other. */
async function overlap(page: Page): Promise<boolean> {
  const a = await page.getByRole("region", { name: "Work in the background" }).boundingBox();
  const b = await page.getByRole("button", { name: "Testability" }).boundingBox();
  if (!a || !b) throw new Error("the card or the Testability toggle is not shown");
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

type Operation = { id: number; status: string };
const operationsOf = async (page: Page, url: string): Promise<Operation[]> => (await page.request.get(`${url}/api/operations`)).json();

test("a large vault imports in one browser while another learner keeps editing and saving", async ({ browser, engram }) => {
  test.setTimeout(240_000);
  const zipPath = await largeVault(VAULT_NOTES);
  const setup = await browser.newPage();
  await injectNotes(setup, engram.url, [{ Title: "Vault" }]);
  const bobIds = await injectNotes(setup, engram.url, [{ Title: "Bob's note" }], "another_old_learner");
  const alice = await personAt(browser, engram.url, "old_learner", 1280, "/d/notebooks");
  const bob = await personAt(browser, engram.url, "another_old_learner", 390, `/n${bobIds["Bob's note"]}`);

  await alice.getByRole("button", { name: "Edit notebook settings" }).click();
  await alice.getByRole("dialog", { name: "Edit notebook settings" }).getByRole("button", { name: "Import from Obsidian" }).click();
  const importDialog = alice.getByRole("dialog", { name: "Import from Obsidian" });
  await importDialog.getByLabel("Vault (.zip)").setInputFiles(zipPath);
  await importDialog.getByRole("button", { name: "Import" }).click();
  // The import's own progress, with counts, once the upload is in.
  await expect(importDialog.getByRole("status")).toContainText(/Importing big-vault\.zip: /);
  await expect.poll(async () => (await operationsOf(alice, engram.url)).map((o) => o.status)).toEqual(["running"]);
  const [operation] = await operationsOf(alice, engram.url);

  // Bob renames his note again and again; each save is answered while the import still runs.
  const title = bob.getByLabel("note title");
  let savesDuringImport = 0;
  for (let i = 1; i <= 3; i++) {
    await title.fill(`Bob's note, version ${i}`);
    await title.press("Enter");
    await expect
      .poll(
        async () =>
          (await (await bob.request.get(`${engram.url}/api/notes/${bobIds["Bob's note"]}`)).json()).note.noteTopology.titleOrPredicate,
      )
      .toBe(`Bob's note, version ${i}`);
    const now = (await (await alice.request.get(`${engram.url}/api/operations/${operation!.id}`)).json()) as Operation;
    if (now.status === "running") savesDuringImport++;
  }
  expect(savesDuringImport, "Bob's saves landed while the import ran").toBeGreaterThan(0);

  // A reload during the import shows its progress again, on any page, then its result.
  await alice.reload();
  await waitForHydration(alice);
  const card = alice.getByRole("region", { name: "Work in the background" });
  await expect(card).toBeVisible();
  await expect(card.getByText(/Import of big-vault\.zip complete: [\d,]+ notes created/)).toBeVisible({ timeout: 180_000 });
  await alice.reload();
  await waitForHydration(alice);
  await expect(card.getByText(/Import of big-vault\.zip complete/)).toBeVisible();
  // Outside production the Testability toggle shares the corner: neither covers the other, wide or narrow.
  for (const width of [1280, 390]) {
    await alice.setViewportSize({ width, height: 800 });
    await expect.poll(() => overlap(alice), `the card and the Testability toggle at ${width} px`).toBe(false);
    if (process.env.ENGRAM_SHOTS) await alice.screenshot({ path: `${process.env.ENGRAM_SHOTS}/long-work-card-${width}.png` });
  }
  await card.getByRole("button", { name: "Dismiss" }).click();
  await expect(card).toHaveCount(0);
  await alice.reload();
  await waitForHydration(alice);
  await expect(alice.getByRole("region", { name: "Work in the background" })).toHaveCount(0);
});
