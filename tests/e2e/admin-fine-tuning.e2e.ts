import { readFileSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";
import { engramTest, injectNotes, resetTestData, signInThroughIdentifyPage, testability, useEngramWithFakeOpenAI } from "./support";

const test = engramTest("test");

/** Serious and critical axe findings of what the page shows now. */
async function axeFindings(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return results.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.nodes[0]?.target}`);
}

async function noOverflow(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
}

test.describe("the admin's fine-tuning data and assistant", () => {
  const { ai, fake } = useEngramWithFakeOpenAI();

  test("an admin edits, duplicates and deletes suggested questions, then triggers fine-tuning", async ({ page, browser }) => {
    test.slow(); // a long walk through two widths with axe checks
    await resetTestData(ai.url);
    expect((await page.request.post(`${ai.url}/api/testability/replace_service_url`, { data: { openAi: fake.url } })).ok()).toBe(true);
    await injectNotes(page, ai.url, [
      { Title: "Capitals" },
      { Title: "France", "Parent Title": "Capitals", Details: "Its capital is Paris." },
    ]);
    const questions = (await testability(page, ai.url, "inject-predefined-questions", {
      notebookTitle: "Capitals",
      predefinedQuestionTestData: Array.from({ length: 11 }, (_, i) => ({
        "Note Title": "France",
        Question: i === 10 ? "Which city is the capital of France?" : `Capital question ${i}?`,
        Answer: "Paris",
        "One Wrong Choice": "Lyon",
      })),
    })) as { id: number }[];

    // A learner suggests them: ten as good questions, the last as a bad one.
    const learner = await (await browser.newContext()).newPage();
    await signInThroughIdentifyPage(learner, ai.url, "old_learner", "/d/notebooks");
    for (const [i, question] of questions.entries()) {
      const response = await learner.request.post(`${ai.url}/api/predefined-questions/${question.id}/suggest-fine-tuning`, {
        data: { isPositiveFeedback: i < 10, comment: i < 10 ? "" : "Lyon is a trap" },
      });
      expect(response.ok()).toBe(true);
    }

    await page.setViewportSize({ width: 390, height: 844 });
    await signInThroughIdentifyPage(page, ai.url, "admin", "/d/admin-dashboard/fine-tuning");
    const list = page.getByRole("list", { name: "Suggested questions" });
    await expect(list.getByRole("listitem").filter({ hasText: "Capital question" })).toHaveCount(10);
    expect(await axeFindings(page)).toEqual([]);
    await noOverflow(page);

    // Edit the negative one: too few choices, then real answers that are not numbers, then right.
    await page.getByRole("button", { name: 'Edit "Which city is the capital of France?"' }).click();
    const dialog = page.getByRole("dialog", { name: "Edit suggested question" });
    await expect(dialog.getByLabel("Real correct answers (e.g. 0,2)")).toBeVisible();
    expect(await axeFindings(page)).toEqual([]);
    await dialog.getByLabel("Choice 2").fill("   ");
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog.getByText("At least 2 choices are required")).toBeVisible();
    await dialog.getByLabel("Choice 2").fill("Lyon");
    await dialog.getByLabel("Choice 3").fill(" Marseille ");
    await dialog.getByLabel("Real correct answers (e.g. 0,2)").fill("Paris");
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog.getByText("must be a number list")).toBeVisible();
    await dialog.getByLabel("Real correct answers (e.g. 0,2)").fill("0");
    await dialog.getByLabel("Correct choice index (from 0)").fill("3");
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog.getByText("Correct choice index is out of range")).toBeVisible();
    await dialog.getByLabel("Correct choice index (from 0)").fill("0");
    // The real answers field is hidden for positive feedback.
    await dialog.getByLabel("Positive feedback").check();
    await expect(dialog.getByLabel("Real correct answers (e.g. 0,2)")).toHaveCount(0);
    await dialog.getByLabel("Positive feedback").uncheck();
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog).toHaveCount(0);
    const edited = list.getByRole("listitem").filter({ hasText: "Which city is the capital of France?" });
    await expect(edited.getByRole("listitem")).toHaveText(["Paris (correct)", "Lyon", "Marseille"]);

    // Duplicate one, then delete the copy after the app's own confirmation.
    await page.getByRole("button", { name: 'Duplicate "Capital question 0?"' }).click();
    await expect(page.getByRole("button", { name: 'Delete "Capital question 0?"' })).toHaveCount(2);
    await page.getByRole("button", { name: 'Delete "Capital question 0?"' }).last().click();
    await page.getByRole("dialog", { name: "Please confirm" }).getByRole("button", { name: "OK" }).click();
    await expect(page.getByRole("button", { name: 'Delete "Capital question 0?"' })).toHaveCount(1);

    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole("button", { name: "Trigger Fine Tuning" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Training initiated." })).toBeVisible();
    const uploaded = (await (await fetch(fake.url.replace(/\/v1$/, "/v1/uploaded-files"))).json()) as {
      files: { filename: string; purpose: string; content: string }[];
      jobs: { model: string }[];
    };
    expect(uploaded.files.map((f) => f.purpose)).toEqual(["fine-tune", "fine-tune"]);
    expect(uploaded.jobs.map((j) => j.model)).toEqual(["gpt-4o-mini-2024-07-18", "gpt-4o-mini-2024-07-18"]);
    const evaluation = uploaded.files[1]!.content.split("\n").map((line) => JSON.parse(line));
    const last = evaluation.at(-1).messages;
    expect(JSON.parse(last[2].content)).toEqual({ correctChoices: [0], feasibleQuestion: false, improvementAdvices: "Lyon is a trap" });
    expect(last[1].content).toContain('"choices":["Paris","Lyon","Marseille"]');

    // With one positive example fewer the server's message is shown.
    await page.getByRole("button", { name: 'Delete "Capital question 1?"' }).click();
    await page.getByRole("dialog", { name: "Please confirm" }).getByRole("button", { name: "OK" }).click();
    await expect(page.getByRole("button", { name: 'Delete "Capital question 1?"' })).toHaveCount(0);
    await page.getByRole("button", { name: "Trigger Fine Tuning" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Positive feedback cannot be less than 10." })).toBeVisible();
  });

  test("an admin saves the default instructions, recreates the default assistant and downloads a notebook dump", async ({ page }) => {
    await resetTestData(ai.url);
    await injectNotes(page, ai.url, [
      { Title: "Capitals" },
      { Title: "France", "Parent Title": "Capitals", Details: "Its capital is Paris." },
    ]);
    await injectNotes(page, ai.url, [{ Title: "Rivers" }], "another_old_learner");
    await page.setViewportSize({ width: 390, height: 844 });
    await signInThroughIdentifyPage(page, ai.url, "admin", "/d/admin-dashboard/assistant");
    await expect(page.getByText("Not recreated yet")).toBeVisible();
    expect(await axeFindings(page)).toEqual([]);
    await noOverflow(page);

    await page.getByLabel("Additional instructions to AI").fill("Answer in British English.");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.getByRole("button", { name: "Save", exact: true })).toBeDisabled();
    await page.getByRole("button", { name: "Recreate Default Assistant" }).click();
    const facts = page.getByRole("definition");
    await expect(facts.first()).toHaveText("Notebook assistant");
    await expect(facts.nth(1)).toHaveText("gpt-4o-mini");
    await page.reload();
    await expect(page.getByLabel("Additional instructions to AI")).toHaveValue("Answer in British English.");

    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByLabel("Notebook", { exact: true }).selectOption({ label: "Capitals (by Old Learner)" });
    const downloading = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download notebook dump" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe("notebook-dump.json");
    const dump = JSON.parse(readFileSync((await download.path())!, "utf8"));
    expect(dump.notebook.title).toBe("Capitals");
    expect(dump.notes.map((n: { title: string }) => n.title)).toEqual(["Capitals", "France"]);
  });
});
