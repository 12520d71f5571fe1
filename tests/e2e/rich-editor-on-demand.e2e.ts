/**
 * Bytes: the rich editor (Quill, about 50 KB compressed) is fetched only when the
 * learner starts editing the details. Until then they are the server's HTML in an editable
 * "note details" text box; a click, Tab or a key loads the editor, and what is typed while it
 * loads is handed to it once it is up and saved. A reader who may not edit never loads it.
 */
import { expect, type Page } from "@playwright/test";
import { engramTest, injectNotes, resetTestData, signInThroughIdentifyPage, testability, waitForHydration } from "./support";

const test = engramTest("test");

/** Every script the page fetched, by URL, with its text. */
function recordScripts(page: Page): Map<string, string> {
  const scripts = new Map<string, string>();
  page.on("response", async (response) => {
    if (response.request().resourceType() !== "script") return;
    try {
      scripts.set(response.url(), await response.text());
    } catch {
      // a navigation cut it short
    }
  });
  return scripts;
}

/** Quill's own code: its editor root's class name appears in no other script of the app. */
const quillLoaded = (scripts: Map<string, string>) => [...scripts.values()].some((text) => text.includes("ql-editor"));

async function savedDetails(page: Page, url: string, noteId: number): Promise<string> {
  return (await (await page.request.get(`${url}/api/notes/${noteId}`)).json()).note.details;
}

/** Holds back every script fetched from now on, so keys are pressed while the editor loads. */
async function slowScripts(page: Page, ms: number) {
  await page.route("**/assets/*.js", async (route) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    await route.continue();
  });
}

test.beforeEach(async ({ engram }) => resetTestData(engram.url));

test("the editor loads on the first click, keeps what is typed while it loads, and autosaves", async ({ page, engram }) => {
  await signInThroughIdentifyPage(page, engram.url, "old_learner");
  const ids = await injectNotes(page, engram.url, [{ Title: "Mammals", Details: "Mammals are *warm* blooded" }]);
  const scripts = recordScripts(page);
  await page.goto(`${engram.url}/n${ids.Mammals}`, { waitUntil: "networkidle" });
  await waitForHydration(page);

  const details = page.getByRole("textbox", { name: "note details" });
  await expect(details.locator("em")).toHaveText("warm");
  expect(quillLoaded(scripts)).toBe(false);
  await expect(page.locator(".ql-editor")).toHaveCount(0);

  await slowScripts(page, 1500);
  await details.click();
  await page.keyboard.press("End");
  await page.keyboard.type(" and furry");
  // Typed before the editor was up: it shows at once, and nothing is lost.
  await expect(page.locator(".ql-editor")).toHaveCount(0);
  await expect(details).toContainText("blooded and furry");
  await expect(page.locator(".ql-editor")).toBeFocused();
  await expect.poll(() => quillLoaded(scripts)).toBe(true); // the response's text is read a moment later
  await expect.poll(() => savedDetails(page, engram.url, ids.Mammals!), { timeout: 10_000 }).toBe("Mammals are *warm* blooded and furry");

  // Typing in the editor once it is up saves too.
  await page.keyboard.type("!");
  await expect.poll(() => savedDetails(page, engram.url, ids.Mammals!)).toBe("Mammals are *warm* blooded and furry!");
});

test("a keyboard user tabs to the details and types", async ({ page, engram }) => {
  await signInThroughIdentifyPage(page, engram.url, "old_learner");
  const ids = await injectNotes(page, engram.url, [{ Title: "Birds", Details: "Birds have feathers" }]);
  await page.goto(`${engram.url}/n${ids.Birds}`);
  await waitForHydration(page);

  // From the title, Tab reaches the details (the editor is not there yet; focusing them starts loading it).
  await slowScripts(page, 1500);
  await page.getByLabel("note title").focus();
  const details = page.getByRole("textbox", { name: "note details" });
  for (let i = 0; i < 5 && !(await details.evaluate((element) => element === document.activeElement)); i++)
    await page.keyboard.press("Tab");
  await expect(details).toBeFocused();
  await page.keyboard.press("Control+Home");
  await page.keyboard.type("All ");
  await expect(page.locator(".ql-editor")).toBeFocused();
  await expect.poll(() => savedDetails(page, engram.url, ids.Birds!), { timeout: 10_000 }).toBe("All Birds have feathers");
});

test("a reader who may not edit (a bazaar note) never loads the editor", async ({ page, engram }) => {
  const ids = await injectNotes(page, engram.url, [
    { Title: "Baking" },
    { Title: "Sourdough", "Parent Title": "Baking", Details: "Flour, **water**, salt." },
  ]);
  await testability(page, engram.url, "share_to_bazaar", { noteTopology: "Baking" });
  await signInThroughIdentifyPage(page, engram.url, "another_old_learner");
  const scripts = recordScripts(page);
  await page.goto(`${engram.url}/n${ids.Sourdough}`, { waitUntil: "networkidle" });
  await waitForHydration(page);

  const details = page.getByRole("textbox", { name: "note details" });
  await expect(details.locator("strong")).toHaveText("water");
  await expect(details).toHaveAttribute("aria-readonly", "true");
  await details.click();
  await page.keyboard.type("x");
  // Nothing is to happen: give the editor the time it takes to load when it does (well under a second here).
  await page.waitForTimeout(2000);
  await expect(page.locator(".ql-editor")).toHaveCount(0);
  expect(quillLoaded(scripts)).toBe(false);
  expect(await savedDetails(page, engram.url, ids.Sourdough!)).toBe("Flour, **water**, salt.");
});
