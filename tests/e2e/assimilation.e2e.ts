import { expect, type Page } from "@playwright/test";
import { dayHour, engramTest, injectNotes, resetTestData, signInThroughIdentifyPage, testability } from "./support";

const test = engramTest("test");
// "Day D, hour H" is UTC: the browser counts "today" in the same zone.
test.use({ timezoneId: "UTC" });

const travelTo = (page: Page, url: string, day: number, hour = 8) =>
  testability(page, url, "time_travel", { travel_to: JSON.stringify(dayHour(day, hour)) });

async function assimilateThroughApi(page: Page, url: string, noteId: number, skipMemoryTracking = false) {
  const response = await page.request.post(`${url}/api/assimilation`, { data: { noteId, skipMemoryTracking } });
  expect(response.ok()).toBe(true);
  return (await response.json()) as { id: number }[];
}

const badge = (page: Page, item: "Assimilate" | "Recall") =>
  page
    .getByRole("navigation", { name: "Main menu" })
    .getByRole("link", { name: new RegExp(`^${item}`) })
    .locator(".badge");

async function confirm(page: Page, message: string) {
  const popup = page.getByRole("dialog", { name: "Please confirm" });
  await expect(popup).toContainText(message);
  await popup.getByRole("button", { name: "OK" }).click();
}

test.beforeEach(async ({ engram, page }) => {
  await resetTestData(engram.url);
  await signInThroughIdentifyPage(page, engram.url, "old_learner");
  await travelTo(page, engram.url, 1);
});

test("assimilate today's notes: keep, skip, keep, then the congratulations; the badges follow", async ({ page, engram }) => {
  await testability(page, engram.url, "update_current_user", { daily_assimilation_count: "3" });
  await injectNotes(page, engram.url, [
    { Title: "Sedition", Details: "Incitement to **rebel** <i>raw</i>" },
    { Title: "Sedation", "Parent Title": "Sedition" },
    { Title: "Sedative", "Parent Title": "Sedition" },
  ]);
  await page.goto(`${engram.url}/d/assimilate`);
  await expect(badge(page, "Assimilate")).toHaveText("3");
  await expect(badge(page, "Recall")).toHaveCount(0);

  const note = page.getByRole("article", { name: "note to assimilate" });
  await expect(note.getByRole("heading", { name: "Sedition" })).toBeVisible();
  // Details are Markdown; raw HTML in them is shown as text, never run.
  await expect(note.locator("strong", { hasText: "rebel" })).toBeVisible();
  await expect(note.getByText("<i>raw</i>")).toBeVisible();
  await expect(note.getByRole("group", { name: "Level" }).getByRole("radio", { name: "0" })).toBeChecked();
  await expect(note.getByRole("checkbox", { name: "Remember Spelling" })).not.toBeChecked();
  await expect(page.getByText("Assimilating: 0/3")).toBeVisible();

  await page.getByRole("button", { name: "Keep for repetition" }).click();
  await expect(note.getByRole("heading", { name: "Sedation" })).toBeVisible();
  await expect(badge(page, "Assimilate")).toHaveText("2");
  await expect(page.getByText("Assimilating: 1/3")).toBeVisible();

  await page.getByRole("button", { name: "Skip repetition" }).click();
  await confirm(page, "Confirm to hide this note from reviewing in the future?");
  await expect(note.getByRole("heading", { name: "Sedative" })).toBeVisible();
  await expect(badge(page, "Assimilate")).toHaveText("1");

  await page.getByRole("button", { name: "Keep for repetition" }).click();
  await expect(page.getByText("Congratulations! You've achieved your daily assimilation goal!")).toBeVisible();
  await expect(page.getByText("Assimilated 2 notes today.")).toBeVisible();
  await expect(badge(page, "Assimilate")).toHaveCount(0);
  // Both kept notes are due for recall at once with the default intervals; the skipped one is not.
  await expect(badge(page, "Recall")).toHaveText("2");

  await page.reload();
  await expect(page.getByText("Assimilated 2 notes today.")).toBeVisible();
  await expect(badge(page, "Assimilate")).toHaveCount(0);
  await expect(badge(page, "Recall")).toHaveText("2");

  // The next day brings no new notes (all three were assimilated) but the counters reset.
  await travelTo(page, engram.url, 2);
  await page.goto(`${engram.url}/d/notebooks`);
  await expect(badge(page, "Assimilate")).toHaveCount(0);
  await expect(badge(page, "Recall")).toHaveText("2");
});

