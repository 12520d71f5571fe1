import { expect } from "@playwright/test";
import { engramTest, resetTestData, signInThroughIdentifyPage, waitForHydration } from "./support";

const test = engramTest("test");

test.beforeEach(async ({ engram }) => resetTestData(engram.url));

test("a tester signs in through /users/identify and comes back to where they were", async ({ page, engram }) => {
  await page.goto(`${engram.url}/d/recall`);
  await expect(page).toHaveURL(/\/users\/identify\?from=%2Fd%2Frecall/);
  await waitForHydration(page);
  await expect(page.getByText("This login page is for test and development only")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Please sign in" })).toBeVisible();
  await page.getByLabel("Username").fill("old_learner");
  await page.getByLabel("Password").fill("password");
  await page.getByRole("button", { name: "Login" }).click();
  await expect(page).toHaveURL(/\/d\/recall$/);
  await waitForHydration(page);
  await expect(page.getByRole("link", { name: "Recall", exact: true })).toHaveAttribute("aria-current", "page");
  await page.getByRole("link", { name: "Engram home" }).click();
  await expect(page.getByRole("heading", { name: "Welcome Old Learner!" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Testability" })).toBeVisible();
});

test("an identity without a profile is asked for a nickname, and server errors show under the field", async ({ page, engram }) => {
  await signInThroughIdentifyPage(page, engram.url, "user");
  await expect(page.getByRole("heading", { name: "Welcome, new user. Please create your profile" })).toBeVisible();
  await page.getByLabel("Nickname").fill("   ");
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByText("size must be between 1 and 100")).toBeVisible();
  await page.getByLabel("Nickname").fill("Newcomer");
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByRole("heading", { name: "Welcome Newcomer!" })).toBeVisible();
});

test("the shell works at phone width and unknown pages are a proper 404", async ({ page, engram }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await signInThroughIdentifyPage(page, engram.url, "old_learner");
  await expect(page.getByRole("link", { name: "Note", exact: true })).toBeVisible();
  // The rest of the menu is a drawer of labelled items.
  await expect(page.getByRole("link", { name: "Bazaar" })).toBeHidden();
  const menu = page.getByRole("button", { name: "Menu" });
  await menu.click();
  await expect(menu).toHaveAttribute("aria-expanded", "true");
  await expect(page.getByRole("link", { name: "Bazaar" })).toBeInViewport();
  await expect(page.getByText("Assimilate", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Account" }).click();
  await expect(page.getByRole("menuitem", { name: "Recent..." })).toBeInViewport();
  await page.keyboard.press("Escape");
  await page.keyboard.press("Escape");
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(menu).toBeFocused();
  const response = await page.goto(`${engram.url}/d/nothing-here`);
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
});

test("a failed API call shows its message in a toast that closes by itself", async ({ page, engram }) => {
  await signInThroughIdentifyPage(page, engram.url, "old_learner", "/d/generate-token");
  await page.route("**/api/user/generate-token", (route) =>
    route.fulfill({ status: 500, contentType: "application/json", body: JSON.stringify({ message: "Disk is full" }) }),
  );
  await page.getByLabel("Token label").fill("x");
  await page.getByRole("button", { name: "Generate Token" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Disk is full" })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "Disk is full" })).toHaveCount(0, { timeout: 5000 });
});
