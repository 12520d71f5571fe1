import { expect } from "@playwright/test";
import { engramTest, resetTestData, signInThroughIdentifyPage } from "./support";

/** Engram can be installed: a manifest linked from every page, real icons, a service worker at the root. */
const test = engramTest("test");

test.beforeEach(async ({ engram }) => {
  await resetTestData(engram.url);
});

test("the manifest names Engram, starts at Recall in a standalone window and has 192 and 512 px icons, maskable too", async ({
  page,
  engram,
}) => {
  for (const path of ["/users/identify", "/d/bazaar"]) {
    await page.goto(engram.url + path);
    await expect(page.locator('link[rel="manifest"]')).toHaveAttribute("href", "/manifest.webmanifest");
    await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute("content", "#4f46e5");
  }
  const response = await page.request.get(`${engram.url}/manifest.webmanifest`);
  expect(response.headers()["content-type"]).toBe("application/manifest+json");
  const manifest = await response.json();
  expect(manifest).toMatchObject({ name: "Engram", short_name: "Engram", start_url: "/d/recall", scope: "/", display: "standalone" });
  expect(manifest.theme_color).toBeTruthy();
  expect(manifest.background_color).toBeTruthy();
  const icons = manifest.icons as { src: string; sizes: string; type: string; purpose: string }[];
  for (const size of ["192x192", "512x512"]) {
    for (const purpose of ["any", "maskable"]) expect(icons.some((i) => i.sizes === size && i.purpose === purpose)).toBe(true);
  }
  // Each icon is a real PNG of the size it claims.
  for (const icon of icons) {
    const image = await page.request.get(engram.url + icon.src);
    expect(image.headers()["content-type"]).toBe("image/png");
    const bytes = await image.body();
    expect(bytes.subarray(1, 4).toString()).toBe("PNG");
    const [width, height] = [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
    expect(`${width}x${height}`).toBe(icon.sizes);
  }
});

test("the service worker is served from the root, controls every page of the site, and is never cached by HTTP", async ({
  page,
  engram,
}) => {
  const worker = await page.request.get(`${engram.url}/sw.js`);
  expect(worker.status()).toBe(200);
  expect(worker.headers()["content-type"]).toContain("javascript");
  expect(worker.headers()["cache-control"]).toBe("no-cache");
  await signInThroughIdentifyPage(page, engram.url, "old_learner");
  await page.goto(`${engram.url}/d/notebooks`);
  const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
  expect(scope).toBe(`${engram.url}/`);
  await page.goto(`${engram.url}/d/recall`);
  expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(`${engram.url}/sw.js`);
});
