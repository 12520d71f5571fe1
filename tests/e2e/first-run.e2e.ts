import { expect } from "@playwright/test";
import { engramTest, signUpThroughPages, waitForHydration } from "./support";

const test = engramTest("production");

test("a new self-hoster signs up, creates a profile, changes settings, manages tokens and logs out", async ({ page, engram, context }) => {
  await page.goto(engram.url);
  await expect(page.getByRole("heading", { name: "Welcome To Engram!" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Note", exact: true })).toHaveCount(0);

  await page.getByRole("link", { name: "Create an account" }).first().click();
  await expect(page.getByText("This is the first account on this Engram")).toBeVisible();
  await page.getByLabel("Username").fill("ada");
  await page.getByLabel("Password").fill("short");
  await page.getByRole("button", { name: "Sign up" }).click();
  // The browser's own check stops a too-short password; the server's message shows when it gets through.
  await page.getByLabel("Password").evaluate((input: HTMLInputElement) => input.removeAttribute("minlength"));
  await page.getByRole("button", { name: "Sign up" }).click();
  await expect(page.getByText("The password must be at least 8 characters long")).toBeVisible();
  await page.getByLabel("Password").fill("analytical engine");
  await page.getByRole("button", { name: "Sign up" }).click();

  await expect(page.getByRole("heading", { name: "Welcome, new user. Please create your profile" })).toBeVisible();
  await waitForHydration(page);
  await page.getByLabel("Nickname").fill("Ada");
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByRole("heading", { name: "Welcome Ada!" })).toBeVisible();
  await waitForHydration(page);
  await expect(page.getByRole("link", { name: "Assimilate", exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: "Recall", exact: true })).toBeVisible();

  await page.getByRole("button", { name: "Account" }).click();
  await expect(page.getByRole("menuitem", { name: "Admin Dashboard" })).toBeVisible();
  await page.getByRole("menuitem", { name: "Settings for Ada" }).click();
  const dialog = page.getByRole("dialog", { name: "Settings for Ada" });
  await dialog.getByLabel("Space Intervals").fill("1, x");
  await dialog.getByRole("button", { name: "Submit" }).click();
  await expect(dialog.getByText("must be whole numbers separated by commas")).toBeVisible();
  await dialog.getByLabel("Space Intervals").fill("0, 1, 2, 4, 8");
  await dialog.getByLabel("Daily Assimilation Count").fill("9");
  await dialog.getByRole("button", { name: "Submit" }).click();
  await expect(dialog).toHaveCount(0);
  await page.reload();
  await page.getByRole("button", { name: "Account" }).click();
  await page.getByRole("menuitem", { name: "Settings for Ada" }).click();
  await expect(page.getByRole("dialog").getByLabel("Daily Assimilation Count")).toHaveValue("9");
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);

  await page.getByRole("button", { name: "Account" }).click();
  await page.getByRole("menuitem", { name: "Manage MCP Tokens" }).click();
  await expect(page.getByText("No tokens yet")).toBeVisible();
  await page.getByLabel("Token label").fill("Claude Desktop");
  await page.getByRole("button", { name: "Generate Token" }).click();
  const tokenValue = await page.getByLabel("New token value").inputValue();
  expect(tokenValue).toMatch(/^engram_/);
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  // exact: the connection snippets below have their own "Copy ..." buttons.
  await page.getByRole("button", { name: "Copy", exact: true }).click();
  await expect(page.getByRole("button", { name: "Copied!" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Copy", exact: true })).toBeVisible({ timeout: 3000 });
  await expect(page.getByRole("cell", { name: "Claude Desktop", exact: true })).toBeVisible();
  const me = await page.request.get(`${engram.url}/api/user`, { headers: { authorization: `Bearer ${tokenValue}` } });
  expect((await me.json()).name).toBe("Ada");

  await page.getByRole("button", { name: "Delete token Claude Desktop" }).click();
  await page.getByRole("dialog", { name: "Please confirm" }).getByRole("button", { name: "OK" }).click();
  await expect(page.getByText("No tokens yet")).toBeVisible();

  await page.getByRole("button", { name: "Account" }).click();
  await page.getByRole("menuitem", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/d\/bazaar$/);
  await waitForHydration(page);
  await expect(page.getByRole("heading", { name: "Welcome To The Bazaar" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Login" })).toBeVisible();
});

test("a second account is not an admin and a wrong password is refused", async ({ page, engram }) => {
  await signUpThroughPages(page, engram.url, "bob", "bobs password", "Bob");
  await page.getByRole("button", { name: "Account" }).click();
  await expect(page.getByRole("menuitem", { name: "Settings for Bob" })).toBeVisible();
  await expect(page.getByRole("menuitem", { name: "Admin Dashboard" })).toHaveCount(0);
  await page.getByRole("menuitem", { name: "Logout" }).click();

  await page.goto(`${engram.url}/d/generate-token`);
  await expect(page).toHaveURL(/\/users\/sign-in\?from=%2Fd%2Fgenerate-token/);
  await waitForHydration(page);
  await page.getByLabel("Username").fill("bob");
  await page.getByLabel("Password").fill("not bobs password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("Wrong username or password")).toBeVisible();
  await page.getByLabel("Password").fill("bobs password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/d\/generate-token$/);
  await waitForHydration(page);
});
