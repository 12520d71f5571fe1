import { expect, type Page } from "@playwright/test";
import { engramTest, resetTestData, signInThroughIdentifyPage } from "./support";

/** The title and details know their limits, and a refused save is not retried. */
const test = engramTest("test");

async function injectNote(page: Page, url: string, title: string, details: string): Promise<number> {
  const response = await page.request.post(`${url}/api/testability/inject_notes`, {
    data: { externalIdentifier: "old_learner", circleName: null, noteTestData: [{ Title: title, Details: details }] },
  });
  return (await response.json())[title];
}

async function serverNote(page: Page, url: string, noteId: number) {
  return (await (await page.request.get(`${url}/api/notes/${noteId}`)).json()).note;
}

/** Counts the browser's saves of one field. */
function countSaves(page: Page, field: "title" | "details") {
  const saves = { count: 0 };
  page.on("request", (request) => {
    if (request.method() === "PATCH" && request.url().includes(`/api/text_content/`) && request.url().endsWith(`/${field}`)) saves.count++;
  });
  return saves;
}

test.beforeEach(async ({ engram, page }) => {
  await resetTestData(engram.url);
  await signInThroughIdentifyPage(page, engram.url, "old_learner");
});

test("a pasted over-long title is kept whole, told it is too long, and never sent", async ({ page, engram, context }) => {
  const noteId = await injectNote(page, engram.url, "Short", "");
  await page.goto(`${engram.url}/n${noteId}`);
  const saves = countSaves(page, "title");
  const long = "Long title ".repeat(1000).slice(0, 10_000);

  const title = page.getByLabel("note title");
  await title.click();
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.insertText(long); // as a paste: one insertion of the whole text
  await expect(title).toHaveValue(long);
  await expect(
    page.getByRole("alert").filter({ hasText: "Title too long: 10,000 characters, the limit is 150. Not saved until you remove 9,850." }),
  ).toBeVisible();
  await expect(page.getByText("10,000 / 150 characters")).toBeVisible();
  await expect(page.getByText("This text is kept only in this browser until it can be saved.")).toBeVisible();
  await title.press("Enter"); // ends the edit: a blur would save
  await page.waitForTimeout(1500);
  expect(saves.count).toBe(0);
  expect((await serverNote(page, engram.url, noteId)).noteTopology.titleOrPredicate).toBe("Short");
  await expect(page.locator(".save-state")).toHaveText("Not saved");

  // Copy text puts the whole kept text on the clipboard.
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: engram.url });
  await page.getByRole("button", { name: "Copy text" }).click();
  await expect(page.getByText("Copied.")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(long);

  // Shortened back under the limit, it saves.
  await title.fill("A title that fits");
  await title.press("Enter");
  await expect.poll(async () => (await serverNote(page, engram.url, noteId)).noteTopology.titleOrPredicate).toBe("A title that fits");
  await expect(page.getByText("This text is kept only in this browser")).toHaveCount(0);
});

test("details over 200,000 characters are told so and never sent; the server keeps the old details", async ({ page, engram }) => {
  const noteId = await injectNote(page, engram.url, "Big", "old details");
  await page.goto(`${engram.url}/n${noteId}`);
  await page.getByRole("button", { name: "Edit as markdown" }).click();
  const saves = countSaves(page, "details");
  const markdown = page.getByLabel("note details (markdown)");
  await markdown.click();
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.insertText("x".repeat(204_800));
  await expect(
    page
      .getByRole("alert")
      .filter({ hasText: "Details too long: 204,800 characters, the limit is 200,000. Not saved until you remove 4,800." }),
  ).toBeVisible();
  await markdown.blur();
  await page.waitForTimeout(2500);
  expect(saves.count).toBe(0);
  await expect(markdown).toHaveValue("x".repeat(204_800));
  expect((await serverNote(page, engram.url, noteId)).details).toBe("old details");
  await expect(page.getByText("Not saved yet, retrying...")).toHaveCount(0);
});

test("a save the server refuses shows its field message once, and is not retried until the text changes", async ({ page, engram }) => {
  const noteId = await injectNote(page, engram.url, "Refused", "old details");
  await page.goto(`${engram.url}/n${noteId}`);
  await page.getByRole("button", { name: "Edit as markdown" }).click();
  // The server refuses every details save, as it would a text it finds too long.
  await page.route("**/api/text_content/*/details", (route) =>
    route.fulfill({
      status: 400,
      contentType: "application/json",
      body: JSON.stringify({ message: "binding error", errorType: "BINDING_ERROR", errors: { details: "size must be at most 200000" } }),
    }),
  );
  const saves = countSaves(page, "details");
  const markdown = page.getByLabel("note details (markdown)");
  await markdown.fill("new details");
  await markdown.blur();
  await expect(page.getByRole("alert").filter({ hasText: "Details not saved: size must be at most 200000" })).toBeVisible();
  await expect(page.getByText("This text is kept only in this browser until it can be saved.")).toBeVisible();
  await page.waitForTimeout(6000); // past the first two retry delays of a failing save
  expect(saves.count).toBe(1);
  await expect(page.getByText("binding error")).toHaveCount(0);
  await expect(page.getByText("Not saved yet, retrying...")).toHaveCount(0);
  await expect(markdown).toHaveValue("new details");

  // A new edit is sent again; once the server takes it, the message goes.
  await page.unroute("**/api/text_content/*/details");
  await markdown.fill("newer details");
  await markdown.blur();
  await expect.poll(async () => (await serverNote(page, engram.url, noteId)).details).toBe("newer details");
  expect(saves.count).toBe(2);
  await expect(page.getByText("Details not saved")).toHaveCount(0);
});

test("a form's title field keeps a pasted over-long title and says so; the server's message shows on submit", async ({ page, engram }) => {
  await page.goto(`${engram.url}/d/notebooks`);
  await page.getByRole("button", { name: "Add New Notebook" }).click();
  const dialog = page.getByRole("dialog", { name: "Add New Notebook" });
  const title = dialog.getByLabel("Title");
  await title.click();
  await page.keyboard.insertText("n".repeat(200));
  await expect(title).toHaveValue("n".repeat(200));
  await expect(title).toHaveAttribute("aria-invalid", "true");
  await expect(dialog.getByText("200 / 150 characters")).toBeVisible();
  await expect(dialog.getByRole("alert")).toHaveText("Title too long: 200 characters, the limit is 150. Not saved until you remove 50.");
  await dialog.getByRole("button", { name: "Submit" }).click();
  await expect(dialog.getByRole("alert")).toHaveText("size must be between 1 and 150");
  await expect(title).toHaveValue("n".repeat(200));
});
