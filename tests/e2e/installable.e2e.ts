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

test("the first page of a new version says Engram was updated, once; the worker's caches are that version's", async ({ page, engram }) => {
  await signInThroughIdentifyPage(page, engram.url, "old_learner");
  await page.goto(`${engram.url}/d/notebooks`);
  const version = await page.evaluate(() => JSON.parse(document.getElementById("engram-config")!.textContent!).version as string);
  expect(version).toMatch(/^[0-9a-f]{12}$/);
  await expect(page.getByText("Engram was updated")).toHaveCount(0);
  // This browser last saw another version: the next page says so, the one after does not.
  await page.evaluate(() => localStorage.setItem("engram.version", "0123456789ab"));
  await page.reload();
  await expect(page.getByText("Engram was updated")).toBeVisible();
  await page.reload();
  await expect(page.getByText("Engram was updated")).toHaveCount(0);
  await expect
    .poll(() =>
      page.evaluate(async () =>
        (await caches.keys()).filter((name) => name.startsWith("engram-assets-") || name.startsWith("engram-pages-")),
      ),
    )
    .toEqual(expect.arrayContaining([`engram-pages-${version}`]));
  const names = await page.evaluate(async () => caches.keys());
  for (const name of names.filter((n) => n !== "engram-state")) expect(name.endsWith(`-${version}`)).toBe(true);
});
