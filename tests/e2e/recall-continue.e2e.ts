import { expect, type Page } from "@playwright/test";
import { engramTest, injectNotes, resetTestData, signInThroughIdentifyPage, useEngramWithFakeOpenAI } from "./support";

/**
 * After every answer the learner sees its feedback, rendered (no raw Markdown or backticks), and a
 * focused Continue within the screen, on a phone and on a desktop; a self-review is a flash card
 * with "Show answer" and a visible countdown for "Yes, I remember".
 */
const test = engramTest("test");
test.use({ timezoneId: "UTC" });

const dayHour = (day: number, hour = 8) => new Date(Date.UTC(1976, 5, 1 + day, hour));
const SHOTS = "/work/shots/recall-offline";

async function travelTo(page: Page, url: string, instant: Date) {
  const response = await page.request.post(`${url}/api/testability/time_travel`, {
    data: { travel_to: JSON.stringify(instant.toISOString()) },
  });
  expect(response.ok()).toBe(true);
}

async function assimilate(page: Page, url: string, noteId: number) {
  expect((await page.request.post(`${url}/api/assimilation`, { data: { noteId } })).ok()).toBe(true);
}

/** Continue is on screen without scrolling and fully inside the viewport's width. */
async function expectWithinViewport(page: Page, name: string) {
  const box = await page.getByRole("button", { name, exact: true }).boundingBox();
  const viewport = page.viewportSize()!;
  expect(box).not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(viewport.width);
  expect(box!.y + box!.height).toBeLessThanOrEqual(viewport.height);
}

for (const width of [390, 1280]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: width < 600 ? 844 : 900 } });

    test.beforeEach(async ({ engram, page }) => {
      await resetTestData(engram.url);
      await signInThroughIdentifyPage(page, engram.url, "old_learner");
    });

    test("a wrong spelling answer: rendered feedback and a focused Continue that goes on", async ({ page, engram }) => {
      const ids = await injectNotes(page, engram.url, [
        { Title: "Vocabulary" },
        { Title: "sedition", Details: "sedition means *inciting* people to rebel", "Parent Title": "Vocabulary" },
      ]);
      expect(
        (await page.request.post(`${engram.url}/api/notes/${ids.sedition}/review-setting`, { data: { rememberSpelling: true } })).ok(),
      ).toBe(true);
      await travelTo(page, engram.url, dayHour(1));
      await assimilate(page, engram.url, ids.sedition!);
      await page.goto(`${engram.url}/d/recall`);
      // The normal tracker comes first; the spelling one is behind it.
      await page.getByRole("button", { name: "Move to end of list" }).click();
      await page.getByPlaceholder("put your answer here").fill("`sed` **ation**");
      await page.keyboard.press("Enter");

      const feedback = page.locator(".answer-incorrect");
      await expect(feedback).toHaveText("Your answer `sed` **ation** is incorrect.");
      // The typed answer is shown as it was typed, inside a code element: no Markdown made of it.
      await expect(feedback.locator("code")).toHaveText("`sed` **ation**");
      await expect(feedback.locator("strong")).toHaveCount(0);
      const continueButton = page.getByRole("button", { name: "Continue", exact: true });
      await expect(continueButton).toBeFocused();
      await expectWithinViewport(page, "Continue");
      await page.screenshot({ path: `${SHOTS}/recall-wrong-spelling-${width}.png` });

      // Enter goes on: the next item (the self-review of the same note) with its "Show answer" focused.
      await page.keyboard.press("Enter");
      await expect(page.getByRole("button", { name: "Show answer" })).toBeFocused();
      await expect(continueButton).toHaveCount(0);
    });

    test("a self-review: Show answer first, then a countdown that says why before Yes, I remember", async ({ page, engram }) => {
      const ids = await injectNotes(page, engram.url, [
        { Title: "Solar System" },
        { Title: "Moon", Details: "partner of **earth**", "Parent Title": "Solar System" },
      ]);
      await travelTo(page, engram.url, dayHour(1));
      await assimilate(page, engram.url, ids.Moon!);
      await page.clock.install({ time: dayHour(1) });
      await page.goto(`${engram.url}/d/recall`);

      await expect(page.getByRole("heading", { name: "Moon", exact: true })).toBeVisible();
      await expect(page.getByText("partner of")).toHaveCount(0);
      await expect(page.getByText("Try to recall this note, then show the answer.")).toBeVisible();
      const show = page.getByRole("button", { name: "Show answer" });
      await expect(show).toBeFocused();
      await expectWithinViewport(page, "Show answer");
      await page.keyboard.press("Enter");

      await expect(page.locator(".note-details strong")).toHaveText("earth");
      const remember = page.getByRole("button", { name: "Yes, I remember" });
      await expect(remember).toBeDisabled();
      const countdown = page.locator(".remember-countdown");
      await expect(countdown).toContainText("until “Yes, I remember”: a moment to be sure you recalled it");
      const seconds = countdown.locator(".remember-countdown-seconds");
      await expect(seconds).toHaveText(/^([1-9]|10) s$/);
      await expect(remember).toHaveAccessibleDescription(/until “Yes, I remember”/);
      await page.screenshot({ path: `${SHOTS}/recall-self-review-countdown-${width}.png` });
      // It counts down, second by second (the browser's clock also runs on by itself meanwhile).
      const before = Number.parseInt((await seconds.textContent()) ?? "", 10);
      await page.clock.fastForward(2_000);
      await expect.poll(async () => Number.parseInt((await seconds.textContent()) ?? "0", 10)).toBeLessThanOrEqual(before - 2);
      await page.clock.fastForward(10_000);
      await expect(remember).toBeEnabled();
      await expect(countdown).toHaveCount(0);
      await remember.click();
      await expect(page.getByText("You have finished all repetitions for this half a day!")).toBeVisible();
    });
  });
}

