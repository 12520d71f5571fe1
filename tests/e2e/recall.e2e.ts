import { expect, type Page } from "@playwright/test";
import { engramTest, injectNotes, resetTestData, signInThroughIdentifyPage, useEngramWithFakeOpenAI, waitForHydration } from "./support";

/**
 * Recall as a learner does it. The test server has no AI provider, so notes without a spelling
 * tracker are recalled by the simple review. Server time is frozen by time travel and the
 * browser's clock is installed at the same instant, so the 10 s delay can be fast-forwarded.
 */
const test = engramTest("test");
test.use({ timezoneId: "UTC" });

/** "Day D, hour H" of the reference's tests. */
const dayHour = (day: number, hour = 8) => new Date(Date.UTC(1976, 5, 1 + day, hour));

async function travelTo(page: Page, url: string, instant: Date) {
  const response = await page.request.post(`${url}/api/testability/time_travel`, {
    data: { travel_to: JSON.stringify(instant.toISOString()) },
  });
  expect(response.ok()).toBe(true);
}

async function assimilate(page: Page, url: string, noteId: number) {
  const response = await page.request.post(`${url}/api/assimilation`, { data: { noteId } });
  expect(response.ok()).toBe(true);
}

const recallBadge = (page: Page) =>
  page
    .getByRole("navigation", { name: "Main menu" })
    .getByRole("link", { name: /^Recall/ })
    .locator(".badge");
const progress = (page: Page) => page.getByText(/^Recalling: /);
const noteTitle = (page: Page, title: string) => page.getByRole("heading", { name: title, exact: true });
const FINISHED = "You have finished all repetitions for this half a day!";

