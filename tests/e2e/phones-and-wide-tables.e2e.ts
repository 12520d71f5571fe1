import { expect, type Page } from "@playwright/test";
import { engramTest, injectNotes, resetTestData, showcase, signInThroughIdentifyPage, testability } from "./support";

/**
 * Layout on a phone (390 px) and a desktop (1280 px) beyond what the accessibility sweep checks:
 * the admin Users table keeps every account's actions on the screen, the settings dialog's Submit
 * is in view, and a toast covers no button.
 */
const test = engramTest("test");

const VIEWPORTS = [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1280, height: 800 },
] as const;

/** The visible buttons and links (other than `except`'s own) whose box meets `box`. */
async function controlsUnder(page: Page, box: { x: number; y: number; width: number; height: number }, except: string) {
  return page.evaluate(
    ({ box, except }) =>
      [...document.querySelectorAll<HTMLElement>("button, a[href], [role=button], [role=menuitem]")]
        .filter((element) => !element.closest(except) && !element.closest(".testability-panel"))
        .filter((element) => {
          const r = element.getBoundingClientRect();
          if (r.width === 0 || r.height === 0 || getComputedStyle(element).visibility === "hidden") return false;
          return r.left < box.x + box.width && r.right > box.x && r.top < box.y + box.height && r.bottom > box.y;
        })
        .map((element) => (element.getAttribute("aria-label") ?? element.textContent ?? "").trim()),
    { box, except },
  );
}

test.beforeEach(async ({ engram }) => {
  await resetTestData(engram.url);
});

for (const viewport of VIEWPORTS) {
  test(`admin Users, ${viewport.name}: every account's actions are on the screen without scrolling sideways`, async ({ page, engram }) => {
    await signInThroughIdentifyPage(page, engram.url, "admin");
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await page.goto(`${engram.url}/d/admin-dashboard/users`);
    const users = page.getByRole("region", { name: "Users" });
    await expect(users.getByRole("button", { name: "Password-reset link" })).toHaveCount(5);
    for (const button of await users.getByRole("button").all()) {
      const box = (await button.boundingBox())!;
      expect(box.x, `${await button.textContent()} starts on the screen`).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, `${await button.textContent()} ends on the screen`).toBeLessThanOrEqual(viewport.width);
    }
    await showcase(page, `admin-users-${viewport.width}`, { fullPage: true });
  });

  test(`the settings dialog's Submit is in view with the FSRS fields shown, ${viewport.name}`, async ({ page, engram }) => {
    await signInThroughIdentifyPage(page, engram.url, "old_learner");
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await page.goto(`${engram.url}/d/notebooks`);
    if (viewport.name === "phone") await page.getByRole("button", { name: "Menu" }).click();
    await page.getByRole("button", { name: "Account" }).click();
    await page.getByRole("menuitem", { name: "Settings for Old Learner" }).click();
    const dialog = page.getByRole("dialog", { name: "Settings for Old Learner" });
    await dialog.getByLabel("Scheduler").selectOption({ label: "FSRS" });
    await expect(dialog.getByLabel("Maximum interval")).toBeVisible();
    const submit = dialog.getByRole("button", { name: "Submit" });
    await expect(submit).toBeInViewport({ ratio: 1 });
    // Not hidden behind anything either: what is at its middle is the button.
    const box = (await submit.boundingBox())!;
    expect(
      await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.closest("button")?.textContent, {
        x: box.x + box.width / 2,
        y: box.y + box.height / 2,
      }),
    ).toBe("Submit");
  });

  test(`a toast covers no button, ${viewport.name}`, async ({ page, engram }) => {
    await injectNotes(page, engram.url, [{ Title: "Astronomy" }]);
    await testability(page, engram.url, "share_to_bazaar", { noteTopology: "Astronomy" });
    await signInThroughIdentifyPage(page, engram.url, "old_learner");
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await page.goto(`${engram.url}/d/notebooks`);
    if (viewport.name === "phone") await page.getByRole("button", { name: "Menu" }).click();
    await page.getByRole("button", { name: "Account" }).click();
    await page.getByRole("menuitem", { name: "Settings for Old Learner" }).click();
    await page.getByRole("dialog", { name: "Settings for Old Learner" }).getByRole("button", { name: "Submit" }).click();
    const toast = page.getByRole("status").filter({ hasText: "Settings saved" });
    await expect(toast).toBeVisible();
    expect(await controlsUnder(page, (await toast.boundingBox())!, ".toast")).toEqual([]);
  });
}
