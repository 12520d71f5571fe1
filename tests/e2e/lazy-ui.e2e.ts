import { expect, type Page } from "@playwright/test";
import { engramTest, injectNotes, resetTestData, signInThroughIdentifyPage, waitForHydration } from "./support";

// Menus and dialogs load their Radix UI code the first time they are used, not with the page
// (a first load ships at most 100 KB of compressed JavaScript). The page is served with
// plain trigger buttons that must still work from the keyboard once the code arrives.

const test = engramTest("test");

/** The scripts a page loads, as they arrive. */
function recordScripts(page: Page): Map<string, Promise<string>> {
  const scripts = new Map<string, Promise<string>>();
  page.on("response", (response) => {
    if (response.request().resourceType() === "script") scripts.set(response.url(), response.text());
  });
  return scripts;
}

/** Whether any script loaded so far contains the text (Radix's component names stay in minified code). */
const anyContains = async (scripts: Map<string, Promise<string>>, text: string) =>
  (await Promise.all(scripts.values())).some((source) => source.includes(text));

/** The console errors of React's hydration on this page, collected from now on. */
function hydrationErrorsOf(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" && /hydrat|did not match|didn't match|Minified React error/i.test(message.text()))
      errors.push(message.text());
  });
  return errors;
}

test.beforeEach(async ({ engram, page }) => {
  await resetTestData(engram.url);
  await signInThroughIdentifyPage(page, engram.url, "old_learner");
});

test("the menu and dialog code is loaded on first use, and a menu opened by its first key press works from the keyboard", async ({
  page,
  engram,
}) => {
  const hydrationErrors = hydrationErrorsOf(page);
  const scripts = recordScripts(page);
  await page.goto(`${engram.url}/d/notebooks`);
  await waitForHydration(page);
  await page.waitForLoadState("networkidle");
  expect(await anyContains(scripts, "DropdownMenuTrigger")).toBe(false);
  expect(await anyContains(scripts, "DialogOverlay")).toBe(false);

  // The plain trigger the page was served with: a menu button, closed.
  const trigger = page.getByRole("button", { name: "Account" });
  await expect(trigger).toHaveAttribute("aria-haspopup", "menu");
  await expect(trigger).toHaveAttribute("aria-expanded", "false");

  await trigger.focus();
  await page.keyboard.press("Enter");
  const menu = page.getByRole("menu", { name: "Account" });
  await expect(menu).toBeVisible();
  await expect(menu.getByRole("menuitem").first()).toBeFocused();
  await expect(trigger).toHaveAttribute("aria-expanded", "true");
  expect(await anyContains(scripts, "DropdownMenuTrigger")).toBe(true);
  await page.keyboard.press("ArrowDown");
  await expect(menu.getByRole("menuitem").nth(1)).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(menu).toHaveCount(0);
  await expect(trigger).toBeFocused();
  await expect(trigger).toHaveAttribute("aria-expanded", "false");

  // Now the Radix menu itself: ArrowDown opens it onto its first item, a click opens it too.
  await page.keyboard.press("ArrowDown");
  await expect(menu.getByRole("menuitem").first()).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(trigger).toBeFocused();

  // A dialog's code arrives when it first opens; its first field takes the focus, Escape gives it back.
  expect(await anyContains(scripts, "DialogOverlay")).toBe(false);
  const add = page.getByRole("button", { name: "Add New Notebook" });
  await add.click();
  const dialog = page.getByRole("dialog", { name: "Add New Notebook" });
  await expect(dialog.getByLabel("Title")).toBeFocused();
  expect(await anyContains(scripts, "DialogOverlay")).toBe(true);
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(add).toBeFocused();
  expect(hydrationErrors).toEqual([]);
});

test("a menu opened by a click on the served trigger opens once, beside it, and closes on a click outside", async ({ page, engram }) => {
  await page.goto(`${engram.url}/d/recall`);
  await waitForHydration(page);
  const trigger = page.getByRole("button", { name: "Account" });
  await trigger.click();
  const menu = page.getByRole("menu", { name: "Account" });
  await expect(menu).toBeVisible();
  await expect(menu.getByRole("menuitem", { name: "Logout" })).toBeVisible();
  await page.mouse.click(900, 600);
  await expect(menu).toHaveCount(0);
  await trigger.click();
  await expect(menu).toBeVisible();
});

test("Space on the served trigger opens the menu onto its first item, and a menu item's dialog gives the focus back to the trigger", async ({
  page,
  engram,
}) => {
  await page.goto(`${engram.url}/`);
  await waitForHydration(page);
  const trigger = page.getByRole("button", { name: "Account" });
  await trigger.focus();
  await page.keyboard.press("Space");
  const menu = page.getByRole("menu", { name: "Account" });
  await expect(menu.getByRole("menuitem").first()).toBeFocused();
  await menu.getByRole("menuitem", { name: "Settings for Old Learner" }).focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Settings for Old Learner" });
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(trigger).toBeFocused();
});

test("keys typed while the search dialog's code arrives go into its search box", async ({ page, engram }) => {
  await page.goto(`${engram.url}/d/notebooks`);
  await waitForHydration(page);
  // Typed at once after the click, before the dialog (fetched on first open) is there.
  await page.getByRole("button", { name: "search note" }).click();
  await page.keyboard.type("cax");
  await page.keyboard.press("Backspace");
  await page.keyboard.type("t");
  const key = page.getByRole("dialog", { name: "Search note" }).getByRole("searchbox", { name: "Search" });
  await expect(key).toBeFocused();
  await expect(key).toHaveValue("cat");
  await page.keyboard.type("s");
  await expect(key).toHaveValue("cats");
});

test("what only some notes show comes with them: a note's properties are served, then work; a plain note never fetches their code", async ({
  page,
  engram,
}) => {
  const hydrationErrors = hydrationErrorsOf(page);
  const ids = await injectNotes(page, engram.url, [
    { Title: "Cells" },
    { Title: "Plain", "Parent Title": "Cells", Details: "Just text." },
    { Title: "Tagged", "Parent Title": "Cells", Details: "---\ntags: cell, energy\n---\n\nUnits of life." },
  ]);

  const scripts = recordScripts(page);
  await page.goto(`${engram.url}/n${ids.Plain}`);
  await waitForHydration(page);
  await page.waitForLoadState("networkidle");
  expect(await anyContains(scripts, "note-properties-toggle")).toBe(false);
  expect(await anyContains(scripts, "referenced-by")).toBe(false);
  expect(await anyContains(scripts, "link-note-header")).toBe(false);

  // The properties are in the page as served, before any script runs.
  const served = await (await page.request.get(`${engram.url}/n${ids.Tagged}`)).text();
  expect(served).toContain("note-properties-toggle");
  await page.goto(`${engram.url}/n${ids.Tagged}`);
  await waitForHydration(page);
  const properties = page.getByRole("region", { name: "Properties" });
  await expect(properties.getByRole("row")).toHaveText(["tagscell, energy"]);
  const toggle = properties.getByRole("button", { name: "Properties" });
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await expect(properties.getByRole("row")).toHaveCount(0);
  expect(await anyContains(scripts, "note-properties-toggle")).toBe(true);
  expect(hydrationErrors).toEqual([]);
});
