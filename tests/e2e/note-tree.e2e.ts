import { expect, type Locator, type Page } from "@playwright/test";
import { engramTest, resetTestData, signInThroughIdentifyPage, waitForHydration } from "./support";

const test = engramTest("test");

test.beforeEach(async ({ engram }) => resetTestData(engram.url));

const NOTES = [
  { Title: "Animals" },
  { Title: "Mammals", "Parent Title": "Animals" },
  { Title: "Cat", "Parent Title": "Mammals" },
  { Title: "Dog", "Parent Title": "Mammals" },
  { Title: "Whale", "Parent Title": "Mammals" },
  { Title: "Birds", "Parent Title": "Animals" },
  { Title: "Eagle", "Parent Title": "Birds" },
  { Title: "Sparrow", "Parent Title": "Birds" },
  { Title: "Fish", "Parent Title": "Animals" },
];

async function signInWithNotes(page: Page, url: string): Promise<Record<string, number>> {
  await signInThroughIdentifyPage(page, url, "old_learner");
  await expect(page.getByRole("heading", { name: "Welcome Old Learner!" })).toBeVisible();
  const response = await page.request.post(`${url}/api/testability/inject_notes`, {
    data: { externalIdentifier: "old_learner", circleName: null, noteTestData: NOTES },
  });
  expect(response.ok()).toBe(true);
  return response.json();
}

function treeOf(page: Page) {
  const tree = page.getByRole("tree", { name: "Note tree" });
  const item = (title: string) => tree.getByRole("treeitem", { name: title, exact: true });
  const row = (title: string) => item(title).locator(":scope > .note-tree-row");
  return {
    tree,
    item,
    row,
    count: (title: string) => row(title).locator(".note-tree-count"),
    childTitles: (title: string) => item(title).locator(':scope > [role="group"] > [role="treeitem"] > .note-tree-row > .note-tree-title'),
  };
}

async function childTitlesFromApi(page: Page, url: string, noteId: number): Promise<string[]> {
  const realm = await (await page.request.get(`${url}/api/notes/${noteId}`)).json();
  return realm.children.map((child: { noteTopology: { titleOrPredicate: string } }) => child.noteTopology.titleOrPredicate);
}

/** A point in the left (after) or right (first child) half of a tree row, relative to the row. */
async function half(row: Locator, side: "left" | "right") {
  const box = (await row.boundingBox())!;
  return { x: side === "left" ? box.width * 0.2 : box.width * 0.8, y: box.height / 2 };
}

/** Starts dragging `source` and hovers `target` at `position`, leaving the mouse button down. */
async function dragOver(page: Page, source: Locator, target: Locator, position: { x: number; y: number }) {
  await source.hover();
  await page.mouse.down();
  const box = (await target.boundingBox())!;
  await page.mouse.move(box.x + position.x - 5, box.y + position.y, { steps: 4 });
  await page.mouse.move(box.x + position.x, box.y + position.y, { steps: 2 });
}

