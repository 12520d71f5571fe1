import AxeBuilder from "@axe-core/playwright";
import { expect } from "@playwright/test";
import { engramTest, injectNotes, resetTestData, signInThroughIdentifyPage, useEngramWithFakeOpenAI } from "./support";

/**
 * A learner asks the AI about a note in the message center: the streamed reply
 * appears and is kept; asked to complete the details, the AI's suggestion is accepted, the note
 * changes (after a reload too, and undo takes it back) and the continuation after the submitted
 * result appears in the chat. The fake OpenAI runs in a Bun child process, scripted through its
 * own routes.
 */
const test = engramTest("test");

test.describe("chat with the AI", () => {
  const { ai, fake } = useEngramWithFakeOpenAI(
    `
      fake.on("POST", "/script-text", (request) => {
        fake.chat.respondWithText(request.body.text);
        return Response.json({});
      });
      fake.on("POST", "/script-completion", (request) => {
        fake.chat.respondWithToolCall("complete_note_details", request.body, { id: "call_e2e" });
        return Response.json({});
      });
    `,
    `{ streamChunkDelayMs: 20 }`,
  );

  test("a learner asks the AI, accepts a suggested completion and sees the note change", async ({ page }) => {
    await resetTestData(ai.url);
    expect((await page.request.post(`${ai.url}/api/testability/replace_service_url`, { data: { openAi: fake.url } })).ok()).toBe(true);
    const ids = await injectNotes(page, ai.url, [
      { Title: "Baking" },
      { Title: "Sourdough", "Parent Title": "Baking", Details: "A bread leavened by a sta" },
    ]);
    await signInThroughIdentifyPage(page, ai.url, "old_learner", `/n${ids.Sourdough}`);
    const started = await page.request.post(`${ai.url}/api/conversation/note/${ids.Sourdough}`, { data: { message: "Hello" } });
    const conversationId = (await started.json()).id;
    await page.goto(`${ai.url}/d/message-center/${conversationId}`);

    // A plain reply streams in and stays.
    await page.request.post(`${fake.url}/script-text`, { data: { text: "Sourdough rises slowly because wild yeast is slow." } });
    await page.getByLabel("Message").fill("Why does it rise slowly?");
    await page.getByRole("button", { name: "Send message and invite AI to reply" }).click();
    await expect(page.getByText("Sourdough rises slowly because wild yeast is slow.")).toBeVisible();
    await expect(page.getByText("Why does it rise slowly?")).toBeVisible();

    // A completion suggestion: accepted, the continuation appears.
    await page.request.post(`${fake.url}/script-completion`, { data: { deleteFromEnd: 3, completion: "starter." } });
    await page.request.post(`${fake.url}/script-text`, { data: { text: "I completed the details." } });
    await page.getByLabel("Message").fill("Please complete the note details.");
    await page.getByRole("button", { name: "Send message and invite AI to reply" }).click();
    await expect(page.getByText("Suggested completion:")).toBeVisible();
    await expect(page.getByText("sta", { exact: true })).toBeVisible(); // the deleted tail, struck through
    // Accessible and fitting a phone while the suggestion waits.
    await page.setViewportSize({ width: 390, height: 844 });
    // Only the AI part: the rest of the conversation view is tested with the message center.
    const results = await new AxeBuilder({ page })
      .include(".ai-reply")
      .include(".message-input")
      .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
      .analyze();
    expect(results.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.help}`)).toEqual(
      [],
    );
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    await page.getByRole("button", { name: "Accept" }).click();
    await expect(page.getByText("I completed the details.")).toBeVisible();

    await page.goto(`${ai.url}/n${ids.Sourdough}`);
    await expect(page.getByText("A bread leavened by a starter.")).toBeVisible();
    await page.reload();
    await expect(page.getByText("A bread leavened by a starter.")).toBeVisible();
    await page.getByRole("button", { name: "undo edit details" }).click();
    await expect(page.getByText("A bread leavened by a starter.")).toHaveCount(0);
  });
});