test.describe("without an AI provider: the simple review and spelling", () => {
  test.beforeEach(async ({ engram, page }) => {
    await resetTestData(engram.url);
    await signInThroughIdentifyPage(page, engram.url, "old_learner");
  });

  test("simple review: the remember delay, the counts, moving to the end, finishing, browsing results and loading more", async ({
    page,
    engram,
  }) => {
    const ids = await injectNotes(page, engram.url, [
      { Title: "Solar System" },
      { Title: "Moon", Details: "partner of earth", "Parent Title": "Solar System" },
      { Title: "Mars", Details: "the red planet", "Parent Title": "Solar System" },
      { Title: "Venus", Details: "the morning star", "Parent Title": "Solar System" },
    ]);
    await travelTo(page, engram.url, dayHour(1));
    for (const title of ["Moon", "Mars", "Venus"]) await assimilate(page, engram.url, ids[title]!);
    await travelTo(page, engram.url, dayHour(2));
    await page.clock.install({ time: dayHour(2) });

    await page.goto(`${engram.url}/d/recall`);
    await expect(progress(page)).toHaveText("Recalling: 0/3");
    await expect(recallBadge(page)).toHaveText("3");
    await expect(noteTitle(page, "Moon")).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Solar System" })).toBeVisible();
    // A flash card: the details show after "Show answer", and only then can the learner say they remembered.
    await expect(page.getByText("partner of earth")).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Yes, I remember" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "No, I need more repetition" })).toBeEnabled();
    await page.getByRole("button", { name: "Show answer" }).click();
    await expect(page.getByText("partner of earth")).toBeVisible();
    await expect(page.getByRole("button", { name: "Yes, I remember" })).toBeDisabled();
    await expect(page.getByRole("button", { name: "view last result" })).toBeDisabled();

    await page.getByRole("button", { name: "Move to end of list" }).click();
    await expect(noteTitle(page, "Mars")).toBeVisible();
    await page.getByRole("button", { name: "Show answer" }).click();
    await expect(page.getByRole("button", { name: "Yes, I remember" })).toBeDisabled();
    await page.clock.fastForward(10_000);
    await expect(page.getByRole("button", { name: "Yes, I remember" })).toBeEnabled();
    await page.getByRole("button", { name: "Yes, I remember" }).click();
    await expect(noteTitle(page, "Venus")).toBeVisible();
    await expect(progress(page)).toHaveText("Recalling: 1/3");
    await expect(recallBadge(page)).toHaveText("2");

    // Leaving the page and coming back in the same tab resumes the session.
    await page.goto(`${engram.url}/d/notebooks`);
    await page.goto(`${engram.url}/d/recall`);
    await expect(noteTitle(page, "Venus")).toBeVisible();
    await expect(progress(page)).toHaveText("Recalling: 1/3");

    await page.getByRole("button", { name: "No, I need more repetition" }).click();
    await expect(noteTitle(page, "Moon")).toBeVisible();
    await expect(progress(page)).toHaveText("Recalling: 2/3");
    // The last one: no other item to move it behind.
    await expect(page.getByRole("button", { name: "Move to end of list" })).toHaveCount(0);
    await page.clock.fastForward(10_000);
    await page.getByRole("button", { name: "Show answer" }).click();
    await page.getByRole("button", { name: "Yes, I remember" }).click();

    await expect(page.getByText(FINISHED)).toBeVisible();
    await expect(progress(page)).toHaveText("Recalling: 3/3");
    for (const days of [3, 7, 14]) {
      await expect(page.getByRole("button", { name: `Load more from next ${days} days` })).toBeVisible();
    }

    // Back and next through the results.
    await page.getByRole("button", { name: "view last result" }).click();
    await expect(page.getByText("Reviewed: remembered")).toBeVisible();
    await expect(noteTitle(page, "Moon")).toBeVisible();
    await expect(page.getByText(FINISHED)).toBeHidden();
    await page.getByRole("button", { name: "view previous result" }).click();
    await expect(page.getByText("Reviewed: needs more repetition")).toBeVisible();
    await expect(noteTitle(page, "Venus")).toBeVisible();
    await page.getByRole("button", { name: "view next result" }).click();
    await page.getByRole("button", { name: "view next result" }).click();
    await expect(page.getByText(FINISHED)).toBeVisible();

    // Venus was not remembered: it comes back within 12 hours, so within the next 3 days.
    await page.getByRole("button", { name: "Load more from next 3 days" }).click();
    await expect(page.getByText(FINISHED)).toBeHidden();
    await expect(noteTitle(page, "Venus")).toBeVisible();
    await expect(progress(page)).toHaveText(/^Recalling: 3\/[4-6]$/);
  });

  test("the badge goes down as notes are reviewed; the list is loaded again once the recall window has passed or more are due", async ({
    page,
    engram,
  }) => {
    const ids = await injectNotes(page, engram.url, [
      { Title: "Chemistry" },
      { Title: "Hydrogen", Details: "the lightest element", "Parent Title": "Chemistry" },
      { Title: "Helium", Details: "a noble gas", "Parent Title": "Chemistry" },
    ]);
    await travelTo(page, engram.url, dayHour(1));
    for (const title of ["Hydrogen", "Helium"]) await assimilate(page, engram.url, ids[title]!);
    await page.clock.install({ time: dayHour(1) });

    await page.goto(`${engram.url}/d/recall`);
    await expect(recallBadge(page)).toHaveText("2");
    await page.getByRole("button", { name: "No, I need more repetition" }).click();
    await expect(recallBadge(page)).toHaveText("1");
    await expect(noteTitle(page, "Helium")).toBeVisible();

    // Coming back within the recall window resumes the list: Helium only.
    await page.reload();
    await expect(progress(page)).toHaveText("Recalling: 1/2");

    // A day later the window has ended: the list is loaded again (Hydrogen is due again), the results stay.
    await travelTo(page, engram.url, dayHour(2, 9));
    await page.clock.setSystemTime(dayHour(2, 9));
    await page.reload();
    await expect(progress(page)).toHaveText("Recalling: 1/3");
    await expect(recallBadge(page)).toHaveText("2");
    await expect(noteTitle(page, "Helium")).toBeVisible();
    await page.getByRole("button", { name: "Move to end of list" }).click();
    await expect(noteTitle(page, "Hydrogen")).toBeVisible();

    // A finished list is loaded again on return when more notes have become due meanwhile.
    await page.getByRole("button", { name: "No, I need more repetition" }).click();
    await page.getByRole("button", { name: "No, I need more repetition" }).click();
    await expect(page.getByText(FINISHED)).toBeVisible();
    const lithium = await injectNotes(page, engram.url, [{ Title: "Lithium", "Parent Title": "Chemistry" }]);
    await assimilate(page, engram.url, lithium.Lithium!);
    await page.reload();
    await expect(noteTitle(page, "Lithium")).toBeVisible();
    await expect(progress(page)).toHaveText("Recalling: 3/4");
  });

  test("a spelling question: the title is masked, a blank answer cannot be sent, a wrong answer shows its result", async ({
    page,
    engram,
  }) => {
    const ids = await injectNotes(page, engram.url, [
      { Title: "Vocabulary" },
      { Title: "sedition", Details: "sedition means inciting people to rebel", "Parent Title": "Vocabulary" },
    ]);
    const setting = await page.request.post(`${engram.url}/api/notes/${ids.sedition}/review-setting`, { data: { rememberSpelling: true } });
    expect(setting.ok()).toBe(true);
    await travelTo(page, engram.url, dayHour(1));
    await assimilate(page, engram.url, ids.sedition!);
    await page.clock.install({ time: dayHour(1) });

    await page.goto(`${engram.url}/d/recall`);
    await expect(progress(page)).toHaveText("Recalling: 0/2");
    // The normal tracker comes first (simple review); the spelling one is behind it.
    await page.getByRole("button", { name: "Move to end of list" }).click();
    await expect(page.getByText("means inciting people to rebel")).toBeVisible();
    await expect(page.getByText("sedition means")).toHaveCount(0);
    const answer = page.getByPlaceholder("put your answer here");
    await expect(answer).toBeFocused();
    await expect(page.getByRole("button", { name: "Answer", exact: true })).toBeDisabled();
    await answer.fill("   ");
    await expect(page.getByRole("button", { name: "Answer", exact: true })).toBeDisabled();
    await answer.fill("sedation");
    await page.getByRole("button", { name: "Answer", exact: true }).click();

    await expect(page.getByText("Your answer sedation is incorrect.")).toBeVisible();
    await expect(page.getByRole("region", { name: "Note under question" }).getByRole("heading", { name: "sedition" })).toBeVisible();
    await expect(progress(page)).toHaveText("Recalling: 1/2");
    await expect(recallBadge(page)).toHaveText("1");

    await page.getByRole("button", { name: "view next result" }).click();
    await page.getByRole("button", { name: "No, I need more repetition" }).click();
    await expect(page.getByText(FINISHED)).toBeVisible();

    // Both come back within 12 hours; this time the spelling is right.
    await page.getByRole("button", { name: "Load more from next 3 days" }).click();
    await page.getByRole("button", { name: "Move to end of list" }).click();
    await page.getByPlaceholder("put your answer here").fill("Sedition");
    await page.getByRole("button", { name: "Answer", exact: true }).click();
    await expect(page.getByText("Recalling: 3/4")).toBeVisible();
    await expect(page.getByRole("button", { name: "Show answer" })).toBeVisible();
    await page.getByRole("button", { name: "view last result" }).click();
    await expect(page.getByText("Correct!")).toBeVisible();
  });
});

