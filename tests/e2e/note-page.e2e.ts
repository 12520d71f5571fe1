import { expect, type Page } from "@playwright/test";
import { engramTest, injectNotes, resetTestData, signInThroughIdentifyPage, waitForHydration } from "./support";

const test = engramTest("test");

async function realm(page: Page, url: string, noteId: number | undefined) {
  return (await page.request.get(`${url}/api/notes/${noteId}`)).json();
}

test.beforeEach(async ({ engram, page }) => {
  await resetTestData(engram.url);
  await signInThroughIdentifyPage(page, engram.url, "old_learner");
});

test("title and details autosave in both editors and survive a reload", async ({ page, engram }) => {
  const ids = await injectNotes(page, engram.url, [
    { Title: "Animals" },
    { Title: "Mammals", "Parent Title": "Animals", Details: "Warm **blooded**" },
  ]);
  await page.goto(`${engram.url}/n${ids.Mammals}`);
  await expect(page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Animals" })).toBeVisible();
  await expect(page.locator(".rich-details strong")).toHaveText("blooded");

  const title = page.getByLabel("note title");
  await title.fill("");
  await expect(page.getByText("The title cannot be empty")).toBeVisible();
  await title.fill("Mammalia");
  await title.press("Enter");
  await expect.poll(async () => (await realm(page, engram.url, ids.Mammals)).note.noteTopology.titleOrPredicate).toBe("Mammalia");

  // The details are shown as HTML until the learner starts editing them: a click loads the editor.
  await page.getByRole("textbox", { name: "note details" }).click();
  await expect(page.locator(".ql-editor")).toBeFocused();
  await page.keyboard.press("Home");
  await page.keyboard.type("Very ");
  await expect.poll(async () => (await realm(page, engram.url, ids.Mammals)).note.details, { timeout: 5000 }).toBe("Very Warm **blooded**");

  await page.getByRole("button", { name: "Edit as markdown" }).click();
  const markdown = page.getByLabel("note details (markdown)");
  await expect(markdown).toHaveValue("Very Warm **blooded**");
  await markdown.fill("# Mammals\n\n- have fur");
  await markdown.blur();
  await expect.poll(async () => (await realm(page, engram.url, ids.Mammals)).note.details).toBe("# Mammals\n\n- have fur");

  await page.reload();
  await expect(page.getByLabel("note title")).toHaveValue("Mammalia");
  await expect(page.getByLabel("note details (markdown)")).toHaveValue("# Mammals\n\n- have fur");
  await page.getByRole("button", { name: "Edit as rich content" }).click();
  await expect(page.locator(".ql-editor h1")).toHaveText("Mammals");
  await expect(page.locator(".ql-editor li")).toHaveText("have fur");
});

test("typing and leaving the page at once still saves", async ({ page, engram }) => {
  const ids = await injectNotes(page, engram.url, [{ Title: "Quick" }]);
  await page.goto(`${engram.url}/n${ids.Quick}`);
  await page.getByRole("button", { name: "Edit as markdown" }).click();
  await page.getByLabel("note details (markdown)").fill("typed just before leaving");
  await page.goto(`${engram.url}/d/notebooks`);
  await expect.poll(async () => (await realm(page, engram.url, ids.Quick)).note.details).toBe("typed just before leaving");
});

test("adding children and a sibling, then deleting and undoing", async ({ page, engram }) => {
  const ids = await injectNotes(page, engram.url, [{ Title: "Animals" }, { Title: "Mammals", "Parent Title": "Animals" }]);
  await page.goto(`${engram.url}/n${ids.Animals}`);
  await expect(page.getByRole("button", { name: "Add Next Sibling Note" })).toHaveCount(0);

  await page.getByRole("button", { name: "Add Child Note" }).click();
  const dialog = page.getByRole("dialog", { name: "Add Child Note" });
  await expect(dialog.getByLabel("Title")).toHaveValue("Untitled");
  await dialog.getByLabel("Title").fill("Birds");
  await dialog.getByRole("button", { name: "Submit" }).click();
  await expect(page).toHaveURL(/\/n\d+$/);
  await waitForHydration(page);
  await expect(page.getByLabel("note title")).toHaveValue("Birds");
  const birdsUrl = page.url();

  await page.getByRole("button", { name: "Add Next Sibling Note" }).click();
  const sibling = page.getByRole("dialog", { name: "Add Next Sibling Note" });
  await sibling.getByLabel("Title").fill("   ");
  await sibling.getByRole("button", { name: "Submit" }).click();
  await expect(sibling.getByText("size must be between 1 and 150")).toBeVisible();
  await sibling.getByLabel("Title").fill("Fish");
  await sibling.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByLabel("note title")).toHaveValue("Fish");
  const children = (await realm(page, engram.url, ids.Animals)).children.map(
    (c: { noteTopology: { titleOrPredicate: string } }) => c.noteTopology.titleOrPredicate,
  );
  expect(children).toEqual(["Mammals", "Birds", "Fish"]);

  await page.goto(birdsUrl);
  await page.getByRole("button", { name: "more options" }).click();
  await page.getByRole("menuitem", { name: "Delete note" }).click();
  await page.getByRole("dialog", { name: "Please confirm" }).getByRole("button", { name: "OK" }).click();
  await expect(page).toHaveURL(new RegExp(`/n${ids.Animals}$`));
  await waitForHydration(page);
  await expect(page.locator(".child-card-title")).toHaveText(["Mammals", "Fish"]);

  await page.getByRole("button", { name: "undo delete note" }).click();
  await expect(page).toHaveURL(birdsUrl);
  await waitForHydration(page);
  await expect(page.getByLabel("note title")).toHaveValue("Birds");
  await expect(page.getByText("This note has been deleted")).toHaveCount(0);
});

