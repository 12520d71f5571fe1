/**
 * A click on a server-rendered button before its island has hydrated is not lost: it is kept
 * (the button looks busy meanwhile) and replayed once the island is live. The islands' scripts
 * are held back here, as on a slow machine or network.
 */
import { expect, type Page } from "@playwright/test";
import { dayHour, engramTest, injectNotes, resetTestData, signInThroughIdentifyPage, testability } from "./support";

const test = engramTest("test");
test.use({ timezoneId: "UTC" });

/** Holds back every module script (the islands and their chunks); the early-click catcher is not one. */
async function slowIslands(page: Page, ms: number) {
  await page.route("**/assets/*.js", async (route) => {
    if (!route.request().url().includes("/early-clicks")) await new Promise((resolve) => setTimeout(resolve, ms));
    await route.continue();
  });
}

/** Opens a page without waiting for its islands (page.goto here waits for them). */
async function openBeforeHydration(page: Page, url: string) {
  await page.evaluate((to) => window.location.assign(to), url);
  await page.waitForURL(url, { waitUntil: "commit" });
}

const hydrated = (page: Page) => page.locator("body[data-hydrated]").count();

test.beforeEach(async ({ engram, page }) => {
  await resetTestData(engram.url);
  await signInThroughIdentifyPage(page, engram.url, "old_learner");
  await testability(page, engram.url, "time_travel", { travel_to: JSON.stringify(dayHour(1)) });
});

test("Keep for repetition, clicked as soon as the assimilate page shows, is done once the page is live", async ({ page, engram }) => {
  await testability(page, engram.url, "update_current_user", { daily_assimilation_count: "1" });
  await injectNotes(page, engram.url, [{ Title: "Sedition" }]);
  await slowIslands(page, 2000);
  await openBeforeHydration(page, `${engram.url}/d/assimilate`);
  const keep = page.getByRole("button", { name: "Keep for repetition" });
  await keep.click();
  expect(await hydrated(page)).toBe(0);
  await expect(keep).toHaveAttribute("data-pending-click", "");
  await expect(page.getByText("Assimilating: 1/1")).toBeVisible({ timeout: 15_000 });
});

test("Add New Notebook, clicked before the notebooks page is live, opens its dialog once it is", async ({ page, engram }) => {
  await slowIslands(page, 2000);
  await openBeforeHydration(page, `${engram.url}/d/notebooks`);
  const add = page.getByRole("button", { name: "Add New Notebook" });
  await add.click();
  expect(await hydrated(page)).toBe(0);
  await expect(page.getByRole("dialog")).toBeVisible({ timeout: 15_000 });
  // One click, one dialog: the click was not also done by the page as it was.
  await expect(page.getByRole("dialog")).toHaveCount(1);
});

test("a label typed and Generate Token clicked before the tokens page is live make the token with that label", async ({ page, engram }) => {
  await slowIslands(page, 2000);
  await openBeforeHydration(page, `${engram.url}/d/generate-token`);
  await page.getByLabel("Token label").fill("Typed early");
  await page.getByRole("button", { name: "Generate Token" }).click();
  expect(await hydrated(page)).toBe(0);
  await expect(page.getByLabel("New token value")).toHaveValue(/^engram_/, { timeout: 15_000 });
  await expect(page.getByRole("cell", { name: "Typed early", exact: true })).toBeVisible();
  await expect(page.getByText("Please enter a label")).toHaveCount(0);
});

test("text typed into a field before its island is live stays there once it is, and is what the island holds", async ({ page, engram }) => {
  await slowIslands(page, 2000);
  await openBeforeHydration(page, `${engram.url}/d/generate-token`);
  await page.getByLabel("Token label").fill("Kept while loading");
  expect(await hydrated(page)).toBe(0);
  await page.locator("body[data-hydrated]").waitFor({ timeout: 15_000 });
  // The tokens list renders again when it loads: the field keeps the text through it.
  await expect(page.getByText("No tokens yet")).toBeVisible();
  await expect(page.getByLabel("Token label")).toHaveValue("Kept while loading");
  await page.getByRole("button", { name: "Generate Token" }).click();
  await expect(page.getByRole("cell", { name: "Kept while loading", exact: true })).toBeVisible();
});
