import { expect, type Page } from "@playwright/test";
import { makePng } from "../support/png";
import { engramTest, injectNotes, resetTestData, signInThroughIdentifyPage } from "./support";

const test = engramTest("test");

async function openFromMoreOptions(page: Page, entry: "Edit Note Image" | "Edit Note URL") {
  await page.getByRole("button", { name: "more options" }).click();
  await page.getByRole("menuitem", { name: entry }).click();
  return page.getByRole("dialog", { name: entry });
}

test.beforeEach(async ({ engram, page }) => {
  await resetTestData(engram.url);
  await signInThroughIdentifyPage(page, engram.url, "old_learner");
});

test("upload an image with a mask and see the mask drawn over it", async ({ page, engram }) => {
  const ids = await injectNotes(page, engram.url, [{ Title: "World Map" }, { Title: "Europe", "Parent Title": "World Map" }]);
  await page.goto(`${engram.url}/n${ids["World Map"]}`);
  await expect(page.getByRole("img", { name: "note image" })).toHaveCount(0);

  let dialog = await openFromMoreOptions(page, "Edit Note Image");
  await dialog.getByLabel("Upload Image").setInputFiles({ name: "text.png", mimeType: "image/png", buffer: Buffer.from("just text") });
  await dialog.getByRole("button", { name: "Submit" }).click();
  await expect(dialog.getByText("must be a PNG, JPEG, GIF or WebP image")).toBeVisible();

  await dialog
    .getByLabel("Upload Image")
    .setInputFiles({ name: "map.png", mimeType: "image/png", buffer: Buffer.from(makePng(200, 100, [40, 120, 200])) });
  await dialog.getByLabel("Image Mask").fill("1 2 3");
  await dialog.getByRole("button", { name: "Submit" }).click();
  await expect(dialog.getByText("must be groups of four non-negative numbers: x y width height")).toBeVisible();
  await dialog.getByLabel("Image Mask").fill("0 0 100 50  150 50 50 50");
  await dialog.getByRole("button", { name: "Submit" }).click();
  await expect(dialog).toHaveCount(0);

  const image = page.getByRole("img", { name: "note image" });
  await expect(image).toBeVisible();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(200);
  const mask = page.getByRole("img", { name: "image mask" });
  await expect(mask).toBeVisible();
  await expect(mask.locator("rect")).toHaveCount(2);
  // The overlay covers exactly the image, whatever size it is shown at.
  const [imageBox, maskBox] = [await image.boundingBox(), await mask.boundingBox()];
  expect(maskBox).toEqual(imageBox);

  await page.reload();
  await expect(page.getByRole("img", { name: "image mask" }).locator("rect")).toHaveCount(2);

  // A child that uses its parent's image shows the map with its own mask.
  await page.goto(`${engram.url}/n${ids.Europe}`);
  dialog = await openFromMoreOptions(page, "Edit Note Image");
  await dialog.getByLabel("Use Parent Image").check();
  await dialog.getByLabel("Image Mask").fill("10 10 20 20");
  await dialog.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByRole("img", { name: "image mask" }).locator("rect")).toHaveCount(1);
  await expect.poll(() => page.getByRole("img", { name: "note image" }).evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(200);
});

test("edit the note URL and follow the link", async ({ page, engram }) => {
  const ids = await injectNotes(page, engram.url, [{ Title: "Maps" }]);
  await page.goto(`${engram.url}/n${ids.Maps}`);
  const dialog = await openFromMoreOptions(page, "Edit Note URL");
  await dialog.getByLabel("Url").fill("javascript:alert(1)");
  await dialog.getByRole("button", { name: "Submit" }).click();
  await expect(dialog.getByText("must be an http or https URL")).toBeVisible();
  await dialog.getByLabel("Url").fill("https://en.wikipedia.org/wiki/Map");
  await dialog.getByRole("button", { name: "Submit" }).click();
  await expect(dialog).toHaveCount(0);
  const link = page.getByRole("link", { name: "https://en.wikipedia.org/wiki/Map" });
  await expect(link).toHaveAttribute("href", "https://en.wikipedia.org/wiki/Map");

  await page.reload();
  await expect(page.getByRole("link", { name: "https://en.wikipedia.org/wiki/Map" })).toBeVisible();
  const again = await openFromMoreOptions(page, "Edit Note URL");
  await expect(again.getByLabel("Url")).toHaveValue("https://en.wikipedia.org/wiki/Map");
  await again.getByLabel("Url").fill("");
  await again.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByRole("link", { name: "https://en.wikipedia.org/wiki/Map" })).toHaveCount(0);
});
