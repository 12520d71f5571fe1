// Run with node (Playwright drives Debian's chromium; see page-bytes.ts): loads each page once in a
// fresh browser context (empty cache, the session cookie set), waits until the network is idle,
// and prints per page the bytes on the wire and decoded, by kind: JavaScript, CSS, HTML, data
// (fetch/XHR answers) and other. Input: one JSON argument { url, cookie, pages: [{ name, path }] }.
import { chromium } from "playwright-core";

const input = JSON.parse(process.argv[2]);
const KINDS = { script: "js", stylesheet: "css", document: "html", fetch: "data", xhr: "data" };

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking"],
});
const results = [];
try {
  for (const { name, path } of input.pages) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const [cookieName, ...rest] = input.cookie.split("=");
    await context.addCookies([{ name: cookieName, value: rest.join("="), url: input.url }]);
    const page = await context.newPage();
    const pending = [];
    page.on("requestfinished", (request) => {
      pending.push(
        (async () => {
          const response = await request.response();
          const sizes = await request.sizes();
          let decoded = 0;
          try {
            decoded = (await response.body()).length;
          } catch {
            decoded = sizes.responseBodySize;
          }
          const kind = KINDS[request.resourceType()] ?? "other";
          const text = kind === "js" || kind === "html" ? (await response.body()).toString() : "";
          return {
            kind,
            url: request.url(),
            wire: sizes.responseBodySize,
            decoded,
            text,
            encoding: (await response.allHeaders())["content-encoding"] ?? "",
          };
        })(),
      );
    });
    const response = await page.goto(input.url + path, { waitUntil: "networkidle" });
    if (response?.status() !== 200) throw new Error(`${path} answered ${response?.status()}`);
    // Hydration may start more requests (lazy chunks, queries): wait for them too.
    await page.waitForLoadState("networkidle");
    const requests = await Promise.all(pending);
    const totals = {};
    for (const kind of ["js", "css", "html", "data", "other"]) totals[kind] = { wire: 0, decoded: 0, files: 0 };
    for (const r of requests) {
      totals[r.kind].wire += r.wire;
      totals[r.kind].decoded += r.decoded;
      totals[r.kind].files += 1;
    }
    // What the page needs to hydrate: its module scripts and what they import statically. The rest
    // of the JavaScript was loaded later by a dynamic import() (e.g. the rich editor after hydration).
    const byUrl = new Map(requests.map((r) => [r.url, r]));
    const html = requests.find((r) => r.kind === "html")?.text ?? "";
    const critical = new Set();
    const visit = (url) => {
      if (critical.has(url) || !byUrl.has(url)) return;
      critical.add(url);
      for (const m of byUrl.get(url).text.matchAll(/(?:import|export)\s*(?:[^"'()]*?from\s*)?"(\.\/[^"]+\.js)"/g))
        visit(new URL(m[1], url).href);
    };
    for (const m of html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g)) visit(new URL(m[1], input.url + path).href);
    totals.criticalJs = { wire: 0, decoded: 0, files: 0 };
    for (const url of critical) {
      const r = byUrl.get(url);
      totals.criticalJs.wire += r.wire;
      totals.criticalJs.decoded += r.decoded;
      totals.criticalJs.files += 1;
    }
    results.push({
      name,
      path,
      totals,
      // Each script by size, largest first: what to look at when a page is over its goal.
      scripts: requests
        .filter((r) => r.kind === "js")
        .map((r) => ({ file: new URL(r.url).pathname, wire: r.wire, decoded: r.decoded, lazy: !critical.has(r.url) }))
        .sort((a, b) => b.wire - a.wire),
      uncompressed: requests.filter((r) => !r.encoding && r.decoded >= 1024 && r.kind !== "other").map((r) => r.url),
    });
    await context.close();
  }
} finally {
  await browser.close();
}
console.log(JSON.stringify(results));
