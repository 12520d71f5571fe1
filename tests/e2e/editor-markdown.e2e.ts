/**
 * The rich editor must not destroy Markdown it cannot show. A note with a
 * table is edited as Markdown (with the reason shown) and keeps its table; an ordinary note is
 * still edited in rich mode and saved as the Markdown it was, plus the edit.
 */
import { expect, type Page } from "@playwright/test";
import { engramTest, resetTestData, signInThroughIdentifyPage } from "./support";

const test = engramTest("test");

const TABLE = "| Property | Value |\n|---|---|\n| Moons | 2 |";
const TABLE_REASON = "This note has a table; edit it as Markdown";

async function injectNote(page: Page, url: string, title: string, details: string): Promise<number> {
  const response = await page.request.post(`${url}/api/testability/inject_notes`, {
    data: { externalIdentifier: "old_learner", circleName: null, noteTestData: [{ Title: title, Details: details }] },
  });
  return (await response.json())[title];
}

async function savedDetails(page: Page, url: string, noteId: number): Promise<string> {
  return (await (await page.request.get(`${url}/api/notes/${noteId}`)).json()).note.details;
}

test.beforeEach(async ({ engram, page }) => {
  await resetTestData(engram.url);
  await signInThroughIdentifyPage(page, engram.url, "old_learner");
});

for (const width of [390, 1280]) {
  test(`the owner sees a note's table rendered until a click opens the Markdown editor, ${width} px`, async ({ page, engram }) => {
    const details = `Mars facts\n\n${TABLE}`;
    const noteId = await injectNote(page, engram.url, "Mars", details);
    await page.setViewportSize({ width, height: 800 });
    await page.goto(`${engram.url}/n${noteId}`);
    const shown = page.getByRole("textbox", { name: "note details" });
    await expect(shown.getByRole("table")).toBeVisible();
    await expect(shown.getByRole("cell", { name: "Moons" })).toBeVisible();
    await expect(page.getByText("|---|")).toHaveCount(0);
    await expect(page.getByLabel("note details (markdown)")).toHaveCount(0);
    await expect(page.getByRole("note").filter({ hasText: TABLE_REASON })).toBeVisible();

    // A click opens the Markdown editor in its place, and what is typed at once goes into it.
    await shown.getByRole("cell", { name: "Moons" }).click();
    const markdown = page.getByLabel("note details (markdown)");
    await expect(markdown).toBeFocused();
    await page.keyboard.press("Control+End");
    await page.keyboard.type(" (Phobos, Deimos)");
    await markdown.blur();
    await expect.poll(() => savedDetails(page, engram.url, noteId)).toBe(`${details} (Phobos, Deimos)`);
  });
}

test("a note with a table opens in Markdown mode, says why, and keeps its table through an edit", async ({ page, engram }) => {
  const details = `Mars facts\n\n${TABLE}`;
  const noteId = await injectNote(page, engram.url, "Mars", details);
  // The server renders the table and the reason already: no rich editor flashes first.
  const html = await (await page.request.get(`${engram.url}/n${noteId}`)).text();
  expect(html).toContain("<table>");
  expect(html).toContain(TABLE_REASON);
  await page.goto(`${engram.url}/n${noteId}`);

  // The keyboard reaches the details and opens the Markdown editor.
  await page.getByRole("textbox", { name: "note details" }).focus();
  const markdown = page.getByLabel("note details (markdown)");
  await expect(markdown).toHaveValue(details);
  await expect(page.getByRole("note").filter({ hasText: TABLE_REASON })).toBeVisible();
  await expect(page.locator(".ql-editor")).toHaveCount(0);

  // Rich mode is not offered: the button stays reachable by keyboard and tells why.
  const richButton = page.getByRole("button", { name: "Edit as rich content" });
  await expect(richButton).toHaveAttribute("aria-disabled", "true");
  await expect(richButton).toHaveAttribute("title", TABLE_REASON);
  await expect(richButton).toHaveAccessibleDescription(TABLE_REASON);
  await richButton.focus();
  await page.keyboard.press("Enter");
  await expect(markdown).toBeVisible();
  await expect(page.locator(".ql-editor")).toHaveCount(0);

  // One character typed at the start of the text: the table is saved as it was.
  await markdown.focus();
  await page.keyboard.press("Control+Home");
  await page.keyboard.type("X");
  await markdown.blur();
  await expect.poll(() => savedDetails(page, engram.url, noteId)).toBe(`XMars facts\n\n${TABLE}`);

  await page.reload();
  await expect(page.getByRole("textbox", { name: "note details" }).getByRole("table")).toBeVisible();
  await expect(page.getByRole("note").filter({ hasText: TABLE_REASON })).toBeVisible();
  await page.getByRole("textbox", { name: "note details" }).click();
  await expect(page.getByLabel("note details (markdown)")).toHaveValue(`XMars facts\n\n${TABLE}`);
});

