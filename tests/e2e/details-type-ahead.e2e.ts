/**
 * Not one keystroke is lost or reordered while the rich editor loads: a person clicks into a
 * note's empty details right after the page appears and types at once, at human speed and at
 * machine speed, while the editor's code is held back; the saved details are exactly what was
 * typed. Each speed runs RUNS times in a row (fresh page each time), since a race shows only
 * now and then.
 */
import { expect, type Page } from "@playwright/test";
import { engramTest, injectNotes, resetTestData, signInThroughIdentifyPage } from "./support";

const test = engramTest("test");
const RUNS = Number(process.env.ENGRAM_TYPE_AHEAD_RUNS ?? 20);
const SENTENCE = "Mitochondria produce ATP.";

async function savedDetails(page: Page, url: string, noteId: number): Promise<string> {
  return (await (await page.request.get(`${url}/api/notes/${noteId}`)).json()).note.details;
}

/** Holds back every script fetched from now on (the editor's chunks, once the page has hydrated). */
async function delayScripts(page: Page, ms: number) {
  await page.route("**/assets/*.js", async (route) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    await route.continue();
  });
}

/** Types like a person: one key every 120 to 150 ms. */
async function typeLikeAPerson(page: Page, text: string) {
  for (const key of text) {
    await page.keyboard.type(key);
    await page.waitForTimeout(120 + Math.floor(Math.random() * 31));
  }
}

test.beforeEach(async ({ engram, page }) => {
  await resetTestData(engram.url);
  await signInThroughIdentifyPage(page, engram.url, "old_learner");
});

for (const speed of ["human", "machine"] as const) {
  test(`typing at ${speed} speed right after the click keeps every key in order (${RUNS} runs)`, async ({ page, engram }) => {
    test.setTimeout(RUNS * 15_000);
    const rows = Array.from({ length: RUNS }, (_, i) => ({ Title: `Cell ${i}` }));
    const ids = await injectNotes(page, engram.url, rows);
    for (let run = 0; run < RUNS; run++) {
      const noteId = ids[`Cell ${run}`]!;
      await page.unrouteAll({ behavior: "ignoreErrors" });
      await page.goto(`${engram.url}/n${noteId}`);
      await delayScripts(page, 1200);
      await page.getByRole("textbox", { name: "note details" }).click();
      if (speed === "human") await typeLikeAPerson(page, SENTENCE);
      else await page.keyboard.type(SENTENCE);
      await expect.poll(() => savedDetails(page, engram.url, noteId), { timeout: 10_000, message: `run ${run + 1}` }).toBe(SENTENCE);
      // Typing goes on in the editor, where the caret was handed over.
      await page.keyboard.type(" Yes.");
      await expect.poll(() => savedDetails(page, engram.url, noteId), { message: `run ${run + 1}` }).toBe(`${SENTENCE} Yes.`);
    }
  });
}

test("keys typed before the page has even hydrated are kept too", async ({ page, engram }) => {
  const ids = await injectNotes(page, engram.url, [{ Title: "Nucleus", Details: "The nucleus holds DNA." }]);
  // Every script is slow: the island hydrates, and the editor loads, well after the typing.
  await delayScripts(page, 1500);
  // Not page.goto, which waits for the islands to hydrate.
  await page.evaluate((url) => window.location.assign(url), `${engram.url}/n${ids.Nucleus}`);
  const details = page.getByRole("textbox", { name: "note details" });
  await details.click();
  expect(await page.locator("body[data-hydrated]").count()).toBe(0);
  await page.keyboard.press("End");
  await page.keyboard.type(" It is large.");
  await expect.poll(() => savedDetails(page, engram.url, ids.Nucleus!), { timeout: 15_000 }).toBe("The nucleus holds DNA. It is large.");
});