test("the sidebar shows the tree from the root with the focus note's ancestors expanded and child counts", async ({ page, engram }) => {
  const ids = await signInWithNotes(page, engram.url);
  await page.goto(`${engram.url}/n${ids.Dog}`);
  const { tree, item, count, childTitles } = treeOf(page);
  await expect(tree).toBeVisible();

  await expect(item("Animals")).toHaveAttribute("aria-expanded", "true");
  await expect(item("Mammals")).toHaveAttribute("aria-expanded", "true");
  await expect(tree.getByRole("link", { name: "Dog", exact: true })).toHaveAttribute("aria-current", "page");
  await expect(tree.getByRole("link", { name: "Dog", exact: true })).toHaveAttribute("href", `/n${ids.Dog}`);
  await expect(item("Dog")).not.toHaveAttribute("aria-expanded", /.*/);
  await expect(childTitles("Animals")).toHaveText(["Mammals", "Birds", "Fish"]);
  await expect(childTitles("Mammals")).toHaveText(["Cat", "Dog", "Whale"]);
  await expect(count("Animals")).toHaveText("3");
  await expect(count("Mammals")).toHaveText("3");
  await expect(count("Dog")).toHaveText("0");
  await expect(count("Birds")).toHaveText("2");
  await expect(count("Fish")).toHaveText("0");

  // A collapsed level loads when expanded, and collapses again.
  await expect(item("Birds")).toHaveAttribute("aria-expanded", "false");
  await expect(item("Eagle")).toHaveCount(0);
  await item("Birds").getByRole("button", { name: "expand Birds" }).click();
  await expect(item("Birds")).toHaveAttribute("aria-expanded", "true");
  await expect(childTitles("Birds")).toHaveText(["Eagle", "Sparrow"]);
  await item("Birds").getByRole("button", { name: "collapse Birds" }).click();
  await expect(item("Eagle")).toHaveCount(0);

  // Keyboard: the focus note is the tab stop; arrows move, expand and collapse.
  await item("Dog").focus();
  await page.keyboard.press("ArrowDown");
  await expect(item("Whale")).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(item("Birds")).toBeFocused();
  await page.keyboard.press("ArrowRight");
  await expect(childTitles("Birds")).toHaveText(["Eagle", "Sparrow"]);
  await page.keyboard.press("ArrowRight");
  await expect(item("Eagle")).toBeFocused();
  await page.keyboard.press("ArrowLeft");
  await expect(item("Birds")).toBeFocused();
  await page.keyboard.press("ArrowLeft");
  await expect(item("Birds")).toHaveAttribute("aria-expanded", "false");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/n${ids.Birds}$`));
  await waitForHydration(page);
  await expect(treeOf(page).tree.getByRole("link", { name: "Birds", exact: true })).toHaveAttribute("aria-current", "page");
});

test("the server renders the path to the focus note before any script runs", async ({ page, browser, engram }) => {
  const ids = await signInWithNotes(page, engram.url);
  const context = await browser.newContext({ javaScriptEnabled: false, storageState: await page.context().storageState() });
  const noScript = await context.newPage();
  await noScript.goto(`${engram.url}/n${ids.Dog}`);
  const { tree, item, count, childTitles } = treeOf(noScript);
  await expect(tree).toBeVisible();
  await expect(tree.getByRole("link", { name: "Dog", exact: true })).toHaveAttribute("aria-current", "page");
  await expect(childTitles("Animals")).toHaveText(["Mammals"]);
  await expect(childTitles("Mammals")).toHaveText(["Dog"]);
  await expect(count("Animals")).toHaveText("...");
  await expect(count("Mammals")).toHaveText("...");
  await expect(count("Dog")).toHaveText("0");
  await expect(item("Animals")).toHaveAttribute("aria-expanded", "true");

  await noScript.setViewportSize({ width: 375, height: 740 });
  await expect(tree).toBeHidden();
  await expect(noScript.getByRole("button", { name: "toggle sidebar" })).toBeVisible();
  await context.close();
});

test("drag and drop moves a note after a sibling or under a note as its first child", async ({ page, engram }) => {
  const ids = await signInWithNotes(page, engram.url);
  await page.goto(`${engram.url}/n${ids.Dog}`);
  const { item, row, count, childTitles } = treeOf(page);
  await expect(count("Birds")).toHaveText("2");

  // The left half of a sibling shows "after this note"; dropping moves it there.
  await dragOver(page, row("Cat"), row("Dog"), await half(row("Dog"), "left"));
  await expect(row("Dog")).toHaveAttribute("data-drop", "after");
  await expect(item("Dog")).toHaveClass(/drop-after/);
  await page.mouse.up();
  await expect(childTitles("Mammals")).toHaveText(["Dog", "Cat", "Whale"]);
  await expect(row("Dog")).not.toHaveAttribute("data-drop", /.*/);
  expect(await childTitlesFromApi(page, engram.url, ids.Mammals!)).toEqual(["Dog", "Cat", "Whale"]);

  // The right half of a note shows "as first child"; dropping makes it the first child, even from another parent.
  await item("Birds").getByRole("button", { name: "expand Birds" }).click();
  await expect(childTitles("Birds")).toHaveText(["Eagle", "Sparrow"]);
  await dragOver(page, row("Sparrow"), row("Whale"), await half(row("Whale"), "right"));
  await expect(row("Whale")).toHaveAttribute("data-drop", "first-child");
  await page.mouse.up();
  await expect(childTitles("Whale")).toHaveText(["Sparrow"]);
  await expect(count("Whale")).toHaveText("1");
  await expect(count("Birds")).toHaveText("1");
  await expect(childTitles("Birds")).toHaveText(["Eagle"]);
  expect(await childTitlesFromApi(page, engram.url, ids.Whale!)).toEqual(["Sparrow"]);
  expect(await childTitlesFromApi(page, engram.url, ids.Birds!)).toEqual(["Eagle"]);

  // dragTo works as well: Cat becomes the first child of Dog.
  await row("Cat").dragTo(row("Dog"), { targetPosition: await half(row("Dog"), "right") });
  await expect(childTitles("Dog")).toHaveText(["Cat"]);
  expect(await childTitlesFromApi(page, engram.url, ids.Mammals!)).toEqual(["Dog", "Whale"]);
});

test("drops after a note with a different parent, onto itself or into its own descendants are blocked", async ({ page, engram }) => {
  const ids = await signInWithNotes(page, engram.url);
  await page.goto(`${engram.url}/n${ids.Dog}`);
  const { item, row, childTitles } = treeOf(page);
  await item("Birds").getByRole("button", { name: "expand Birds" }).click();
  await expect(childTitles("Birds")).toHaveText(["Eagle", "Sparrow"]);
  let moves = 0;
  page.on("request", (request) => request.url().includes("/move_after/") && moves++);

  // Eagle (under Birds) after Cat (under Mammals): no indicator, nothing moves.
  await dragOver(page, row("Eagle"), row("Cat"), await half(row("Cat"), "right"));
  await expect(row("Cat")).toHaveAttribute("data-drop", "first-child");
  const left = await half(row("Cat"), "left");
  const catBox = (await row("Cat").boundingBox())!;
  await page.mouse.move(catBox.x + left.x, catBox.y + left.y, { steps: 3 });
  await expect(row("Cat")).not.toHaveAttribute("data-drop", /.*/);
  await expect(item("Cat")).not.toHaveClass(/drop-after/);
  await page.mouse.up();
  await row("Eagle").dragTo(row("Cat"), { targetPosition: await half(row("Cat"), "left") });

  // Mammals into its own child Dog, and Mammals onto itself.
  await row("Mammals").dragTo(row("Dog"), { targetPosition: await half(row("Dog"), "right") });
  await row("Mammals").dragTo(row("Mammals"), { targetPosition: await half(row("Mammals"), "right") });
  // After the root (it has no parent) is blocked too.
  await row("Fish").dragTo(row("Animals"), { targetPosition: await half(row("Animals"), "left") });

  await page.waitForTimeout(300);
  expect(moves).toBe(0);
  await expect(childTitles("Birds")).toHaveText(["Eagle", "Sparrow"]);
  await expect(childTitles("Mammals")).toHaveText(["Cat", "Dog", "Whale"]);
  expect(await childTitlesFromApi(page, engram.url, ids.Birds!)).toEqual(["Eagle", "Sparrow"]);
  expect(await childTitlesFromApi(page, engram.url, ids.Animals!)).toEqual(["Mammals", "Birds", "Fish"]);
  await expect(row("Animals")).not.toHaveAttribute("draggable", "true");
});

test("the sidebar collapses at desktop width and is a closed drawer at phone width", async ({ page, engram }) => {
  const ids = await signInWithNotes(page, engram.url);
  await page.goto(`${engram.url}/n${ids.Cat}`);
  const { tree, item } = treeOf(page);
  const toggle = page.getByRole("button", { name: "toggle sidebar" });

  await expect(tree).toBeVisible();
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  const treeBox = (await tree.boundingBox())!;
  const mainBox = (await page.locator(".note-main").boundingBox())!;
  expect(treeBox.x + treeBox.width).toBeLessThanOrEqual(mainBox.x);
  await toggle.click();
  await expect(tree).toBeHidden();
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  // The choice lasts while the tab is open.
  await page.reload();
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await expect(tree).toBeHidden();
  await toggle.click();
  await expect(tree).toBeVisible();
  await expect(toggle).toHaveAttribute("aria-expanded", "true");

  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto(`${engram.url}/n${ids.Cat}`);
  await expect(toggle).toBeVisible();
  await expect(tree).toBeHidden();
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await toggle.click();
  await expect(tree).toBeVisible();
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  await expect(item("Cat")).toBeFocused();
  await expect(tree.getByRole("link", { name: "Cat", exact: true })).toHaveAttribute("aria-current", "page");
  await page.keyboard.press("Escape");
  await expect(tree).toBeHidden();
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await expect(toggle).toBeFocused();

  await toggle.click();
  await expect(tree).toBeVisible();
  await page.locator(".note-tree-backdrop").click({ position: { x: 360, y: 400 } });
  await expect(tree).toBeHidden();
});

test("the tree item with keyboard focus has a visible outline", async ({ page, engram }) => {
  const ids = await signInWithNotes(page, engram.url);
  await page.goto(`${engram.url}/n${ids.Mammals}`);
  const { item, row } = treeOf(page);
  await item("Mammals").focus();
  await page.keyboard.press("ArrowDown");
  await expect(item("Cat")).toBeFocused();
  const outline = await row("Cat").evaluate((element) => {
    const style = getComputedStyle(element);
    return { style: style.outlineStyle, width: style.outlineWidth };
  });
  expect(outline).toEqual({ style: "solid", width: "2px" });
});
