import { expect, type Page } from "@playwright/test";
import { engramTest, injectNotes, resetTestData, signInThroughIdentifyPage, testability, waitForHydration } from "./support";

/**
 * Every action says what it did: sharing (and sharing again), saving a notebook's settings,
 * switching the scheduler, deleting a note with the notes under it, editing and deleting a
 * question, disabling a user (who keeps their "Last seen"), and the signed-out bazaar buttons.
 */
const test = engramTest("test");

test.beforeEach(async ({ engram }) => resetTestData(engram.url));

const toast = (page: Page, text: string | RegExp) => page.locator(".toast").filter({ hasText: text });

async function confirm(page: Page, question: string) {
  const dialog = page.getByRole("dialog", { name: "Please confirm" });
  await expect(dialog).toContainText(question);
  await dialog.getByRole("button", { name: "OK" }).click();
}

test("sharing a notebook says it is shared, and sharing it again says it already is", async ({ page, engram }) => {
  await injectNotes(page, engram.url, [{ Title: "Spanish verbs" }]);
  await signInThroughIdentifyPage(page, engram.url, "old_learner", "/d/notebooks");
  const card = page.getByRole("listitem").filter({ hasText: "Spanish verbs" });
  await card.getByRole("button", { name: "Share notebook to bazaar" }).click();
  await confirm(page, "Confirm to share?");
  await expect(toast(page, "Spanish verbs is shared to the bazaar.")).toBeVisible();
  await waitForHydration(page);
  await card.getByRole("button", { name: "Share notebook to bazaar" }).click();
  await expect(toast(page, "Spanish verbs is already in the bazaar.")).toBeVisible();
  await expect(page.getByRole("dialog", { name: "Please confirm" })).toHaveCount(0);
});

test("saving a notebook's settings says so after the page reloads", async ({ page, engram }) => {
  await injectNotes(page, engram.url, [{ Title: "Spanish verbs" }]);
  await signInThroughIdentifyPage(page, engram.url, "old_learner", "/d/notebooks");
  await page.getByRole("listitem").filter({ hasText: "Spanish verbs" }).getByRole("button", { name: "Edit notebook settings" }).click();
  const settings = page.getByRole("dialog", { name: "Edit notebook settings" });
  await settings.getByLabel("Number Of Questions In Assessment").fill("4");
  await settings.getByRole("button", { name: "Update", exact: true }).click();
  await expect(toast(page, "Notebook settings saved")).toBeVisible();
});

test("switching the scheduler says what it did to the notes", async ({ page, engram }) => {
  await signInThroughIdentifyPage(page, engram.url, "old_learner", "/");
  await page.getByRole("button", { name: "Account" }).click();
  await page.getByRole("menuitem", { name: "Settings for Old Learner" }).click();
  const dialog = page.getByRole("dialog", { name: "Settings for Old Learner" });
  await dialog.getByLabel("Scheduler").selectOption({ label: "FSRS" });
  await dialog.getByRole("button", { name: "Submit" }).click();
  await expect(toast(page, "Switched to FSRS")).toBeVisible();
});

test("deleting a note asks with how many notes go with it", async ({ page, engram }) => {
  const ids = await injectNotes(page, engram.url, [
    { Title: "Biology" },
    { Title: "Cells", "Parent Title": "Biology" },
    { Title: "Ribosome", "Parent Title": "Cells" },
    { Title: "Plants", "Parent Title": "Biology" },
  ]);
  await signInThroughIdentifyPage(page, engram.url, "old_learner", `/n${ids.Biology}`);
  await page.getByRole("button", { name: "more options" }).click();
  await page.getByRole("menuitem", { name: "Delete note" }).click();
  await confirm(page, "Confirm to delete this note and its 3 notes?");
  await expect(page).toHaveURL(/\/d\/notebooks$/);
});

test("a question can be edited (its approval is reset) and deleted", async ({ page, engram }) => {
  const ids = await injectNotes(page, engram.url, [{ Title: "Countries" }, { Title: "France", "Parent Title": "Countries" }]);
  await testability(page, engram.url, "inject-predefined-questions", {
    notebookTitle: "Countries",
    predefinedQuestionTestData: [
      { "Note Title": "France", Question: "Capital of France?", Answer: "Paris", "One Wrong Choice": "Lyon", Approved: true },
    ],
  });
  await signInThroughIdentifyPage(page, engram.url, "old_learner", `/n${ids.France}`);
  await page.getByRole("button", { name: "more options" }).click();
  await page.getByRole("menuitem", { name: "Questions for the note" }).click();
  const questions = page.getByRole("dialog", { name: "Questions for the note" });
  await questions.getByRole("listitem", { name: "Capital of France?" }).getByRole("button", { name: "Edit" }).click();
  const form = page.getByRole("dialog", { name: "Edit Question" });
  await expect(form.getByLabel("Stem")).toHaveValue("Capital of France?");
  await form.getByLabel("Stem").fill("What is the capital of France?");
  await form.getByRole("button", { name: "Submit" }).click();
  await expect(toast(page, "Question saved. It needs approving again before an assessment asks it.")).toBeVisible();
  const edited = questions.getByRole("listitem", { name: "What is the capital of France?" });
  await expect(edited).toBeVisible();
  await expect(questions.getByRole("listitem", { name: "Capital of France?", exact: true })).toHaveCount(0);
  const listed = await (await page.request.get(`${engram.url}/api/predefined-questions/${ids.France}/note-questions`)).json();
  expect(listed).toMatchObject([{ multipleChoicesQuestion: { stem: "What is the capital of France?" }, approved: false }]);

  await edited.getByRole("button", { name: "Delete" }).click();
  await confirm(page, 'Delete the question "What is the capital of France?"?');
  await expect(toast(page, "Question deleted.")).toBeVisible();
  await expect(questions.getByText("No questions for this note yet.")).toBeVisible();
});

test("a disabled user keeps their Last seen", async ({ page, engram, browser }) => {
  const learner = await (await browser.newContext()).newPage();
  await signInThroughIdentifyPage(learner, engram.url, "old_learner");
  await signInThroughIdentifyPage(page, engram.url, "admin", "/d/admin-dashboard/users");
  const row = page.getByRole("row").filter({ has: page.getByRole("cell", { name: "old_learner", exact: true }) });
  const lastSeen = row.getByRole("cell").nth(3);
  await expect(lastSeen).not.toHaveText("never");
  const seen = await lastSeen.textContent();
  await row.getByRole("button", { name: "Disable" }).click();
  await confirm(page, "Disable old_learner?");
  await expect(row.getByRole("cell").nth(4)).toHaveText("Disabled");
  await expect(lastSeen).toHaveText(seen!);
});

test("signed out, the bazaar's buttons say to log in first and lead to sign-in and back", async ({ page, engram }) => {
  await injectNotes(page, engram.url, [{ Title: "Spanish verbs" }]);
  await testability(page, engram.url, "share_to_bazaar", { noteTopology: "Spanish verbs" });
  await page.goto(`${engram.url}/d/bazaar`);
  await page.getByRole("listitem").filter({ hasText: "Spanish verbs" }).getByRole("button", { name: "Add to my learning" }).click();
  const alert = page.getByRole("dialog", { name: "Information" });
  await expect(alert).toContainText("Please login first");
  await alert.getByRole("link", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/users\/sign-in\?from=%2Fd%2Fbazaar$/);
  await page.getByLabel("Username").fill("nobody");
  await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
});
