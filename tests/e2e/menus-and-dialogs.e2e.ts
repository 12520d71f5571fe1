import { expect, type Page } from "@playwright/test";
import { engramTest, resetTestData, signInThroughIdentifyPage } from "./support";

const test = engramTest("test");

async function injectNote(page: Page, url: string): Promise<number> {
  const response = await page.request.post(`${url}/api/testability/inject_notes`, {
    data: { externalIdentifier: "old_learner", circleName: null, noteTestData: [{ Title: "Moon", Details: "Earth's satellite" }] },
  });
  return (await response.json()).Moon;
}

const focusedName = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    return element?.getAttribute("aria-label") || element?.textContent?.trim() || element?.tagName;
  });

const pageIsNotWider = (page: Page) =>
  page.evaluate(() => ({ scrollX: window.scrollX, wider: document.documentElement.scrollWidth > window.innerWidth }));

test.beforeEach(async ({ engram, page }) => {
  await resetTestData(engram.url);
  await signInThroughIdentifyPage(page, engram.url, "old_learner");
});

test("more options opens next to its button, without moving the page, and the first click elsewhere acts", async ({ page, engram }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const hydrationErrors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" && /hydrat|did not match|didn't match/i.test(message.text())) hydrationErrors.push(message.text());
  });
  await page.goto(`${engram.url}/n${await injectNote(page, engram.url)}`);

  const trigger = page.getByRole("button", { name: "more options" });
  await trigger.click();
  const menu = page.getByRole("menu", { name: "more options" });
  await expect(menu).toBeVisible();
  const [button, box] = [await trigger.boundingBox(), await menu.boundingBox()];
  expect(box!.y).toBeGreaterThanOrEqual(button!.y + button!.height);
  expect(box!.y).toBeLessThan(button!.y + button!.height + 16);
  expect(box!.x).toBeLessThanOrEqual(button!.x + button!.width);
  expect(box!.x + box!.width).toBeGreaterThanOrEqual(button!.x);
  expect(await pageIsNotWider(page)).toEqual({ scrollX: 0, wider: false });
  await expect(menu.getByRole("menuitem", { name: "Delete note" })).toBeVisible();

  // The menu is not modal: one click on another toolbar button closes it and acts.
  await page.getByRole("button", { name: "Add Child Note" }).click();
  await expect(menu).toHaveCount(0);
  await expect(page.getByRole("dialog", { name: "Add Child Note" })).toBeVisible();
  expect(hydrationErrors).toEqual([]);
});

test("menus work from the keyboard: arrow keys, typeahead, and Escape back to the trigger", async ({ page, engram }) => {
  await page.goto(`${engram.url}/n${await injectNote(page, engram.url)}`);
  const trigger = page.getByRole("button", { name: "more options" });
  await trigger.focus();
  await page.keyboard.press("Enter");
  const menu = page.getByRole("menu", { name: "more options" });
  await expect(menu).toBeVisible();
  await expect(menu.getByRole("menuitem").first()).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(menu.getByRole("menuitem").nth(1)).toBeFocused();
  await page.keyboard.press("End");
  await expect(menu.getByRole("menuitem", { name: "Delete note" })).toBeFocused();
  await page.keyboard.type("N");
  await expect(menu.getByRole("menuitem", { name: "Note Recall Settings" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(menu).toHaveCount(0);
  await expect(trigger).toBeFocused();
});

test("dialogs keep the focus inside and give it back: opened from a button and from a menu", async ({ page, engram }) => {
  await page.goto(`${engram.url}/n${await injectNote(page, engram.url)}`);
  const addChild = page.getByRole("button", { name: "Add Child Note" });
  await addChild.click();
  const dialog = page.getByRole("dialog", { name: "Add Child Note" });
  await expect(dialog.getByLabel("Title")).toBeFocused();
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press("Tab");
    expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
  }
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(addChild).toBeFocused();

  const trigger = page.getByRole("button", { name: "more options" });
  await trigger.click();
  await page.getByRole("menuitem", { name: "Note Recall Settings" }).click();
  const settings = page.getByRole("dialog", { name: "Note Recall Settings" });
  await expect(settings).toBeVisible();
  expect(await settings.evaluate((element) => element.contains(document.activeElement))).toBe(true);
  await page.keyboard.press("Escape");
  await expect(settings).toHaveCount(0);
  // The focus comes back in the dialog's close callback, a moment after it is gone.
  await expect.poll(() => focusedName(page)).toBe("more options");
});

test("on a phone the open menu stays on screen and a tap on another button acts", async ({ page, engram }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${engram.url}/n${await injectNote(page, engram.url)}`);
  await page.getByRole("button", { name: "more options" }).click();
  const menu = page.getByRole("menu", { name: "more options" });
  const box = (await menu.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  expect(await pageIsNotWider(page)).toEqual({ scrollX: 0, wider: false });
  await page.getByRole("button", { name: "search and link note" }).click();
  await expect(menu).toHaveCount(0);
  await expect(page.getByRole("dialog")).toBeVisible();
});

test("Settings for a user is a dialog of its own, readable, not inside the dark menu", async ({ page, engram }) => {
  await page.goto(`${engram.url}/d/notebooks`);
  await page.getByRole("button", { name: "Account" }).click();
  await page.getByRole("menuitem", { name: "Settings for Old Learner" }).click();
  const dialog = page.getByRole("dialog", { name: "Settings for Old Learner" });
  await expect(dialog).toBeVisible();
  expect(await dialog.evaluate((element) => !!element.closest("nav"))).toBe(false);
  const colours = await dialog.evaluate((element) => ({
    heading: getComputedStyle(element.querySelector("h2")!).color,
    label: getComputedStyle(element.querySelector("label")!).color,
  }));
  expect(colours.heading).not.toBe("rgb(224, 231, 255)");
  expect(colours.label).not.toBe("rgb(224, 231, 255)");
  await page.keyboard.press("Escape");
  await expect(page.getByRole("button", { name: "Account" })).toBeFocused();
});
