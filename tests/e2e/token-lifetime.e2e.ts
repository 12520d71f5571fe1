import { expect, type Page } from "@playwright/test";
import { engramTest, signUpThroughPages } from "./support";

/** Tokens get a lifetime when generated (90 days unless chosen, or never), shown on the tokens page; a password change can revoke them. */
const test = engramTest("production");

const SHOTS = process.env.ENGRAM_SHOTS;

async function generate(page: Page, label: string, lifetime?: string) {
  await page.getByLabel("Token label").fill(label);
  if (lifetime) await page.getByLabel("Expires after").selectOption({ label: lifetime });
  await page.getByRole("button", { name: "Generate Token" }).click();
  await expect(page.getByRole("cell", { name: label, exact: true })).toBeVisible();
}

for (const width of [1280, 390]) {
  test(`at ${width} px: a token's expiry is chosen and shown; a password change can revoke the tokens`, async ({ page, engram }) => {
    await page.setViewportSize({ width, height: 900 });
    await signUpThroughPages(page, engram.url, `sam${width}`, "first password", "Sam");
    await page.goto(`${engram.url}/d/generate-token`);
    await expect(page.getByLabel("Expires after")).toHaveValue("0"); // 90 days
    await generate(page, "For a while");
    await generate(page, "For good", "Never");
    const row = (label: string) => page.getByRole("row").filter({ has: page.getByRole("cell", { name: label, exact: true }) });
    await expect(row("For good").locator(".token-expires")).toHaveText("Never");

    const inNinetyDays = new Date(Date.now() + 90 * 86_400_000).getFullYear();
    await expect(row("For a while").locator(".token-expires")).toContainText(String(inNinetyDays));
    await expect(row("For a while")).toContainText("active");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/tokens-${width}.png`, fullPage: true });

    const drawer = page.getByRole("button", { name: "Menu" });
    if (await drawer.isVisible()) await drawer.click();
    await page.getByRole("button", { name: "Account" }).click();
    await page.getByRole("menuitem", { name: "Settings for Sam" }).click();
    const dialog = page.getByRole("dialog", { name: "Settings for Sam" });
    await dialog.getByLabel("Current password").fill("first password");
    await dialog.getByLabel("New password").fill("second password");
    await dialog.getByLabel("Also revoke my MCP tokens").check();
    if (SHOTS) await dialog.screenshot({ path: `${SHOTS}/password-revoke-${width}.png` });
    await dialog.getByRole("button", { name: "Change password" }).click();
    await expect(page.getByText("Password changed. Every other session is signed out. 2 MCP tokens are revoked.")).toBeVisible();
    await page.goto(`${engram.url}/d/generate-token`);
    await expect(page.getByText("No tokens yet")).toBeVisible();
  });
}
