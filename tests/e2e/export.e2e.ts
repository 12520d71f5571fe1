import { readFileSync } from "node:fs";
import { expect } from "@playwright/test";
import { engramTest, injectNotes, resetTestData, signInThroughIdentifyPage } from "./support";

const test = engramTest("test");

test.beforeEach(async ({ engram, page }) => {
  await resetTestData(engram.url);
  await signInThroughIdentifyPage(page, engram.url, "old_learner");
});

test("export the note graph: change the token limit, preview, copy and download the JSON", async ({ page, engram, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: engram.url });
  const ids = await injectNotes(page, engram.url, [
    { Title: "Animals" },
    { Title: "Mammals", "Parent Title": "Animals" },
    // Long details: at the smallest limit only the focus note fits.
    { Title: "Dog", "Parent Title": "Mammals", Details: "Dogs are loyal companions. ".repeat(16) },
    { Title: "Cat", "Parent Title": "Mammals" },
    { Title: "Puppy", "Parent Title": "Dog" },
  ]);
  await page.goto(`${engram.url}/n${ids.Dog}`);

  await page.getByRole("button", { name: "more options" }).click();
  await page.getByRole("menuitem", { name: "Export..." }).click();
  const dialog = page.getByRole("dialog", { name: "Export Note Graph" });
  const limit = dialog.getByLabel("Token Limit");
  await expect(limit).toHaveValue("5000");
  await expect(limit).toHaveAttribute("min", "100");
  await expect(limit).toHaveAttribute("max", "10000");
  await expect(limit).toHaveAttribute("step", "100");

  const preview = dialog.getByLabel("Note graph JSON");
  const shown = async () => JSON.parse(await preview.inputValue());
  await expect
    .poll(async () => (await shown()).relatedNotes.map((n: { title: string }) => n.title))
    .toEqual(["Mammals", "Animals", "Puppy", "Cat"]);
  const full = await shown();
  expect(full.focusNote.title).toBe("Dog");
  expect(full.relatedNotes.map((n: { relationToFocusNote: string }) => n.relationToFocusNote)).toEqual([
    "Parent",
    "AncestorInContextualPath",
    "Child",
    "YoungerSibling",
  ]);
  await expect(dialog.getByText("4 related notes")).toBeVisible();

  await limit.fill("100");
  await expect.poll(async () => (await shown()).relatedNotes).toEqual([]);
  await expect(dialog.getByText("0 related notes")).toBeVisible();
  expect((await shown()).focusNote.title).toBe("Dog");

  await dialog.getByRole("button", { name: "Copy" }).click();
  await expect(dialog.getByRole("button", { name: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await preview.inputValue());
  // The tick goes away after 1200 ms.
  await expect(dialog.getByRole("button", { name: "Copy", exact: true })).toBeVisible({ timeout: 3000 });

  const [download] = await Promise.all([page.waitForEvent("download"), dialog.getByRole("button", { name: "Download" }).click()]);
  expect(download.suggestedFilename()).toBe(`note-${ids.Dog}-graph.json`);
  const saved = JSON.parse(readFileSync((await download.path())!, "utf8"));
  expect(saved).toEqual(await shown());

  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();
});