test("undo restores an edited title, also after moving to another page", async ({ page, engram }) => {
  const ids = await injectNotes(page, engram.url, [{ Title: "Original" }]);
  await page.goto(`${engram.url}/n${ids.Original}`);
  await expect(page.getByRole("button", { name: /^undo/ })).toHaveCount(0);
  await page.getByLabel("note title").fill("Changed");
  await page.getByLabel("note title").blur();
  await expect(page.getByRole("button", { name: "undo edit title" })).toBeVisible();
  await page.goto(`${engram.url}/d/notebooks`);
  await page.getByRole("button", { name: "undo edit title" }).click();
  await expect(page).toHaveURL(new RegExp(`/n${ids.Original}$`));
  await waitForHydration(page);
  await expect(page.getByLabel("note title")).toHaveValue("Original");
  await expect(page.getByRole("button", { name: /^undo/ })).toHaveCount(0);
});

test("a deleted note says so, and a note of another user is refused", async ({ page, engram }) => {
  const ids = await injectNotes(page, engram.url, [{ Title: "Root" }, { Title: "Gone", "Parent Title": "Root" }]);
  await page.request.post(`${engram.url}/api/notes/${ids.Gone}/delete`);
  await page.goto(`${engram.url}/n${ids.Gone}`);
  await expect(page.getByText("This note has been deleted")).toBeVisible();
  await expect(page.getByRole("button", { name: "more options" })).toHaveCount(0);

  const theirs = await (
    await page.request.post(`${engram.url}/api/testability/inject_notes`, {
      data: { externalIdentifier: "another_old_learner", circleName: null, noteTestData: [{ Title: "Secret" }] },
    })
  ).json();
  const response = await page.goto(`${engram.url}/n${theirs.Secret}`);
  expect(response?.status()).toBe(403);
  await expect(page.getByText("Secret")).toHaveCount(0);
});

test("a failed save keeps the text and retries until it is saved", async ({ page, engram }) => {
  const ids = await injectNotes(page, engram.url, [{ Title: "Flaky" }]);
  await page.goto(`${engram.url}/n${ids.Flaky}`);
  let failures = 1;
  await page.route("**/api/text_content/*/title", (route) => (failures-- > 0 ? route.abort() : route.continue()));
  await page.getByLabel("note title").fill("Saved eventually");
  await page.getByLabel("note title").blur();
  await expect(page.getByText("Not saved yet, retrying...")).toBeVisible();
  await expect(page.getByLabel("note title")).toHaveValue("Saved eventually");
  await expect
    .poll(async () => (await realm(page, engram.url, ids.Flaky)).note.noteTopology.titleOrPredicate, { timeout: 8000 })
    .toBe("Saved eventually");
});
