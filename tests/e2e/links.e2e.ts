import { expect } from "@playwright/test";
import { engramTest, resetTestData, signInThroughIdentifyPage, waitForHydration } from "./support";

const test = engramTest("test");

let ids: Record<string, number>;

test.beforeEach(async ({ engram, page }) => {
  await resetTestData(engram.url);
  await signInThroughIdentifyPage(page, engram.url, "old_learner");
  const response = await page.request.post(`${engram.url}/api/testability/inject_notes`, {
    data: {
      externalIdentifier: "old_learner",
      circleName: null,
      noteTestData: [
        { Title: "Animals" },
        { Title: "Dog", "Parent Title": "Animals" },
        { Title: "Mammal", "Parent Title": "Animals" },
        { Title: "Pets" },
      ],
    },
  });
  ids = await response.json();
});

test("linking two notes shows the link on both sides; its type changes and deleting removes it", async ({ page, engram }) => {
  await page.goto(`${engram.url}/n${ids.Dog}`);
  await page.getByRole("button", { name: "search and link note" }).click();
  const search = page.getByRole("dialog", { name: "Search and link note" });
  await search.getByRole("searchbox", { name: "Search" }).fill("Mammal");
  const result = search.getByRole("listitem").filter({ hasText: "Mammal" });
  await result.getByRole("button", { name: "Link" }).click();

  const linkDialog = page.getByRole("dialog", { name: "Link to Mammal" });
  await expect(linkDialog.getByRole("radio", { name: "no link" })).toBeVisible();
  await linkDialog.getByRole("radio", { name: "a specialization of" }).check();
  await expect(linkDialog.getByText("Dog is a specialization of Mammal")).toBeVisible();
  await linkDialog.getByRole("button", { name: "Create link" }).click();
  await expect(linkDialog).toHaveCount(0);
  // A link note reads as a sentence wherever it is listed.
  await expect(page.locator(".child-card-title")).toHaveText("Dog — a specialization of — Mammal");

  await page.goto(`${engram.url}/n${ids.Mammal}`);
  const referencedBy = page.getByRole("region", { name: "Referenced by" });
  await expect(referencedBy).toContainText("a generalization of Dog");

  await referencedBy.getByRole("link", { name: "a generalization of" }).click();
  await waitForHydration(page);
  await page.getByRole("button", { name: "Change link type" }).click();
  const change = page.getByRole("dialog", { name: "Change link type" });
  await expect(change.getByRole("radio", { name: "no link" })).toHaveCount(0);
  await change.getByRole("radio", { name: "an example of" }).check();
  await change.getByRole("button", { name: "Update" }).click();
  await expect(page.locator(".link-type")).toHaveText("an example of");

  await page.getByRole("button", { name: "more options" }).click();
  await page.getByRole("menuitem", { name: "Delete note" }).click();
  await page.getByRole("dialog", { name: "Please confirm" }).getByRole("button", { name: "OK" }).click();
  await expect(page).toHaveURL(new RegExp(`/n${ids.Dog}$`));
  await waitForHydration(page);
  await expect(page.locator(".child-card-title")).toHaveCount(0);
  await page.goto(`${engram.url}/n${ids.Mammal}`);
  await expect(page.getByRole("region", { name: "Referenced by" })).toHaveCount(0);
});

test("Move Under asks first, then moves the note under the chosen one", async ({ page, engram }) => {
  await page.goto(`${engram.url}/n${ids.Dog}`);
  await page.getByRole("button", { name: "search and link note" }).click();
  const search = page.getByRole("dialog", { name: "Search and link note" });
  // A link search looks in the note's own notebook unless asked for all of them.
  await search.getByRole("searchbox", { name: "Search" }).fill("Pets");
  await expect(search.getByText("No matching notes found.")).toBeVisible();
  await search.getByLabel("All My Notebooks And Subscriptions").check();
  await search.getByRole("listitem").filter({ hasText: "Pets" }).getByRole("button", { name: "Move Under" }).click();
  const confirm = page.getByRole("dialog", { name: "Please confirm" });
  await confirm.getByRole("button", { name: "Cancel" }).click();
  expect((await (await page.request.get(`${engram.url}/api/notes/${ids.Dog}`)).json()).note.parentId).toBe(ids.Animals);
  await search.getByRole("listitem").filter({ hasText: "Pets" }).getByRole("button", { name: "Move Under" }).click();
  await page.getByRole("dialog", { name: "Please confirm" }).getByRole("button", { name: "OK" }).click();
  await expect.poll(async () => (await (await page.request.get(`${engram.url}/api/notes/${ids.Dog}`)).json()).note.parentId).toBe(ids.Pets);
  await waitForHydration(page);
  await expect(page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Pets" })).toBeVisible();
});
