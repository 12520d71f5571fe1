import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";
import { engramTest, injectNotes, resetTestData, signInThroughIdentifyPage, useEngramWithFakeOpenAI } from "./support";

const test = engramTest("test");

test.beforeEach(async ({ engram }) => resetTestData(engram.url));

/** Serious and critical axe violations of what the page shows now (as the accessibility sweep counts them). */
async function axeProblems(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return results.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.help}`);
}

const horizontalOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

test("a notebook's creator adds a question to a note by the form's rules and approves it in Notebook Questions", async ({
  page,
  engram,
}) => {
  const ids = await injectNotes(page, engram.url, [
    { Title: "Countries" },
    { Title: "France", "Parent Title": "Countries", Details: "Its capital is Paris." },
  ]);
  await signInThroughIdentifyPage(page, engram.url, "old_learner", `/n${ids.France}`);
  await page.setViewportSize({ width: 390, height: 844 });

  await page.getByRole("button", { name: "more options" }).click();
  await page.getByRole("menuitem", { name: "Questions for the note" }).click();
  const questions = page.getByRole("dialog", { name: "Questions for the note" });
  await expect(questions.getByText("No questions for this note yet.")).toBeVisible();
  await questions.getByRole("button", { name: "Add Question" }).click();

  const form = page.getByRole("dialog", { name: "Add Question" });
  const stem = form.getByLabel("Stem");
  const submit = form.getByRole("button", { name: "Submit" });
  const refine = form.getByRole("button", { name: "Refine" });
  const generate = form.getByRole("button", { name: "Generate by AI" });
  const addChoice = form.getByRole("button", { name: "Add choice" });
  const removeChoice = form.getByRole("button", { name: "Remove choice" });
  await expect(stem).toBeFocused();
  // All empty: only Generate by AI; two choices, so no fewer.
  await expect(submit).toBeDisabled();
  await expect(refine).toBeDisabled();
  await expect(generate).toBeEnabled();
  await expect(removeChoice).toBeDisabled();
  expect(await axeProblems(page)).toEqual([]);

  await stem.fill("What is the capital of France?");
  await expect(generate).toBeDisabled();
  await expect(refine).toBeEnabled();
  await expect(submit).toBeDisabled();
  // No AI provider here: Refine says so and the typed question stays.
  await refine.click();
  await expect(form.getByRole("alert")).toHaveText("AI is not configured");
  await expect(stem).toHaveValue("What is the capital of France?");

  await form.getByLabel("Choice 1", { exact: true }).fill("Paris");
  await expect(submit).toBeDisabled();
  await form.getByLabel("Choice 2", { exact: true }).fill("Lyon");
  await expect(submit).toBeEnabled();
  // Up to ten choices; a blank one disables Submit until it is filled or removed.
  for (let i = 3; i <= 10; i++) await addChoice.click();
  await expect(addChoice).toBeDisabled();
  await expect(form.getByLabel("Choice 10", { exact: true })).toBeVisible();
  await expect(submit).toBeDisabled();
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  for (let i = 10; i > 3; i--) await removeChoice.click();
  await form.getByLabel("Choice 3", { exact: true }).fill("Nice");
  await form.getByRole("radio", { name: "Choice 3 is correct" }).check();
  await expect(submit).toBeEnabled();
  // The correct choice removed: none is marked correct until one is picked again.
  await removeChoice.click();
  await expect(removeChoice).toBeDisabled();
  await expect(submit).toBeDisabled();
  await form.getByRole("radio", { name: "Choice 1 is correct" }).check();
  await submit.click();

  await expect(page.getByText("Question added.")).toBeVisible();
  const question = questions.getByRole("listitem", { name: "What is the capital of France?" });
  await expect(question).toBeVisible();
  await expect(question.getByText("(correct answer)")).toHaveCount(1);
  await expect(question.getByRole("listitem").filter({ hasText: "Paris" })).toContainText("correct answer");
  await page.keyboard.press("Escape");
  await expect(questions).toHaveCount(0);

  // Notebook Questions on the notebooks page, at desktop width.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`${engram.url}/d/notebooks`);
  const card = page.getByRole("listitem").filter({ has: page.getByRole("link", { name: "Countries", exact: true }) });
  const openNotebookQuestions = async () => {
    await card.getByRole("button", { name: "Notebook Questions" }).click();
    const dialog = page.getByRole("dialog", { name: "Questions of Countries" });
    await expect(dialog.getByRole("region", { name: "France" })).toBeVisible();
    return dialog;
  };
  let notebookQuestions = await openNotebookQuestions();
  const approved = notebookQuestions
    .getByRole("listitem", { name: "What is the capital of France?" })
    .getByRole("checkbox", { name: "Approved" });
  await expect(approved).not.toBeChecked();
  expect(await axeProblems(page)).toEqual([]);
  await approved.check();
  await expect(approved).toBeChecked();
  await expect(approved).toBeEnabled(); // saved

  // A suggestion for fine-tuning from the same list.
  await notebookQuestions.getByRole("button", { name: "Suggest for fine-tuning" }).click();
  const suggest = page.getByRole("dialog", { name: "Suggest for fine-tuning" });
  await expect(suggest.getByRole("button", { name: "Send" })).toBeDisabled();
  await suggest.getByLabel("Negative: something is wrong").check();
  await suggest.getByLabel("Comment").fill("Lyon is too easy to rule out");
  await suggest.getByRole("button", { name: "Send" }).click();
  await expect(page.getByText("Thank you. Your suggestion was sent.")).toBeVisible();
  await expect(suggest).toHaveCount(0);
  await page.keyboard.press("Escape");

  // The approval was saved on the server.
  await page.reload();
  notebookQuestions = await openNotebookQuestions();
  await expect(notebookQuestions.getByRole("checkbox", { name: "Approved" })).toBeChecked();
});

/**
 * The AI buttons need a provider: a second Engram with an API key, pointed at the fake OpenAI
 * server, which runs in a Bun child process (Playwright runs in Node) and is scripted through a
 * route of its own (POST /script: replies by JSON schema name), as in recall.e2e.ts.
 */
test.describe("with an AI provider", () => {
  const { ai, fake } = useEngramWithFakeOpenAI();
  const mcq = (stem: string, choices: string[], correctChoiceIndex = 0) => ({
    multipleChoicesQuestion: { stem, choices },
    correctChoiceIndex,
    strictChoiceOrder: true,
  });

  async function script(page: Page, replies: { schemaName: string; value: unknown }[]) {
    expect((await page.request.post(`${fake.url}/script`, { data: replies })).ok()).toBe(true);
  }

  test("Generate by AI and Refine fill the form; an answered recall question can be suggested for fine-tuning", async ({ page }) => {
    await resetTestData(ai.url);
    expect((await page.request.post(`${ai.url}/api/testability/replace_service_url`, { data: { openAi: fake.url } })).ok()).toBe(true);
    const ids = await injectNotes(page, ai.url, [
      { Title: "Countries" },
      { Title: "France", "Parent Title": "Countries", Details: "Its capital is Paris." },
    ]);
    await signInThroughIdentifyPage(page, ai.url, "old_learner", `/n${ids.France}`);

    await page.getByRole("button", { name: "more options" }).click();
    await page.getByRole("menuitem", { name: "Questions for the note" }).click();
    await page.getByRole("dialog", { name: "Questions for the note" }).getByRole("button", { name: "Add Question" }).click();
    const form = page.getByRole("dialog", { name: "Add Question" });
    await script(page, [
      {
        schemaName: "ask_single_answer_multiple_choice_question",
        value: mcq("What is the capital of France?", ["Lyon", "Paris", "Nice"], 1),
      },
    ]);
    await form.getByRole("button", { name: "Generate by AI" }).click();
    await expect(form.getByLabel("Stem")).toHaveValue("What is the capital of France?");
    await expect(form.getByLabel("Choice 3", { exact: true })).toHaveValue("Nice");
    await expect(form.getByRole("radio", { name: "Choice 2 is correct" })).toBeChecked();
    await expect(form.getByRole("button", { name: "Generate by AI" })).toBeDisabled();
    await expect(form.getByRole("button", { name: "Submit" })).toBeEnabled();

    await script(page, [{ schemaName: "refine_question", value: mcq("Which city is the capital of France?", ["Paris", "Lyon"], 0) }]);
    await form.getByRole("button", { name: "Refine" }).click();
    await expect(form.getByLabel("Stem")).toHaveValue("Which city is the capital of France?");
    await expect(form.getByLabel("Choice 3", { exact: true })).toHaveCount(0);
    await expect(form.getByRole("radio", { name: "Choice 1 is correct" })).toBeChecked();
    await form.getByRole("button", { name: "Submit" }).click();
    await expect(
      page.getByRole("dialog", { name: "Questions for the note" }).getByRole("listitem", { name: "Which city is the capital of France?" }),
    ).toBeVisible();
    await page.keyboard.press("Escape");

    // A recall question answered (wrongly), then suggested for fine-tuning from its page.
    const assimilated = await page.request.post(`${ai.url}/api/assimilation`, { data: { noteId: ids.France } });
    const trackerId = (await assimilated.json())[0].id;
    await script(page, [
      { schemaName: "ask_single_answer_multiple_choice_question", value: mcq("Which river flows through Paris?", ["Seine", "Loire"]) },
      { schemaName: "evaluate_question", value: { correctChoices: [0], feasibleQuestion: true, improvementAdvices: "" } },
    ]);
    const prompt = await (await page.request.get(`${ai.url}/api/recall-prompts/${trackerId}/question`)).json();
    expect((await page.request.post(`${ai.url}/api/recall-prompts/${prompt.id}/answer`, { data: { choiceIndex: 1 } })).ok()).toBe(true);
    await page.goto(`${ai.url}/d/answers/${prompt.id}`);
    await page.getByRole("button", { name: "Suggest for fine-tuning" }).click();
    const suggest = page.getByRole("dialog", { name: "Suggest for fine-tuning" });
    await expect(suggest.getByText("Which river flows through Paris?")).toBeVisible();
    await suggest.getByLabel("Positive: a good example").check();
    await suggest.getByRole("button", { name: "Send" }).click();
    await expect(page.getByText("Thank you. Your suggestion was sent.")).toBeVisible();
  });
});
