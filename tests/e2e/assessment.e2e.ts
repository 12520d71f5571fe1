import { expect, type Page } from "@playwright/test";
import { engramTest, injectNotes, resetTestData, signInThroughIdentifyPage, testability, waitForHydration } from "./support";

const test = engramTest("test");

test.beforeEach(async ({ engram }) => resetTestData(engram.url));

const CAPITALS = [
  ["France", "Paris"],
  ["Italy", "Rome"],
  ["Spain", "Madrid"],
] as const;

/** Answers question n (1-based) once it is on screen: the right capital, or the wrong choice. */
async function answer(page: Page, n: number, right: boolean) {
  const question = page.getByRole("region", { name: `question ${n} of 3` });
  // biome-ignore lint/performance/useDomNodeTextContent: a Playwright locator, not a DOM node: its innerText is the text as shown.
  const stem = await question.locator(".assessment-stem").innerText();
  const capital = CAPITALS.find(([country]) => stem.includes(country))![1];
  await question.getByRole("button", { name: right ? capital : "Atlantis", exact: true }).click();
}

test("a learner takes an assessment from the bazaar, fails once, passes, views the certificate and finds both attempts in the history", async ({
  page,
  engram,
}) => {
  await injectNotes(page, engram.url, [
    { Title: "Capitals" },
    ...CAPITALS.map(([country]) => ({ Title: country, "Parent Title": "Capitals" })),
  ]);
  await testability(page, engram.url, "inject-predefined-questions", {
    notebookTitle: "Capitals",
    notebookCertifiable: true,
    predefinedQuestionTestData: CAPITALS.map(([country, capital]) => ({
      "Note Title": country,
      Question: `What is the capital of ${country}?`,
      Answer: capital,
      "One Wrong Choice": "Atlantis",
      Approved: true,
    })),
  });
  await testability(page, engram.url, "share_to_bazaar", { noteTopology: "Capitals" });

  await signInThroughIdentifyPage(page, engram.url, "another_old_learner", "/d/bazaar");
  const card = page.getByRole("listitem").filter({ hasText: "Capitals" });
  await expect(card.getByText("Certificate")).toBeVisible();
  await card.getByRole("button", { name: "Start Assessment" }).click();
  await expect(page.getByRole("heading", { name: "Assessment For Capitals" })).toBeVisible();
  await waitForHydration(page);

  // First attempt: one right, then a wrong answer with feedback, then another wrong one.
  await answer(page, 1, true);
  await expect(page.getByText("Question 2 of 3")).toBeVisible();
  await answer(page, 2, false);
  await expect(page.getByText("The answer is incorrect.")).toBeVisible();
  await page.getByRole("button", { name: "Send feedback" }).click();
  const feedback = page.getByRole("dialog", { name: "Send feedback" });
  await feedback.getByLabel("What is wrong with this question?").fill("Atlantis should count");
  await feedback.getByRole("button", { name: "Send" }).click();
  await expect(feedback).toHaveCount(0);
  await page.getByRole("button", { name: "Continue" }).click();
  await answer(page, 3, false);
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByText("Your score: 1 / 3")).toBeVisible();
  await expect(page.getByText("You have not passed the assessment.")).toBeVisible();
  await expect(page.getByRole("button", { name: "View Certificate" })).toHaveCount(0);

  // Second attempt: all right.
  await page.reload();
  await waitForHydration(page);
  for (let n = 1; n <= 3; n++) await answer(page, n, true);
  await expect(page.getByText("Your score: 3 / 3")).toBeVisible();
  await expect(page.getByText("You have passed the assessment.")).toBeVisible();
  await page.getByRole("button", { name: "View Certificate" }).click();
  const certificate = page.getByRole("dialog", { name: "Certificate" });
  await expect(certificate).toContainText("Another Old Learner");
  await expect(certificate).toContainText("Capitals");
  await expect(certificate).toContainText("Old Learner");
  await expect(certificate.getByText(/^\d{4}-\d{2}-\d{2}$/)).toHaveCount(2);
  await certificate.getByRole("button", { name: "Print" }).waitFor();
  await page.keyboard.press("Escape");

  // The history, from the Account menu.
  await page.getByRole("button", { name: "Account" }).click();
  await page.getByRole("menuitem", { name: "My Assessments and Certificates" }).click();
  await expect(page.getByRole("heading", { name: "My Assessment and Certificate History" })).toBeVisible();
  await waitForHydration(page);
  const rows = page.getByRole("table").getByRole("row");
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(1)).toContainText("Pass");
  await expect(rows.nth(2)).toContainText("Fail");
  await page.getByLabel("Filter by Certificate").check();
  await expect(rows).toHaveCount(2);
  await page.getByLabel("Search by notebook").fill("nothing like it");
  await expect(page.getByText("No attempt matches.")).toBeVisible();
  await page.getByLabel("Search by notebook").fill("capit");
  await rows.nth(1).getByRole("button", { name: "View Certificate" }).click();
  await expect(page.getByRole("dialog", { name: "Certificate" })).toContainText("Another Old Learner");
});

test("the notebook's creator asks for certification from the settings", async ({ page, engram }) => {
  await injectNotes(page, engram.url, [{ Title: "Capitals" }]);
  await signInThroughIdentifyPage(page, engram.url, "old_learner", "/d/notebooks");
  await page.getByRole("listitem").filter({ hasText: "Capitals" }).getByRole("button", { name: "Edit notebook settings" }).click();
  const settings = page.getByRole("dialog", { name: "Edit notebook settings" });
  await settings.getByRole("button", { name: "Send Request" }).click();
  await expect(settings.getByRole("button", { name: "Approval Pending" })).toBeDisabled();
});

test("an assessment question's Markdown is rendered, never shown raw", async ({ page, engram }) => {
  await injectNotes(page, engram.url, [{ Title: "Cells" }, { Title: "Mitochondria", "Parent Title": "Cells" }]);
  await testability(page, engram.url, "inject-predefined-questions", {
    notebookTitle: "Cells",
    predefinedQuestionTestData: [
      {
        "Note Title": "Mitochondria",
        Question: "Which organelle makes **ATP**?",
        Answer: "The *mitochondrion*",
        "One Wrong Choice": "The ribosome",
        Approved: true,
      },
    ],
  });
  await testability(page, engram.url, "share_to_bazaar", { noteTopology: "Cells" });
  await signInThroughIdentifyPage(page, engram.url, "another_old_learner", "/d/bazaar");
  await page.getByRole("listitem").filter({ hasText: "Cells" }).getByRole("button", { name: "Start Assessment" }).click();
  const question = page.getByRole("region", { name: "question 1 of 1" });
  await expect(question.locator(".assessment-stem strong")).toHaveText("ATP");
  await expect(question.getByRole("button", { name: "The mitochondrion" }).locator("em")).toHaveText("mitochondrion");
  await expect(question).not.toContainText("**");
  await expect(question).not.toContainText("*mitochondrion*");
});