test("raising a note's level on the assimilation page offers it after the others", async ({ page, engram }) => {
  await injectNotes(page, engram.url, [{ Title: "hard" }, { Title: "easy" }]);
  await page.goto(`${engram.url}/d/assimilate`);
  const note = page.getByRole("article", { name: "note to assimilate" });
  await expect(note.getByRole("heading", { name: "hard" })).toBeVisible();
  await expect(badge(page, "Assimilate")).toHaveText("2");

  await note.getByRole("group", { name: "Level" }).getByRole("radio", { name: "2" }).check();
  await expect(note.getByRole("heading", { name: "easy" })).toBeVisible();

  await page.reload();
  await expect(note.getByRole("heading", { name: "easy" })).toBeVisible();
  await page.getByRole("button", { name: "Keep for repetition" }).click();
  await expect(note.getByRole("heading", { name: "hard" })).toBeVisible();
  await expect(note.getByRole("group", { name: "Level" }).getByRole("radio", { name: "2" })).toBeChecked();
});

test("note recall settings and the memory-tracker table on the note page", async ({ page, engram }) => {
  const ids = await injectNotes(page, engram.url, [{ Title: "Mnemonic" }]);
  const noteId = ids.Mnemonic!;
  await page.goto(`${engram.url}/n${noteId}`);
  await expect(page.getByRole("region", { name: "note info" })).toContainText("Level 0");
  await expect(page.getByRole("table", { name: "Memory Trackers" })).toHaveCount(0);

  await page.getByRole("button", { name: "more options" }).click();
  await page.getByRole("menuitem", { name: "Note Recall Settings" }).click();
  const dialog = page.getByRole("dialog", { name: "Note Recall Settings" });
  await dialog.getByRole("checkbox", { name: "Remember Spelling" }).check();
  await expect(dialog.getByText("Saved")).toBeVisible();
  await dialog.getByRole("button", { name: "Done" }).click();
  await expect(page.getByRole("list", { name: "recall settings" })).toContainText("Remember Spelling");

  // Assimilated with Remember Spelling on: a normal and a spelling tracker, both due now.
  await assimilateThroughApi(page, engram.url, noteId);
  await page.reload();
  await expect(badge(page, "Recall")).toHaveText("2");
  const table = page.getByRole("table", { name: "Memory Trackers" });
  const normal = table.getByRole("row").filter({ hasText: "normal" });
  await expect(table.getByRole("row").filter({ hasText: "spelling" })).toHaveCount(1);
  await expect(normal.getByRole("cell").nth(2)).toHaveText("100");

  await normal.getByRole("button", { name: "increase next repeat interval" }).click();
  await expect(normal.getByRole("cell").nth(2)).toHaveText("105");
  // A longer interval moves the next recall past this half-day.
  await expect(badge(page, "Recall")).toHaveText("1");
  await normal.getByRole("button", { name: "reduce next repeat interval" }).click();
  await expect(normal.getByRole("cell").nth(2)).toHaveText("100");
  await expect(badge(page, "Recall")).toHaveText("2");

  await normal.getByRole("button", { name: "remove this note from review" }).click();
  await confirm(page, "Confirm to hide this from reviewing in the future?");
  await expect(normal).toContainText("This memory tracker has been removed from tracking.");
  await expect(badge(page, "Recall")).toHaveText("1");

  await page.reload();
  await expect(table.getByRole("row").filter({ hasText: "normal" })).toHaveCount(0);
  await expect(table.getByRole("row").filter({ hasText: "spelling" })).toHaveCount(1);
});

test("the Recent page lists recently learned and recently reviewed memory trackers", async ({ page, engram }) => {
  const ids = await injectNotes(page, engram.url, [{ Title: "Kept note" }, { Title: "Skipped note" }]);
  await assimilateThroughApi(page, engram.url, ids["Kept note"]!);
  await travelTo(page, engram.url, 1, 9);
  await assimilateThroughApi(page, engram.url, ids["Skipped note"]!, true);

  await page.goto(`${engram.url}/d/recent`);
  await page.getByRole("tab", { name: "Recently Learned" }).click();
  const learned = page.getByRole("table", { name: "Recently Learned" });
  await expect(learned.getByRole("columnheader")).toHaveText(["Note", "Assimilated", "Status"]);
  const learnedRows = learned.getByRole("row");
  await expect(learnedRows.nth(1)).toContainText("Skipped note");
  await expect(learnedRows.nth(1).locator("s")).toHaveText("Removed");
  await expect(learnedRows.nth(2)).toContainText("Kept note");
  await expect(learnedRows.nth(2)).toContainText("Active");

  await page.getByRole("tab", { name: "Recently Reviewed" }).click();
  const reviewed = page.getByRole("table", { name: "Recently Reviewed" });
  await expect(reviewed.getByRole("columnheader")).toHaveText([
    "Note",
    "Initial Recall",
    "Next Recall",
    "Recall Count",
    "Curve Index",
    "Status",
  ]);
  const keptRow = reviewed.getByRole("row").filter({ hasText: "Kept note" });
  await expect(keptRow.getByRole("cell").nth(3)).toHaveText("0");
  await expect(keptRow.getByRole("cell").nth(4)).toHaveText("100");
  await expect(keptRow.getByRole("cell").nth(5)).toHaveText("Active");
  await expect(reviewed.getByRole("row").filter({ hasText: "Skipped note" })).toContainText("Removed");
});
