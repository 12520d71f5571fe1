/**
 * Two people edit one circle note at once, each in their own browser (Alice at 1280 px, Bob on a
 * phone at 390 px): changes in different places are merged, and each sees the other's saved
 * change without reloading; changes in the same place show both versions and let the person
 * choose, nothing discarded. Each scenario runs RUNS times in a row on fresh notes.
 */
import { type Browser, expect, type Page } from "@playwright/test";
import { engramTest, resetTestData, signInThroughIdentifyPage, testability, waitForHydration } from "./support";

const test = engramTest("test");
const RUNS = Number(process.env.ENGRAM_TWO_EDITORS_RUNS ?? 20);
const BASE = "Mitochondria produce ATP.\n\nThey have their own DNA.";

async function personAt(browser: Browser, url: string, username: string, width: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 800 } });
  const page = await context.newPage();
  await signInThroughIdentifyPage(page, url, username);
  return page;
}

async function open(page: Page, url: string, noteId: number) {
  await page.goto(`${url}/n${noteId}`);
  await waitForHydration(page);
}

const savedDetails = async (page: Page, url: string, noteId: number): Promise<string> =>
  (await (await page.request.get(`${url}/api/notes/${noteId}`)).json()).note.details;

/** Clicks into the rich details and waits for the editor to take over. */
async function editDetails(page: Page) {
  await page.getByRole("textbox", { name: "note details" }).click();
  await expect(page.locator(".ql-editor")).toBeFocused();
}

/** Alice (1280 px) and Bob (390 px) in one circle, with RUNS fresh notes "Organelle i" holding BASE. */
async function twoMembersWithNotes(browser: Browser, url: string) {
  const alice = await personAt(browser, url, "old_learner", 1280);
  const bob = await personAt(browser, url, "another_old_learner", 390);
  await testability(alice, url, "inject_circle", { circleName: "Lab", members: "old_learner, another_old_learner" });
  const rows = [
    { Title: "Cells" },
    ...Array.from({ length: RUNS }, (_, i) => ({ Title: `Organelle ${i}`, "Parent Title": "Cells", Details: BASE })),
  ];
  const ids = await testability(alice, url, "inject_notes", { externalIdentifier: "old_learner", circleName: "Lab", noteTestData: rows });
  return { alice, bob, ids };
}

test.beforeEach(async ({ engram }) => resetTestData(engram.url));

test(`changes in different places merge, and each sees the other's without reloading (${RUNS} runs)`, async ({ browser, engram }) => {
  test.setTimeout(RUNS * 20_000 + 30_000);
  const { alice, bob, ids } = await twoMembersWithNotes(browser, engram.url);

  for (let run = 0; run < RUNS; run++) {
    const noteId = ids[`Organelle ${run}`] as number;
    const message = `run ${run + 1}`;
    await open(alice, engram.url, noteId);
    await open(bob, engram.url, noteId);

    // Alice starts typing in the first paragraph; before her save, Bob's, at the end, lands.
    await editDetails(alice);
    await alice.keyboard.press("Control+Home");
    await alice.keyboard.type("Alice: ");
    await editDetails(bob);
    await bob.keyboard.press("Control+End");
    await bob.keyboard.type(" Bob was here.");
    await bob.getByLabel("note title").focus(); // leaving the details saves at once
    const merged = "Alice: Mitochondria produce ATP.\n\nThey have their own DNA. Bob was here.";
    await expect.poll(() => savedDetails(alice, engram.url, noteId), { message, timeout: 10_000 }).toBe(merged);
    // Both see both changes, without a reload.
    await expect(alice.locator(".ql-editor"), message).toContainText("Bob was here.");
    await expect(bob.locator(".rich-details"), message).toContainText("Alice: Mitochondria");
    await expect(alice.getByRole("alertdialog"), message).toHaveCount(0);

    // The title too: Bob renames, Alice's open page shows it.
    const title = bob.getByLabel("note title");
    await title.fill(`Mitochondrion ${run}`);
    await title.press("Enter");
    await expect(alice.getByLabel("note title"), message).toHaveValue(`Mitochondrion ${run}`);
  }
});

test(`changes in the same place show both versions and the choice; the other stays for undo (${RUNS} runs)`, async ({
  browser,
  engram,
}) => {
  test.setTimeout(RUNS * 20_000 + 30_000);
  const { alice, bob, ids } = await twoMembersWithNotes(browser, engram.url);

  for (let run = 0; run < RUNS; run++) {
    const noteId = ids[`Organelle ${run}`] as number;
    const message = `run ${run + 1}`;
    await open(alice, engram.url, noteId);
    await open(bob, engram.url, noteId);

    // Both add to the end of the same sentence; Alice's save is held until Bob's has landed.
    let release = () => {};
    const bobSaved = new Promise<void>((resolve) => {
      release = resolve;
    });
    await alice.route("**/api/text_content/**", async (route) => {
      await bobSaved;
      await route.continue();
    });
    await editDetails(alice);
    await alice.keyboard.press("Control+End");
    await alice.keyboard.type(" Alice's line.");
    await editDetails(bob);
    await bob.keyboard.press("Control+End");
    await bob.keyboard.type(" Bob's line.");
    await bob.getByLabel("note title").focus();
    const bobs = `${BASE} Bob's line.`;
    const alices = `${BASE} Alice's line.`;
    await expect.poll(() => savedDetails(bob, engram.url, noteId), { message }).toBe(bobs);
    release();
    await alice.unrouteAll();

    const choice = alice.getByRole("alertdialog", { name: "Edit conflict in the details" });
    await expect(choice, message).toBeVisible({ timeout: 10_000 });
    await expect(choice.getByRole("figure", { name: "Your version" }), message).toContainText("Alice's line.");
    await expect(choice.getByRole("figure", { name: "Their version" }), message).toContainText("Bob's line.");
    // Nothing of Alice's is saved until she chooses.
    expect(await savedDetails(alice, engram.url, noteId), message).toBe(bobs);
    await choice.getByRole("button", { name: "Keep my version" }).click();
    await expect.poll(() => savedDetails(alice, engram.url, noteId), { message }).toBe(alices);
    await expect(choice, message).toHaveCount(0);
    // Bob sees Alice's choice without reloading; undo on Alice's side brings Bob's text back.
    await expect(bob.locator(".rich-details"), message).toContainText("Alice's line.");
    await alice.getByRole("button", { name: "undo edit details" }).click();
    await expect.poll(() => savedDetails(alice, engram.url, noteId), { message }).toBe(bobs);
    await expect(bob.locator(".rich-details"), message).toContainText("Bob's line.");
  }
});