test("an ordinary note is edited in rich mode and saved as the Markdown it was, plus the edit", async ({ page, engram }) => {
  const details = "# Moon\nEarth's only **natural** satellite.\n\n- craters\n- maria";
  const noteId = await injectNote(page, engram.url, "Moon", details);
  await page.goto(`${engram.url}/n${noteId}`);

  const shown = page.getByRole("textbox", { name: "note details" });
  await expect(shown.locator("strong")).toHaveText("natural");
  await expect(page.getByLabel("note details (markdown)")).toHaveCount(0);
  await expect(page.getByRole("note")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Edit as markdown" })).toBeVisible();

  // Clicking the details starts editing them in the rich editor.
  await shown.click();
  const rich = page.locator(".ql-editor");
  await expect(rich).toBeFocused();
  await expect(rich.locator("strong")).toHaveText("natural");
  // The bubble theme's floating toolbar comes up over a selection.
  await rich.locator("strong").dblclick();
  await expect(page.locator(".ql-tooltip:not(.ql-hidden) button.ql-bold")).toBeVisible();

  await rich.locator("li").first().click();
  await page.keyboard.press("End");
  await page.keyboard.type("!");
  await expect
    .poll(() => savedDetails(page, engram.url, noteId), { timeout: 5000 })
    .toBe("# Moon\nEarth's only **natural** satellite.\n\n- craters!\n- maria");

  await page.reload();
  await expect(shown.locator("li").first()).toHaveText("craters!");
  await expect(shown.locator("h1")).toHaveText("Moon");
});

test("typing a table into the Markdown editor turns rich mode off, with the reason, until the table is gone", async ({ page, engram }) => {
  const noteId = await injectNote(page, engram.url, "Venus", "The morning star");
  await page.goto(`${engram.url}/n${noteId}`);
  await page.getByRole("button", { name: "Edit as markdown" }).click();
  const markdown = page.getByLabel("note details (markdown)");
  await markdown.fill(`The morning star\n\n${TABLE}`);

  const richButton = page.getByRole("button", { name: "Edit as rich content" });
  await expect(page.getByRole("note").filter({ hasText: TABLE_REASON })).toBeVisible();
  await expect(richButton).toHaveAttribute("aria-disabled", "true");
  await richButton.click({ force: true }); // a click on it does nothing
  await expect(markdown).toBeVisible();

  await markdown.fill("The morning star, *bright*");
  await expect(page.getByRole("note")).toHaveCount(0);
  await expect(richButton).not.toHaveAttribute("aria-disabled", "true");
  await richButton.click();
  await expect(page.locator(".ql-editor em")).toHaveText("bright");
  await expect.poll(() => savedDetails(page, engram.url, noteId)).toBe("The morning star, *bright*");
});

test("a note that cannot be edited (here: deleted) shows its table rendered, not flattened", async ({ page, engram }) => {
  const noteId = await injectNote(page, engram.url, "Phobos", `Moons of Mars\n\n${TABLE}`);
  await page.request.post(`${engram.url}/api/notes/${noteId}/delete`);
  await page.goto(`${engram.url}/n${noteId}`);
  await expect(page.getByText("This note has been deleted")).toBeVisible();
  await expect(page.locator(".note-details table th")).toHaveText(["Property", "Value"]);
  await expect(page.locator(".note-details td")).toHaveText(["Moons", "2"]);
  await expect(page.locator(".ql-editor")).toHaveCount(0);
});
