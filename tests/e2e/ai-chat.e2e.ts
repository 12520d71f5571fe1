import AxeBuilder from "@axe-core/playwright";
import { expect } from "@playwright/test";
import {
  engramTest,
  injectNotes,
  resetTestData,
  showcase,
  signInThroughIdentifyPage,
  testability,
  useEngramWithFakeOpenAI,
} from "./support";

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
      fake.on("POST", "/script-title", (request) => {
        fake.chat.respondWithToolCall("suggest_note_title", request.body, { id: "call_title" });
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

  for (const viewport of [
    { name: "phone", width: 390, height: 844 },
    { name: "desktop", width: 1280, height: 800 },
  ]) {
    test(`asking the AI about one's own note is one step; its Markdown is rendered and its suggestion shows in the conversation, ${viewport.name}`, async ({
      page,
    }) => {
      await resetTestData(ai.url);
      expect((await page.request.post(`${ai.url}/api/testability/replace_service_url`, { data: { openAi: fake.url } })).ok()).toBe(true);
      const ids = await injectNotes(page, ai.url, [
        { Title: "Baking" },
        { Title: "Sourdough", "Parent Title": "Baking", Details: "A bread leavened by wild yeast." },
      ]);
      await signInThroughIdentifyPage(page, ai.url, "old_learner");
      await page.setViewportSize({ width: viewport.width, height: viewport.height });
      await page.goto(`${ai.url}/n${ids.Sourdough}`);

      // One step: ask, and the AI answers; its Markdown is rendered, never shown raw.
      await page.request.post(`${fake.url}/script-text`, { data: { text: "**Wild yeast** works slowly:\n\n- point one\n- point two" } });
      await page.getByRole("button", { name: "Ask AI about this note" }).click();
      const panel = page.getByRole("region", { name: "Conversations about this note" });
      await panel.getByLabel("Message").fill("Why does it rise slowly?");
      await panel.getByRole("button", { name: "Send message and invite AI to reply" }).click();
      const history = panel.getByRole("list", { name: "conversation history" });
      await expect(history.locator("strong", { hasText: "Wild yeast" })).toBeVisible();
      await expect(history.getByRole("listitem").filter({ hasText: "point one" }).last()).toBeVisible();
      await expect(history).not.toContainText("**");
      // Each message says when it was written.
      await expect(history.locator(".message").first().locator("time")).toHaveAttribute("datetime", /^\d{4}-/);
      // A conversation with nobody but the AI is named so, never "With Old Learner".
      await expect(panel).not.toContainText("With Old Learner");

      // A suggestion appears in the conversation, in view, with Accept for someone who may edit.
      await page.request.post(`${fake.url}/script-title`, { data: { newTitle: "Sourdough bread" } });
      await page.request.post(`${fake.url}/script-text`, { data: { text: "Renamed." } });
      await panel.getByLabel("Message").fill("Suggest a better title.");
      await panel.getByRole("button", { name: "Send message and invite AI to reply" }).click();
      const suggestion = history.locator(".ai-suggestion");
      await expect(suggestion).toContainText("Sourdough bread");
      await expect(suggestion.getByRole("button", { name: "Accept" })).toBeInViewport();
      await showcase(page, `ai-chat-suggestion-${viewport.width}`);
      await suggestion.getByRole("button", { name: "Accept" }).click();
      await expect(history.getByText("Renamed.")).toBeVisible();
      await expect(page.getByRole("textbox", { name: "note title" })).toHaveValue("Sourdough bread");

      // In the message center the conversation is named by its subject and "You and the AI".
      await page.goto(`${ai.url}/d/message-center`);
      const entry = page.getByRole("navigation", { name: "Conversations" }).getByRole("link", { name: /Sourdough/ });
      await expect(entry).toContainText("You and the AI");
      await expect(entry).not.toContainText("Old Learner");
    });
  }

  test("a reader who cannot edit the note sees the AI's suggestion as text, without Accept, and nothing fails", async ({ page }) => {
    await resetTestData(ai.url);
    expect((await page.request.post(`${ai.url}/api/testability/replace_service_url`, { data: { openAi: fake.url } })).ok()).toBe(true);
    const ids = await injectNotes(page, ai.url, [
      { Title: "Baking" },
      { Title: "Sourdough", "Parent Title": "Baking", Details: "A bread leavened by a sta" },
    ]);
    await testability(page, ai.url, "share_to_bazaar", { noteTopology: "Baking" });
    const pageErrors: string[] = [];
    page.on("pageerror", (error) => pageErrors.push(error.message));
    await signInThroughIdentifyPage(page, ai.url, "another_old_learner", `/n${ids.Sourdough}`);

    await page.request.post(`${fake.url}/script-completion`, { data: { deleteFromEnd: 3, completion: "starter." } });
    await page.request.post(`${fake.url}/script-text`, { data: { text: "Done." } });
    await page.getByRole("button", { name: "Ask AI about this note" }).click();
    const panel = page.getByRole("region", { name: "Conversations about this note" });
    await panel.getByLabel("Message").fill("Complete the details, please.");
    await panel.getByRole("button", { name: "Send message and invite AI to reply" }).click();
    const suggestion = panel.locator(".ai-suggestion");
    await expect(suggestion).toContainText("starter.");
    await expect(suggestion.getByRole("button", { name: "Accept" })).toHaveCount(0);
    await expect(suggestion).toContainText("Only people who may edit this note can accept it.");
    await suggestion.getByRole("button", { name: "Skip" }).click();
    await expect(panel.getByText("Done.")).toBeVisible();
    await expect(page.locator(".toast-error")).toHaveCount(0);
    expect(pageErrors).toEqual([]);
    // The conversation is with the note's owner.
    await expect(panel).toContainText("With Old Learner");
  });
});
