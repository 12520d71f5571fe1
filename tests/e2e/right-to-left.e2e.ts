import { expect, type Locator } from "@playwright/test";
import { engramTest, resetTestData, signInThroughIdentifyPage } from "./support";

/** Arabic and Hebrew titles and details read right to left (dir="auto"). */
const test = engramTest("test");

const direction = (locator: Locator) => locator.evaluate((element) => getComputedStyle(element).direction);

test("Hebrew and Arabic text reads right to left wherever a note shows", async ({ page, engram }) => {
  await resetTestData(engram.url);
  await signInThroughIdentifyPage(page, engram.url, "old_learner");
  const ids = await (
    await page.request.post(`${engram.url}/api/testability/inject_notes`, {
      data: {
        externalIdentifier: "old_learner",
        circleName: null,
        noteTestData: [
          { Title: "שלום עולם" },
          { Title: "مرحبا", "Parent Title": "שלום עולם", Details: "مرحبا بالعالم hello" },
          { Title: "English child", "Parent Title": "שלום עולם" },
        ],
      },
    })
  ).json();

  await page.goto(`${engram.url}/n${ids["שלום עולם"]}`);
  expect(await direction(page.getByLabel("note title"))).toBe("rtl");
  expect(await direction(page.locator(".child-card-title", { hasText: "مرحبا" }))).toBe("rtl");
  expect(await direction(page.locator(".child-card-title", { hasText: "English child" }))).toBe("ltr");
  expect(await direction(page.getByRole("treeitem", { name: "مرحبا" }).locator(".note-tree-title"))).toBe("rtl");

  await page.goto(`${engram.url}/n${ids.مرحبا}`);
  expect(await direction(page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "שלום עולם" }))).toBe("rtl");
  await expect(page.getByRole("textbox", { name: "note details" })).toHaveAttribute("dir", "auto");
  expect(await direction(page.getByRole("textbox", { name: "note details" }))).toBe("rtl");
  await page.getByRole("button", { name: "Edit as markdown" }).click();
  expect(await direction(page.getByLabel("note details (markdown)"))).toBe("rtl");
});
