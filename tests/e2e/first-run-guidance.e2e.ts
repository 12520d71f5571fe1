import { expect, type Page } from "@playwright/test";
import { dayHour, engramTest, resetTestData, signInThroughIdentifyPage, testability } from "./support";

/**
 * What a newcomer meets: empty learning pages that say what they are for and lead to the first
 * notebook; link notes that read as sentences; a word of confirmation after a right answer; and
 * no alarm when Wikidata cannot be reached.
 */
const test = engramTest("test");
test.use({ timezoneId: "UTC" });

const injectNotes = (page: Page, url: string, rows: Record<string, string>[]): Promise<Record<string, number>> =>
  testability(page, url, "inject_notes", { externalIdentifier: "old_learner", circleName: null, noteTestData: rows });

async function assimilate(page: Page, url: string, noteId: number, skipMemoryTracking = false) {
  expect((await page.request.post(`${url}/api/assimilation`, { data: { noteId, skipMemoryTracking } })).ok()).toBe(true);
}

const CONGRATULATIONS = "Congratulations! You've achieved your daily assimilation goal!";
const FINISHED = "You have finished all repetitions for this half a day!";
const SENTENCE = "Moon — a part of — Sun";

test.beforeEach(async ({ engram, page }) => {
  await resetTestData(engram.url);
  await signInThroughIdentifyPage(page, engram.url, "old_learner");
  await testability(page, engram.url, "time_travel", { travel_to: JSON.stringify(dayHour(1)) });
});

test("a new account: Assimilate and Recall say what they are for and lead to Add New Notebook, which opens its dialog", async ({
  page,
  engram,
}) => {
  await page.goto(`${engram.url}/d/assimilate`);
  const assimilateHelp = page.getByRole("region", { name: "No notes to assimilate" });
  await expect(assimilateHelp).toContainText("Assimilate is where you learn new notes for the first time");
  await expect(page.getByText(CONGRATULATIONS)).toHaveCount(0);
  await expect(page.getByText(/^Assimilating: /)).toHaveCount(0);
  await expect(assimilateHelp.getByRole("link", { name: "Add New Notebook" })).toBeVisible();

  await page.goto(`${engram.url}/d/recall`);
  const recallHelp = page.getByRole("region", { name: "Nothing to recall yet" });
  await expect(recallHelp).toContainText("Recall brings back the notes you have learned");
  await expect(page.getByText(FINISHED)).toHaveCount(0);
  await expect(page.getByText(/^Recalling: /)).toHaveCount(0);

  await recallHelp.getByRole("link", { name: "Add New Notebook" }).click();
  await expect(page).toHaveURL(/\/d\/notebooks$/);
  const dialog = page.getByRole("dialog", { name: "Add New Notebook" });
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  // The notebooks page invites the first notebook too.
  const invitation = page.getByRole("region", { name: "Your first notebook" });
  await expect(invitation).toContainText("You have no notebooks yet.");
  await invitation.getByRole("button", { name: "Create your first notebook" }).click();
  await expect(dialog).toBeVisible();
});

test("a link note reads as a sentence when assimilated, recalled and listed", async ({ page, engram }) => {
  const ids = await injectNotes(page, engram.url, [
    { Title: "Astronomy" },
    { Title: "Moon", Details: "our satellite", "Parent Title": "Astronomy" },
    { Title: "Sun", "Parent Title": "Astronomy" },
  ]);
  await testability(page, engram.url, "link_notes", { type: "a part of", source_id: String(ids.Moon), target_id: String(ids.Sun) });
  // Only the link note is left to assimilate.
  for (const title of ["Astronomy", "Moon", "Sun"]) await assimilate(page, engram.url, ids[title]!, true);

  await page.goto(`${engram.url}/d/assimilate`);
  const note = page.getByRole("article", { name: "note to assimilate" });
  await expect(note.getByRole("heading", { name: SENTENCE })).toBeVisible();
  await page.getByRole("button", { name: "Keep for repetition" }).click();
  // Work done today: the congratulations are earned.
  await expect(page.getByText(CONGRATULATIONS)).toBeVisible();
  await expect(page.getByText("Assimilated 1 notes today.")).toBeVisible();

  await page.goto(`${engram.url}/d/recall`);
  await expect(page.getByRole("heading", { name: SENTENCE, exact: true })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Moon" })).toBeVisible();

  await page.goto(`${engram.url}/n${ids.Moon}`);
  await expect(page.locator(".child-card-title")).toHaveText(SENTENCE);
  // A link is a relation, not a part of its subject: the tree leaves it out.
  await expect(page.getByRole("treeitem", { name: SENTENCE })).toHaveCount(0);

  await page.goto(`${engram.url}/d/recent`);
  await expect(page.getByRole("link", { name: SENTENCE })).toBeVisible();
});

test("a note's review and spelling are parted in the recall list, and a right spelling says so for a moment", async ({ page, engram }) => {
  const ids = await injectNotes(page, engram.url, [
    { Title: "Vocabulary" },
    { Title: "sedition", Details: "sedition means inciting people to rebel", "Parent Title": "Vocabulary" },
    { Title: "treason", Details: "betraying one's country", "Parent Title": "Vocabulary" },
  ]);
  expect(
    (await page.request.post(`${engram.url}/api/notes/${ids.sedition}/review-setting`, { data: { rememberSpelling: true } })).ok(),
  ).toBe(true);
  await assimilate(page, engram.url, ids.sedition!);
  await assimilate(page, engram.url, ids.treason!);

  await page.goto(`${engram.url}/d/recall`);
  await expect(page.getByText("Recalling: 0/3")).toBeVisible();
  // In tracker order sedition's spelling would follow its review at once; treason goes between.
  await expect(page.getByRole("heading", { name: "sedition", exact: true })).toBeVisible();
  await page.getByRole("button", { name: "No, I need more repetition" }).click();
  await expect(page.getByRole("heading", { name: "treason", exact: true })).toBeVisible();
  await page.getByRole("button", { name: "No, I need more repetition" }).click();

  await page.getByPlaceholder("put your answer here").fill("sedition");
  await page.getByRole("button", { name: "Answer", exact: true }).click();
  const confirmation = page.getByRole("status").filter({ hasText: "Correct!" });
  await expect(confirmation).toBeVisible();
  await expect(page.getByText(FINISHED)).toBeVisible();
  await expect(confirmation).toHaveCount(0, { timeout: 5000 });
});

test("without Wikidata, the new-note dialog offers no suggestions and shows no error", async ({ page, engram }) => {
  const ids = await injectNotes(page, engram.url, [{ Title: "Animals" }]);
  await testability(page, engram.url, "replace_service_url", { wikidata: "http://127.0.0.1:9" });
  await page.goto(`${engram.url}/n${ids.Animals}`);
  await page.getByRole("button", { name: "Add Child Note" }).click();
  const dialog = page.getByRole("dialog", { name: "Add Child Note" });
  await dialog.getByLabel("Title").fill("dog");
  await expect(dialog.getByText("Wikidata suggestions are unavailable right now.")).toBeVisible();
  await expect(dialog.getByText("The wikidata service is not available")).toHaveCount(0);
  await expect(dialog.getByRole("alert")).toHaveCount(0);
  await expect(dialog.getByRole("listbox", { name: "Wikidata search results" })).toHaveCount(0);
});
