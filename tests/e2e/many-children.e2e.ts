import { expect } from "@playwright/test";
import { engramTest, injectNotes, resetTestData, signInThroughIdentifyPage } from "./support";

/**
 * Pages: a note with many children shows the first 40 as cards (the server's HTML), and
 * the rest load as the reader scrolls to the end of the list, or with the "Load more children"
 * button from the keyboard; the tree shows its first children and "Show more".
 */
const test = engramTest("test");

test.beforeEach(async ({ engram }) => resetTestData(engram.url));

const CHILDREN = 130;

async function seed(page: import("@playwright/test").Page, url: string) {
  await signInThroughIdentifyPage(page, url, "old_learner");
  await expect(page.getByRole("heading", { name: "Welcome Old Learner!" })).toBeVisible();
  return injectNotes(page, url, [
    { Title: "Many" },
    ...Array.from({ length: CHILDREN }, (_, i) => ({ Title: `Child ${String(i).padStart(3, "0")}`, "Parent Title": "Many" })),
  ]);
}

test("scrolling to the end of the child cards loads the next children until all are shown", async ({ page, engram }) => {
  const ids = await seed(page, engram.url);
  const cards = page.getByRole("region", { name: "Children" }).locator(".child-card-title");

  // The server's HTML lists the first page only.
  const html = await (await page.request.get(`${engram.url}/n${ids.Many}`)).text();
  expect(html).toContain(">Child 039<");
  expect(html).not.toContain(">Child 040<");

  await page.goto(`${engram.url}/n${ids.Many}`);
  await expect(cards).toHaveCount(40);
  await expect(page.getByRole("status").filter({ hasText: `Showing 40 of ${CHILDREN} children` })).toBeVisible();

  // Scrolling to the last card brings the next 50.
  await cards.last().scrollIntoViewIfNeeded();
  await expect(cards).toHaveCount(90);
  await expect(cards.nth(89)).toHaveText("Child 089");
  await cards.last().scrollIntoViewIfNeeded();
  await expect(cards).toHaveCount(CHILDREN);
  await expect(cards.last()).toHaveText(`Child ${CHILDREN - 1}`);
  // In order, each once, and no more button once all are shown.
  const titles = await cards.allTextContents();
  expect(titles).toEqual(Array.from({ length: CHILDREN }, (_, i) => `Child ${String(i).padStart(3, "0")}`));
  await expect(page.getByRole("button", { name: "Load more children" })).toHaveCount(0);
});

test("the keyboard reaches a 'Load more children' button that loads the next page", async ({ page, engram }) => {
  const ids = await seed(page, engram.url);
  // Without IntersectionObserver (old browsers): only the button loads more.
  await page.addInitScript(() => {
    delete (window as { IntersectionObserver?: unknown }).IntersectionObserver;
  });
  await page.goto(`${engram.url}/n${ids.Many}`);
  const cards = page.getByRole("region", { name: "Children" }).locator(".child-card-title");
  await expect(cards).toHaveCount(40);
  const more = page.getByRole("button", { name: "Load more children" });
  await more.scrollIntoViewIfNeeded();
  await expect(cards).toHaveCount(40);
  await more.focus();
  await page.keyboard.press("Enter");
  await expect(cards).toHaveCount(90);
  await expect(more).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(cards).toHaveCount(CHILDREN);
  await expect(more).toHaveCount(0);
});

test("the tree shows the focus note's first children and 'Show more' for the rest", async ({ page, engram }) => {
  const ids = await seed(page, engram.url);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${engram.url}/n${ids.Many}`);
  const tree = page.getByRole("tree", { name: "Note tree" });
  const children = tree.getByRole("treeitem", { name: "Many", exact: true }).locator(':scope > [role="group"] > [role="treeitem"]');
  await expect(children).toHaveCount(40);
  const showMore = tree.getByRole("button", { name: `Show more (${CHILDREN - 40} more)` });
  await showMore.click();
  await expect(children).toHaveCount(90);
  await tree.getByRole("button", { name: `Show more (${CHILDREN - 90} more)` }).click();
  await expect(children).toHaveCount(CHILDREN);
  await expect(tree.getByRole("button", { name: /Show more/ })).toHaveCount(0);
  await expect(children.last()).toHaveAccessibleName(`Child ${CHILDREN - 1}`);
});

test("the page of a child beyond the first page keeps it in the tree, under its parent's first children", async ({ page, engram }) => {
  const ids = await seed(page, engram.url);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${engram.url}/n${ids["Child 100"]}`);
  const tree = page.getByRole("tree", { name: "Note tree" });
  const many = tree.getByRole("treeitem", { name: "Many", exact: true });
  // The parent's realm arrives in the browser (its first 40 children); the focus note stays shown.
  await expect(many.locator(':scope > [role="group"] > [role="treeitem"]')).toHaveCount(41);
  await expect(tree.getByRole("treeitem", { name: "Child 100", exact: true }).locator('[aria-current="page"]')).toBeVisible();
  await tree.getByRole("button", { name: /Show more/ }).click();
  await expect(many.locator(':scope > [role="group"] > [role="treeitem"]')).toHaveCount(91);
  await tree.getByRole("button", { name: /Show more/ }).click();
  // Once its page is loaded, it is listed once, in its place.
  await expect(many.locator(':scope > [role="group"] > [role="treeitem"]')).toHaveCount(CHILDREN);
  const titles = await many.locator(':scope > [role="group"] > [role="treeitem"] > .note-tree-row > .note-tree-title').allTextContents();
  expect(titles.indexOf("Child 100")).toBe(100);
});