/**
 * Multiple-choice questions need an AI provider: a second Engram with an API key, pointed at the
 * fake OpenAI server. The fake is a Bun server and Playwright runs in Node, so it runs in a Bun
 * child process, scripted through a route of its own (POST /script: replies by JSON schema name).
 */
test.describe("multiple-choice questions", () => {
  const { ai, fake } = useEngramWithFakeOpenAI();
  const QUESTION = "ask_single_answer_multiple_choice_question";
  const EVALUATION = "evaluate_question";
  const mcq = (stem: string, choices: string[]) => ({
    multipleChoicesQuestion: { stem, choices },
    correctChoiceIndex: 0,
    strictChoiceOrder: true,
  });
  const evaluation = (feasibleQuestion: boolean, improvementAdvices = "") => ({
    correctChoices: [0],
    feasibleQuestion,
    improvementAdvices,
  });

  async function script(page: Page, replies: { schemaName: string; value: unknown }[]) {
    expect((await page.request.post(`${fake.url}/script`, { data: replies })).ok()).toBe(true);
  }

  test.beforeEach(async ({ page }) => {
    await resetTestData(ai.url);
    expect((await page.request.post(`${ai.url}/api/testability/replace_service_url`, { data: { openAi: fake.url } })).ok()).toBe(true);
    await signInThroughIdentifyPage(page, ai.url, "old_learner");
  });

  test("a wrong answer shows its result, a contest is rejected or regenerates the question, and the answer has its page", async ({
    page,
  }) => {
    const ids = await injectNotes(page, ai.url, [
      { Title: "Countries" },
      { Title: "France", Details: "Its capital is Paris.", "Parent Title": "Countries" },
      { Title: "Spain", Details: "Its capital is Madrid.", "Parent Title": "Countries" },
    ]);
    await travelTo(page, ai.url, dayHour(1));
    for (const title of ["France", "Spain"]) await assimilate(page, ai.url, ids[title]!);
    // Questions are fetched ahead one after another: France's, then Spain's.
    await script(page, [
      { schemaName: QUESTION, value: mcq("What is the capital of **France**?", ["Paris", "Lyon", "Nice"]) },
      { schemaName: EVALUATION, value: evaluation(true) },
      { schemaName: QUESTION, value: mcq("What is the capital of Spain? <img src=x onerror=alert(1)>", ["Madrid", "Seville"]) },
      { schemaName: EVALUATION, value: evaluation(true) },
    ]);

    await page.goto(`${ai.url}/d/recall`);
    await expect(page.getByText("What is the capital of France?")).toBeVisible();
    await expect(page.locator(".question-stem strong")).toHaveText("France");
    await expect(page.getByRole("link", { name: "Countries" })).toBeVisible();
    await page.getByRole("button", { name: "Lyon" }).click();
    await expect(page.getByText("Your answer Lyon is incorrect.")).toBeVisible();
    await expect(page.getByRole("button", { name: "Paris (correct answer)" })).toHaveClass(/is-correct/);
    await expect(page.getByRole("button", { name: "Lyon (your answer)" })).toHaveClass(/is-selected/);
    await expect(page.getByRole("region", { name: "Note under question" }).getByRole("heading", { name: "France" })).toBeVisible();
    await expect(progress(page)).toHaveText("Recalling: 1/2");

    await page.getByRole("button", { name: "view next result" }).click();
    // Raw HTML in a question is shown as text, never run.
    await expect(page.getByText("What is the capital of Spain? <img src=x onerror=alert(1)>")).toBeVisible();
    await script(page, [{ schemaName: EVALUATION, value: evaluation(true) }]);
    await page.getByRole("button", { name: "Doesn't make sense?" }).click();
    await expect(page.getByText("This seems to be a legitimate question. Please answer it.")).toBeVisible();

    await script(page, [
      { schemaName: EVALUATION, value: evaluation(false, "Ask about its largest city instead.") },
      { schemaName: QUESTION, value: mcq("Which is the largest city of Spain?", ["Madrid", "Bilbao"]) },
    ]);
    await page.getByRole("button", { name: "Doesn't make sense?" }).click();
    const contested = page.locator(".contested-question");
    await expect(contested.getByText("Previous Question Contested ...")).toBeVisible();
    await expect(contested.getByText("Ask about its largest city instead.")).toBeVisible();
    await expect(contested.getByRole("button", { name: "Seville" })).toBeDisabled();
    // A right answer moves straight on.
    await page.getByRole("button", { name: "Madrid", disabled: false }).click();
    await expect(page.getByText(FINISHED)).toBeVisible();

    await page.getByRole("button", { name: "view last result" }).click();
    await expect(page.getByText("Correct!")).toBeVisible();
    await page.getByRole("link", { name: "Open this answered question" }).click();
    await waitForHydration(page);
    await expect(page).toHaveURL(/\/d\/answers\/\d+$/);
    await expect(page.getByText("Which is the largest city of Spain?")).toBeVisible();
    await expect(page.getByRole("button", { name: "Madrid (your answer) (correct answer)" })).toHaveClass(/is-correct.*is-selected/);
    await expect(page.getByText("Correct!")).toBeVisible();
    await expect(page.getByRole("region", { name: "Note under question" }).getByRole("heading", { name: "Spain" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Start a conversation about this question" })).toBeEnabled();
  });

  test("a failed answer can be tried again; a regeneration that gives no question falls back to the simple review", async ({ page }) => {
    const ids = await injectNotes(page, ai.url, [
      { Title: "Rivers" },
      { Title: "Nile", Details: "The longest river in Africa.", "Parent Title": "Rivers" },
      { Title: "Amazon", Details: "The largest river by discharge.", "Parent Title": "Rivers" },
    ]);
    await travelTo(page, ai.url, dayHour(1));
    const [nile] = await (await page.request.post(`${ai.url}/api/assimilation`, { data: { noteId: ids.Nile } })).json();
    await assimilate(page, ai.url, ids.Amazon!);
    await script(page, [
      { schemaName: QUESTION, value: mcq("Where does the Nile flow?", ["Africa", "Asia"]) },
      { schemaName: EVALUATION, value: evaluation(true) },
      { schemaName: QUESTION, value: mcq("Where does the Amazon flow?", ["South America", "Europe"]) },
      { schemaName: EVALUATION, value: evaluation(true) },
    ]);
    await page.goto(`${ai.url}/d/recall`);
    await expect(page.getByText("Where does the Nile flow?")).toBeVisible();
    // Answered elsewhere meanwhile (another tab): this answer is refused.
    const prompt = await (await page.request.get(`${ai.url}/api/recall-prompts/${nile.id}/question`)).json();
    expect((await page.request.post(`${ai.url}/api/recall-prompts/${prompt.id}/answer`, { data: { choiceIndex: 0 } })).ok()).toBe(true);
    await page.getByRole("button", { name: "Asia" }).click();
    await expect(page.getByText("Failed to submit answer. Please try again.")).toBeVisible();
    await expect(page.getByRole("button", { name: "Asia" })).toBeEnabled();

    await page.getByRole("button", { name: "Move to end of list" }).click();
    await expect(page.getByText("Where does the Amazon flow?")).toBeVisible();
    await script(page, [
      { schemaName: EVALUATION, value: evaluation(false, "Too easy.") },
      { schemaName: QUESTION, value: mcq("", ["a", "b"]) },
    ]);
    await page.getByRole("button", { name: "Doesn't make sense?" }).click();
    await expect(page.getByRole("button", { name: "No, I need more repetition" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Amazon" })).toBeVisible();
  });
});
