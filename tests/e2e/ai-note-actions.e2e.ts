import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";
import { engramTest, injectNotes, resetTestData, signInThroughIdentifyPage, useEngramWithFakeOpenAI } from "./support";

/**
 * One-shot AI actions as a person uses them: the notebook's Additional Instruction,
 * "Suggest title" with Accept (and undo), "Generate Image with DALL-E" used as the note image, and
 * its failure. A second Engram with an API key talks to the fake OpenAI in a Bun child process,
 * scripted through routes of its own.
 */
const test = engramTest("test");

async function axeProblems(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return results.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.help}`);
}
const horizontalOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

test.describe("one-shot AI actions on a note", () => {
  const { ai, fake } = useEngramWithFakeOpenAI(`
      fake.on("POST", "/script-title", (request) => {
        fake.chat.respondWithToolCall("suggest_note_title", { newTitle: request.body.newTitle });
        return Response.json({ pending: fake.chat.pending });
      });
      fake.on("POST", "/fail-images", () => {
        fake.on("POST", "/images/generations", () =>
          Response.json({ error: { message: "rejected", type: "invalid_request_error" } }, { status: 400 }));
        return Response.json({});
      });
      fake.on("GET", "/last-chat", () => Response.json(fake.chat.requests.at(-1) ?? null));
    `);

  test("additional instruction, title suggestion with undo, and an image made the note's", async ({ page }) => {
    await resetTestData(ai.url);
    expect((await page.request.post(`${ai.url}/api/testability/replace_service_url`, { data: { openAi: fake.url } })).ok()).toBe(true);
    const ids = await injectNotes(page, ai.url, [
      { Title: "Countries" },
      { Title: "France", "Parent Title": "Countries", Details: "Its capital is Paris." },
    ]);
    await signInThroughIdentifyPage(page, ai.url, "old_learner", "/d/notebooks");
    await page.setViewportSize({ width: 390, height: 844 });

    // The notebook's Additional Instruction, kept across opening the settings again.
    const card = page.getByRole("listitem").filter({ has: page.getByRole("link", { name: "Countries", exact: true }) });
    await card.getByRole("button", { name: "Edit notebook settings" }).click();
    let settings = page.getByRole("dialog", { name: "Edit notebook settings" });
    await settings.getByLabel("Additional Instruction").fill("Use British English.");
    await settings.getByRole("button", { name: "Save Additional Instruction" }).click();
    await expect(page.getByText("Additional instruction saved")).toBeVisible();
    expect(await axeProblems(page)).toEqual([]);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await page.reload();
    await card.getByRole("button", { name: "Edit notebook settings" }).click();
    settings = page.getByRole("dialog", { name: "Edit notebook settings" });
    await expect(settings.getByLabel("Additional Instruction")).toHaveValue("Use British English.");
    await page.keyboard.press("Escape");

    // Suggest title: shown, accepted, saved, and undone like an edit.
    await page.goto(`${ai.url}/n${ids.France}`);
    expect((await page.request.post(`${fake.url}/script-title`, { data: { newTitle: "The French Republic" } })).ok()).toBe(true);
    await page.getByRole("button", { name: "Suggest title" }).click();
    const suggestion = page.getByRole("dialog", { name: "Suggested title" });
    await expect(suggestion.getByText("The French Republic")).toBeVisible();
    expect(await axeProblems(page)).toEqual([]);
    const lastChat = await (await page.request.get(`${fake.url}/last-chat`)).json();
    expect(JSON.stringify(lastChat.messages)).toContain("Use British English.");
    await suggestion.getByRole("button", { name: "Accept" }).click();
    await expect(page.getByLabel("note title")).toHaveValue("The French Republic");
    await expect(page.getByRole("button", { name: "undo edit title" })).toBeVisible();
    await page.reload();
    await expect(page.getByLabel("note title")).toHaveValue("The French Republic");
    await page.getByRole("button", { name: "undo edit title" }).click();
    await expect(page.getByLabel("note title")).toHaveValue("France");

    // Generate Image with DALL-E: previewed, then the note's image.
    await page.getByRole("button", { name: "more options" }).click();
    await page.getByRole("menuitem", { name: "Generate Image with DALL-E" }).click();
    const dialog = page.getByRole("dialog", { name: "Generate Image with DALL-E" });
    await expect(dialog.getByLabel("Prompt")).toHaveValue("France");
    await dialog.getByLabel("Prompt").fill("A map of France");
    await dialog.getByRole("button", { name: "Generate" }).click();
    await expect(dialog.getByRole("img", { name: 'Generated image for "A map of France"' })).toBeVisible();
    expect(await axeProblems(page)).toEqual([]);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await dialog.getByRole("button", { name: "Use as note image" }).click();
    await expect(dialog).toHaveCount(0);
    await page.reload();
    await expect(page.locator(".note-accessory img")).toBeVisible();

    // A provider failure.
    expect((await page.request.post(`${fake.url}/fail-images`)).ok()).toBe(true);
    await page.getByRole("button", { name: "more options" }).click();
    await page.getByRole("menuitem", { name: "Generate Image with DALL-E" }).click();
    await dialog.getByRole("button", { name: "Generate" }).click();
    await expect(dialog.getByRole("alert")).toHaveText("There is a problem");
  });
});
