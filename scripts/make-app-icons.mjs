// Run with node: draws Engram's app icons (the favicon's spiral, white on indigo) as PNGs with
// Debian's chromium, for the web app manifest: 192 and 512 px, "any" (a rounded square) and
// "maskable" (full bleed, the mark inside the central safe zone). The PNGs are committed; run
// again only when the mark changes: node scripts/make-app-icons.mjs
import { chromium } from "playwright-core";

const INDIGO = "#4f46e5";
const mark = (size, scale) => {
  const s = (size * scale) / 24;
  const offset = (size - 24 * s) / 2;
  return `<g transform="translate(${offset} ${offset}) scale(${s})" fill="none" stroke="#fff" stroke-width="2" stroke-linecap="round">
    <circle cx="12" cy="12" r="9"/><path d="M8 12c0-2 2-4 4-4s4 2 4 4-2 4-4 4"/><circle cx="12" cy="12" r="1" fill="#fff"/></g>`;
};
const svg = (size, maskable) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">
  ${maskable ? `<rect width="${size}" height="${size}" fill="${INDIGO}"/>` : `<rect width="${size}" height="${size}" rx="${size * 0.22}" fill="${INDIGO}"/>`}
  ${mark(size, maskable ? 0.5 : 0.72)}</svg>`;

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox"] });
try {
  for (const size of [192, 512]) {
    for (const maskable of [false, true]) {
      const page = await browser.newPage({ viewport: { width: size, height: size } });
      await page.setContent(`<html><body style="margin:0;background:transparent">${svg(size, maskable)}</body></html>`);
      const path = `assets/icons/engram-${maskable ? "maskable-" : ""}${size}.png`;
      await page.locator("svg").screenshot({ path, omitBackground: true });
      await page.close();
      console.log(path);
    }
  }
} finally {
  await browser.close();
}
