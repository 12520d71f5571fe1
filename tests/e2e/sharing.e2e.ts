import { type Browser, expect, type Page } from "@playwright/test";
import { engramTest, injectNotes, resetTestData, signInThroughIdentifyPage, waitForHydration } from "./support";

const test = engramTest("test");

test.beforeEach(async ({ engram }) => resetTestData(engram.url));

async function popup(page: Page, title: "Please confirm" | "Information", message: string) {
  const dialog = page.getByRole("dialog", { name: title });
  await expect(dialog).toContainText(message);
  await dialog.getByRole("button", { name: "OK" }).click();
}

/** A second person: their own browser context (cookies), signed in unless told otherwise. */
async function person(browser: Browser, url: string, username?: string, from = "/") {
  const page = await (await browser.newContext()).newPage();
  if (username) await signInThroughIdentifyPage(page, url, username, from);
  return page;
}

test("a learner shares a notebook, a visitor reads it signed out, another learner subscribes and assimilates from it", async ({
  page,
  engram,
  browser,
}) => {
  const ids = await injectNotes(page, engram.url, [
    { Title: "Spanish verbs", Details: "The verbs everyone needs" },
    { Title: "ser", "Parent Title": "Spanish verbs", Details: "to be (for good)" },
    { Title: "estar", "Parent Title": "Spanish verbs", Details: "to be (for now)" },
  ]);
  await signInThroughIdentifyPage(page, engram.url, "old_learner", "/d/notebooks");
  const card = page.getByRole("listitem").filter({ hasText: "Spanish verbs" });
  await card.getByRole("button", { name: "Share notebook to bazaar" }).click();
  await popup(page, "Please confirm", "Confirm to share?");
  await expect(page).toHaveURL(/\/d\/notebooks$/);

  // A visitor, signed out, finds it in the bazaar and reads it, without edit tools.
  const visitor = await person(browser, engram.url);
  await visitor.goto(`${engram.url}/d/bazaar`);
  await waitForHydration(visitor);
  await expect(visitor.getByRole("heading", { name: "Welcome To The Bazaar" })).toBeVisible();
  const shared = visitor.getByRole("listitem").filter({ hasText: "Spanish verbs" });
  // The author by their display name; their login is nowhere on the page.
  await expect(shared).toContainText("by Old Learner");
  expect(await visitor.content()).not.toContain("old_learner");
  if (process.env.ENGRAM_SHOTS) {
    for (const width of [1280, 390]) {
      await visitor.setViewportSize({ width, height: 800 });
      await visitor.screenshot({ path: `${process.env.ENGRAM_SHOTS}/bazaar-author-${width}.png` });
    }
    await visitor.setViewportSize({ width: 1280, height: 720 });
  }
  await shared.getByRole("button", { name: "Add to my learning" }).click();
  await popup(visitor, "Information", "Please login first");
  await shared.getByRole("button", { name: "Start Assessment" }).click();
  await popup(visitor, "Information", "You need to be logged in to start an assessment.");
  await shared.getByRole("link", { name: "Spanish verbs" }).click();
  await expect(visitor).toHaveURL(new RegExp(`/n${ids["Spanish verbs"]}$`));
  await waitForHydration(visitor);
  await expect(visitor.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Bazaar" })).toBeVisible();
  await visitor.getByRole("tree").getByRole("link", { name: "estar" }).click();
  await waitForHydration(visitor);
  await expect(visitor.getByText("to be (for now)")).toBeVisible();
  await expect(visitor.getByRole("button", { name: "Add Child Note" })).toHaveCount(0);
  await expect(visitor.getByLabel("note title")).toHaveCount(0);
  expect(visitor.url()).toContain(`/n${ids.estar}`);

  // Another learner adds it to their learning with a daily target of 2, and assimilates its notes first.
  const learner = await person(browser, engram.url, "another_old_learner", "/d/bazaar");
  await learner.getByRole("listitem").filter({ hasText: "Spanish verbs" }).getByRole("button", { name: "Add to my learning" }).click();
  const dialog = learner.getByRole("dialog", { name: "Add to my learning" });
  const target = dialog.getByLabel("Daily target of new notes");
  await expect(target).toHaveValue("5");
  await target.fill("0");
  await dialog.getByRole("button", { name: "Submit" }).click();
  await expect(dialog.getByText("must be a whole number from 1 to 1000")).toBeVisible();
  await target.fill("2");
  await dialog.getByRole("button", { name: "Submit" }).click();
  await expect(learner).toHaveURL(/\/d\/notebooks$/);
  await waitForHydration(learner);
  const subscribed = learner.getByRole("region", { name: "Subscribed Notebooks" });
  await expect(subscribed.getByRole("link", { name: "Spanish verbs" })).toBeVisible();
  await expect(subscribed.getByText("2 new notes a day")).toBeVisible();

  await learner.goto(`${engram.url}/d/assimilate`);
  await waitForHydration(learner);
  const note = learner.getByRole("article", { name: "note to assimilate" });
  await expect(note.getByRole("heading", { name: "Spanish verbs" })).toBeVisible();
  await learner.getByRole("button", { name: "Keep for repetition" }).click();
  await expect(note.getByRole("heading", { name: "ser" })).toBeVisible();
  await learner.getByRole("button", { name: "Keep for repetition" }).click();
  await expect(learner.getByText("Assimilated 2 notes today.")).toBeVisible();

  // It is not theirs to edit; unsubscribing takes it off the notebooks page.
  await learner.goto(`${engram.url}/n${ids.ser}`);
  await waitForHydration(learner);
  await expect(learner.getByLabel("note title")).toHaveCount(0);
  await learner.goto(`${engram.url}/d/notebooks`);
  await waitForHydration(learner);
  await subscribed.getByRole("button", { name: "Unsubscribe" }).click();
  await expect(subscribed.getByText("You have not subscribed to any notebooks.")).toBeVisible();
});

test("two learners join a circle by its link and both edit its notebook", async ({ page, engram, browser }) => {
  await signInThroughIdentifyPage(page, engram.url, "old_learner", "/d/circles");
  await page.getByRole("button", { name: "Create a new circle" }).click();
  const create = page.getByRole("dialog", { name: "Create a new circle" });
  await create.getByRole("button", { name: "Submit" }).click();
  await expect(create.getByText("size must be between 1 and 255")).toBeVisible();
  await create.getByLabel("Name").fill("Chess club");
  await create.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByRole("heading", { name: "Circle: Chess club" })).toBeVisible();
  await waitForHydration(page);
  const joinLink = await page.getByLabel("Invitation link").inputValue();
  expect(joinLink).toMatch(new RegExp(`^${engram.url}/d/circles/join/[a-z2-9]{20}$`));

  await page.getByRole("button", { name: "Add New Notebook In This Circle" }).click();
  const newNotebook = page.getByRole("dialog", { name: "Add New Notebook In This Circle" });
  await newNotebook.getByLabel("Title").fill("Openings");
  await newNotebook.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByLabel("note title")).toHaveValue("Openings");
  await expect(page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Chess club" })).toBeVisible();

  // The second learner follows the link signed out: signs in, comes back to the invitation, joins.
  const friend = await person(browser, engram.url);
  await friend.goto(joinLink);
  await expect(friend).toHaveURL(/\/users\/identify/);
  await friend.getByLabel("Username").fill("another_old_learner");
  await friend.getByLabel("Password").fill("password");
  await friend.getByRole("button", { name: "Login" }).click();
  await expect(friend).toHaveURL(joinLink);
  await waitForHydration(friend);
  await expect(friend.getByText("You are invited to join the circle Chess club.")).toBeVisible();
  await friend.getByRole("button", { name: "Join" }).click();
  await expect(friend.getByRole("heading", { name: "Circle: Chess club" })).toBeVisible();
  await expect(friend.getByRole("region", { name: "Members" })).toContainText("Another Old Learner");
  await waitForHydration(friend);
  await friend.getByRole("link", { name: "Openings" }).click();
  await waitForHydration(friend);
  await friend.getByRole("button", { name: "Edit as markdown" }).click();
  await friend.getByLabel("note details (markdown)").fill("1. e4 e5 2. Nf3");
  await friend.getByLabel("note details (markdown)").blur();

  // The first learner sees it, edits too, and the friend's view shows both.
  await expect
    .poll(
      async () => {
        await page.reload();
        // biome-ignore lint/performance/useDomNodeTextContent: a Playwright locator, not a DOM node: its innerText is the text as shown.
        return page.locator(".note-details, .rich-details, .ql-editor").first().innerText();
      },
      { timeout: 10_000 },
    )
    .toContain("e4 e5");
  await page.getByLabel("note title").fill("Chess openings");
  await page.getByLabel("note title").press("Enter");
  await expect
    .poll(
      async () => {
        await friend.reload();
        return friend.getByLabel("note title").inputValue();
      },
      { timeout: 10_000 },
    )
    .toBe("Chess openings");

  // A wrong code is a field error.
  await friend.goto(`${engram.url}/d/circles`);
  await waitForHydration(friend);
  await friend.getByLabel("Invitation code or link").fill("not-a-real-code");
  await friend.getByRole("button", { name: "Join" }).click();
  await expect(friend.getByText("This invitation code does not match any circle")).toBeVisible();
});
