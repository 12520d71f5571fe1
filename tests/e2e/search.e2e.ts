import { expect } from "@playwright/test";
import { engramTest, resetTestData, signInThroughIdentifyPage } from "./support";

const test = engramTest("test");

let ids: Record<string, number>;

test.beforeEach(async ({ engram }) => {
  await resetTestData(engram.url);
  const response = await fetch(`${engram.url}/api/testability/inject_notes`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      externalIdentifier: "old_learner",
      circleName: null,
      noteTestData: [
        { Title: "Biology", Details: "The study of life" },
        { Title: "Photosynthesis", "Parent Title": "Biology", Details: "Plants turn light into sugar" },
        { Title: "Cat", "Parent Title": "Biology", Details: "A small feline" },
        { Title: "Wildcat", "Parent Title": "Biology" },
        { Title: "Cooking" },
        { Title: "Catalan cream", "Parent Title": "Cooking", Details: "A custard" },
      ],
    }),
  });
  ids = await response.json();
});

test("search note in the top bar finds notes in every notebook and links to them", async ({ page, engram }) => {
  await signInThroughIdentifyPage(page, engram.url, "old_learner", "/d/notebooks");
  await page.getByRole("button", { name: "search note" }).click();
  const dialog = page.getByRole("dialog", { name: "Search note" });
  const key = dialog.getByRole("searchbox", { name: "Search" });
  await expect(key).toBeFocused();
  await expect(dialog.getByLabel("All My Notebooks And Subscriptions")).toBeChecked();

  // Delay the answer a little, so "Searching ..." can be seen as a person would.
  await page.route("**/api/notes/search", async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 300));
    await route.continue();
  });
  await key.fill("cat");
  await expect(dialog.getByText("Searching ...")).toBeVisible();
  const results = dialog.getByRole("list", { name: "Search results" });
  await expect(results.getByRole("listitem")).toHaveCount(3);
  await expect(dialog.getByText("Searching ...")).toHaveCount(0);
  // The exact title first; then the titles containing the key, from both notebooks. The distances
  // rank them but mean nothing to a reader: none is shown.
  await expect(results.getByRole("listitem").first()).toContainText("Cat");
  await expect(results.getByRole("listitem").first()).toHaveAttribute("data-distance", "0.000");
  await expect(results).not.toContainText("distance");
  await expect(results).not.toContainText("0.000");
  await expect(results.getByRole("link", { name: "Catalan cream" })).toBeVisible();
  await expect(results.getByRole("button", { name: "Link" })).toHaveCount(0);
  await expect(dialog.getByText(/Semantic search is off/)).toBeVisible();

  await key.fill("zebra crossing");
  await expect(dialog.getByText("No matching notes found.")).toBeVisible();

  await key.fill("wildcat");
  await key.press("Enter");
  await results.getByRole("link", { name: "Wildcat" }).click();
  await expect(page).toHaveURL(new RegExp(`/n${ids.Wildcat}$`));
});

test("search and link note offers Link and Move Under on each result, and Move Under asks first", async ({ page, engram }) => {
  await signInThroughIdentifyPage(page, engram.url, "old_learner", `/n${ids.Photosynthesis}`);
  await page.getByRole("button", { name: "search and link note" }).click();
  const dialog = page.getByRole("dialog", { name: "Search and link note" });
  const allMine = dialog.getByLabel("All My Notebooks And Subscriptions");
  const allCircles = dialog.getByLabel("All My Circles");
  await expect(allMine).not.toBeChecked();
  await expect(allCircles).not.toBeChecked();

  await dialog.getByRole("searchbox", { name: "Search" }).fill("l");
  const results = dialog.getByRole("list", { name: "Search results" });
  // Only the note's own notebook, and never the note itself.
  await expect(results.getByRole("listitem")).toHaveCount(3);
  await expect(results.getByText("Photosynthesis")).toHaveCount(0);
  await expect(results.getByText("Catalan cream")).toHaveCount(0);

  // Circles include my notebooks; unchecking my notebooks unchecks circles.
  await allCircles.check();
  await expect(allMine).toBeChecked();
  await expect(results.getByText("Catalan cream")).toBeVisible();
  await allMine.uncheck();
  await expect(allCircles).not.toBeChecked();
  await expect(results.getByText("Catalan cream")).toHaveCount(0);

  const cat = results.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Cat", exact: true }) });
  await expect(cat.getByRole("button", { name: "Link" })).toBeVisible();
  await cat.getByRole("button", { name: "Move Under" }).click();
  const confirm = page.getByRole("dialog", { name: "Please confirm" });
  await expect(confirm).toContainText('move this note under "Cat"');
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(confirm).toHaveCount(0);
  await expect(dialog).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/n${ids.Photosynthesis}$`));
});

test("while the semantic index is being built, the search says so and how far it got", async ({ page, engram }) => {
  await signInThroughIdentifyPage(page, engram.url, "old_learner", "/d/notebooks");
  // The server's answer while notes wait for their first embedding (tests/api/semantic-catch-up.test.ts).
  await page.route("**/api/notes/semantic-search", (route) =>
    route.fulfill({
      status: 200,
      contentType: "application/json",
      headers: { "x-engram-semantic": "on", "x-engram-semantic-progress": "2/6" },
      body: "[]",
    }),
  );
  await page.getByRole("button", { name: "search note" }).click();
  const dialog = page.getByRole("dialog", { name: "Search note" });
  await dialog.getByRole("searchbox", { name: "Search" }).fill("cat");
  await expect(dialog.getByText("The semantic index is being built (2 of 6 notes so far)")).toBeVisible();
  await expect(dialog.getByRole("list", { name: "Search results" }).getByRole("listitem")).toHaveCount(3);
});

test("the notebook settings update and reset the semantic search index", async ({ page, engram }) => {
  await signInThroughIdentifyPage(page, engram.url, "old_learner", "/d/notebooks");
  const card = page.getByRole("listitem").filter({ has: page.getByRole("link", { name: "Biology", exact: true }) });
  await card.getByRole("button", { name: "Edit notebook settings" }).click();
  const settings = page.getByRole("dialog", { name: "Edit notebook settings" });
  const update = settings.getByRole("button", { name: "Update index" });
  const reset = settings.getByRole("button", { name: "Reset index" });

  // This server has no AI provider: the operation fails and says so.
  await update.click();
  const alert = page.getByRole("dialog", { name: "Information" });
  await expect(alert).toContainText("Failed to update notebook index");
  await alert.getByRole("button", { name: "OK" }).click();
  await reset.click();
  await expect(alert).toContainText("Failed to reset notebook index");
  await alert.getByRole("button", { name: "OK" }).click();

  // With a provider (its answer stood in for here), both buttons wait, then the completion shows.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/api/notebooks/*/reset-index", async (route) => {
    await released;
    await route.fulfill({ status: 200, body: "" });
  });
  await reset.click();
  await expect(settings.getByText("Working...")).toBeVisible();
  await expect(update).toBeDisabled();
  await expect(reset).toBeDisabled();
  release();
  const complete = page.getByRole("dialog", { name: "Index operation complete" });
  await expect(complete).toContainText("Notebook index has been updated.");
  await complete.getByRole("button", { name: "OK" }).click();
  await expect(complete).toHaveCount(0);
  await expect(settings).toHaveCount(0);
});
