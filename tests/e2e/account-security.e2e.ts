import { type Browser, expect, type Page } from "@playwright/test";
import { engramTest, signUpThroughPages } from "./support";

const test = engramTest("production");

/** A second browser signed in to the same account; answers whether its session still works. */
async function otherBrowser(browser: Browser, url: string, username: string, password: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${url}/users/sign-in`);
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(`${url}/`);
  return {
    signedIn: async () => (await (await page.request.get(`${url}/api/user/current-user-info`)).json()).externalIdentifier === username,
    close: () => context.close(),
  };
}

async function openSettings(page: Page) {
  await page
    .getByRole("button", { name: /Menu|Account/ })
    .first()
    .click();
  const account = page.getByRole("button", { name: "Account" });
  if (await account.isVisible()) await account.click();
  await page.getByRole("menuitem", { name: "Settings for Sam" }).click();
  return page.getByRole("dialog", { name: "Settings for Sam" });
}

test("on a phone: the settings list the sessions, sign out the others, and change the password", async ({ page, engram, browser }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signUpThroughPages(page, engram.url, "sam", "first password", "Sam");

  const laptop = await otherBrowser(browser, engram.url, "sam", "first password");
  let dialog = await openSettings(page);
  const sessions = dialog.getByRole("list", { name: "Active sessions" }).getByRole("listitem");
  await expect(sessions).toHaveCount(2);
  await expect(sessions.filter({ hasText: "(this session)" })).toHaveCount(1);
  await expect(sessions.first()).toContainText("Last used");
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  const box = await dialog.boundingBox();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(390);

  await dialog.getByRole("button", { name: "Sign out other sessions" }).click();
  await expect(page.getByText("Signed out 1 other session")).toBeVisible();
  await expect(sessions).toHaveCount(1);
  expect(await laptop.signedIn()).toBe(false);
  await laptop.close();

  const tablet = await otherBrowser(browser, engram.url, "sam", "first password");
  await page.keyboard.press("Escape");
  dialog = await openSettings(page);
  await expect(sessions).toHaveCount(2);
  await dialog.getByLabel("Current password").fill("not my password");
  await dialog.getByLabel("New password").fill("second password");
  await dialog.getByRole("button", { name: "Change password" }).click();
  await expect(dialog.getByText("The current password is wrong")).toBeVisible();

  await dialog.getByLabel("Current password").fill("first password");
  await dialog.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("Password changed. Every other session is signed out.")).toBeVisible();
  await expect(sessions).toHaveCount(1);
  expect(await tablet.signedIn()).toBe(false);
  await tablet.close();
  const again = await otherBrowser(browser, engram.url, "sam", "second password");
  expect(await again.signedIn()).toBe(true);
  await again.close();
});