test.describe("multiple-choice questions", () => {
  const { ai, fake } = useEngramWithFakeOpenAI();
  const mcq = (stem: string, choices: string[]) => ({
    multipleChoicesQuestion: { stem, choices },
    correctChoiceIndex: 0,
    strictChoiceOrder: true,
  });
  const evaluation = { correctChoices: [0], feasibleQuestion: true, improvementAdvices: "" };

  for (const width of [390, 1280]) {
    test(`at ${width} px: a wrong answer's Markdown is rendered and Continue leads on; a right one goes on by itself or at Continue`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
      await resetTestData(ai.url);
      expect((await page.request.post(`${ai.url}/api/testability/replace_service_url`, { data: { openAi: fake.url } })).ok()).toBe(true);
      await signInThroughIdentifyPage(page, ai.url, "old_learner");
      const ids = await injectNotes(page, ai.url, [
        { Title: "Countries" },
        { Title: "France", Details: "Its capital is Paris.", "Parent Title": "Countries" },
        { Title: "Spain", Details: "Its capital is Madrid.", "Parent Title": "Countries" },
        { Title: "Italy", Details: "Its capital is Rome.", "Parent Title": "Countries" },
      ]);
      await travelTo(page, ai.url, dayHour(1));
      for (const title of ["France", "Spain", "Italy"]) await assimilate(page, ai.url, ids[title]!);
      const script = [
        { schemaName: "ask_single_answer_multiple_choice_question", value: mcq("Capital of France?", ["Paris", "**Lyon** `city`"]) },
        { schemaName: "evaluate_question", value: evaluation },
        { schemaName: "ask_single_answer_multiple_choice_question", value: mcq("Capital of Spain?", ["Madrid", "Seville"]) },
        { schemaName: "evaluate_question", value: evaluation },
        { schemaName: "ask_single_answer_multiple_choice_question", value: mcq("Capital of Italy?", ["Rome", "Milan"]) },
        { schemaName: "evaluate_question", value: evaluation },
      ];
      expect((await page.request.post(`${fake.url}/script`, { data: script })).ok()).toBe(true);

      await page.goto(`${ai.url}/d/recall`);
      await page.getByRole("button", { name: "Lyon city" }).click();
      const feedback = page.locator(".answer-incorrect");
      await expect(feedback).toHaveText("Your answer Lyon city is incorrect.");
      await expect(feedback.locator("strong")).toHaveText("Lyon");
      await expect(feedback.locator(".given-answer code")).toHaveText("city");
      const continueButton = page.getByRole("button", { name: "Continue", exact: true });
      await expect(continueButton).toBeFocused();
      await expectWithinViewport(page, "Continue");
      await page.screenshot({ path: `${SHOTS}/recall-wrong-answer-${width}.png` });
      // A wrong answer waits for the learner.
      await page.waitForTimeout(2_000);
      await expect(continueButton).toBeVisible();
      await continueButton.click();

      await expect(page.getByText("Capital of Spain?")).toBeVisible();
      await page.getByRole("button", { name: "Madrid" }).click();
      await expect(page.getByText("Correct!")).toBeVisible();
      await expect(continueButton).toBeFocused();
      await continueButton.click();
      await expect(page.getByText("Capital of Italy?")).toBeVisible();
      // A right answer also goes on by itself after "Correct!".
      await page.getByRole("button", { name: "Rome" }).click();
      await expect(page.getByText("Correct!")).toBeVisible();
      await expect(page.getByText("You have finished all repetitions for this half a day!")).toBeVisible();
    });
  }
});
