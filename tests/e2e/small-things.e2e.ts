import { expect, type Page } from "@playwright/test";
import { engramTest, injectNotes, resetTestData, signInThroughIdentifyPage, testability } from "./support";

/**
 * The small things a newcomer tripped over: the welcome page's spelling, where a subscribed
 * notebook's breadcrumbs start and what its list is called, link notes in the tree and on the
 * Assimilate page, and a notebook's empty head note offered last.
 */
const test = engramTest("test");

test.beforeEach(async ({ engram }) => resetTestData(engram.url));

/** A notebook with two notes and a link between them: "Ribosome — using — RNA". */
async function biology(page: Page, url: string) {
  const ids = await injectNotes(page, url, [
    { Title: "Biology" },
    { Title: "Ribosome", "Parent Title": "Biology", Details: "Makes proteins" },
    { Title: "RNA", "Parent Title": "Biology", Details: "Carries the code" },
  ]);
  await testability(page, url, "link_notes", { type: "using", source_id: String(ids.Ribosome), target_id: String(ids.RNA) });
  return ids;
}

test("the welcome page spells truly", async ({ page, engram }) => {
  await page.goto(`${engram.url}/`);
  await expect(page.getByText("Assimilate to become truly yours")).toBeVisible();
  await expect(page.getByText("truely")).toHaveCount(0);
});

test("a subscribed notebook's breadcrumbs start at Subscribed Notebooks, which lists it", async ({ page, engram }) => {
  const ids = await biology(page, engram.url);
  await testability(page, engram.url, "share_to_bazaar", { noteTopology: "Biology" });
  await signInThroughIdentifyPage(page, engram.url, "another_old_learner");
  const notebook = (await (await page.request.get(`${engram.url}/api/notes/${ids.Ribosome}`)).json()).notebook.id;
  await page.request.post(`${engram.url}/api/subscriptions/notebooks/${notebook}/subscribe`, { data: { dailyTargetOfNewNotes: 5 } });
  await page.goto(`${engram.url}/n${ids.Ribosome}`);
  const crumbs = page.getByRole("navigation", { name: "Breadcrumb" });
  await expect(crumbs.getByRole("link").first()).toHaveText("Subscribed Notebooks");
  await expect(crumbs.getByRole("link", { name: "My Notebooks" })).toHaveCount(0);
  await crumbs.getByRole("link", { name: "Subscribed Notebooks" }).click();
  const subscribed = page.getByRole("region", { name: "Subscribed Notebooks" });
  await expect(subscribed.getByRole("link", { name: "Biology" })).toBeVisible();
});

test("the tree leaves link notes out of a note's children; the note page still shows the link", async ({ page, engram }) => {
  const ids = await biology(page, engram.url);
  await signInThroughIdentifyPage(page, engram.url, "old_learner", `/n${ids.Ribosome}`);
  const tree = page.getByRole("tree", { name: "Note tree" });
  const ribosome = tree.getByRole("treeitem", { name: "Ribosome", exact: true });
  await expect(ribosome.locator(".note-tree-count").first()).toHaveText("0");
  await expect(tree.getByRole("treeitem", { name: /using/ })).toHaveCount(0);
  await expect(tree.getByRole("treeitem")).toHaveCount(3); // Biology, Ribosome, RNA
  await expect(page.getByRole("region", { name: "Children" }).getByRole("link", { name: "Ribosome — using — RNA" })).toBeVisible();
});

test("Assimilate offers the notes first, then the link between them, and the empty head note last", async ({ page, engram }) => {
  await biology(page, engram.url);
  await signInThroughIdentifyPage(page, engram.url, "old_learner", "/d/assimilate");
  const offered: string[] = [];
  for (let i = 0; i < 4; i++) {
    const note = page.getByRole("article", { name: "note to assimilate" });
    // biome-ignore lint/performance/useDomNodeTextContent: a Playwright locator, not a DOM node: its innerText is the text as shown.
    const title = (await note.getByRole("heading", { level: 2 }).innerText()).trim();
    offered.push(title);
    if (title.includes("using")) await expect(note.getByText("A link between two notes")).toBeVisible();
    await page.getByRole("button", { name: "Keep for repetition" }).click();
    if (i < 3)
      await expect(page.getByRole("article", { name: "note to assimilate" }).getByRole("heading", { level: 2 })).not.toHaveText(title);
  }
  expect(offered).toEqual(["Ribosome", "RNA", "Ribosome — using — RNA", "Biology"]);
});
