/**
 * Engram's service worker (served at /sw.js, scope /): the app shell and the recall page keep
 * working offline once a learner has opened Engram online.
 *
 * - Pages: network first, always (online, a page is exactly what the server answers now); a
 *   page that loaded is kept, and offline the kept copy answers, or a short offline page that
 *   leads to Recall. The recall page is fetched and kept as soon as a signed-in page says so,
 *   with every script it may load (also those it loads later, such as its question views).
 * - Assets (/assets/*, named by their content's hash): online, untouched (the browser's HTTP
 *   cache keeps them); offline, from what was kept. A kept page's scripts and stylesheet are kept
 *   with it (and what they import at once); the recall page's also with what they import later.
 * - The API is never cached here: the recall page keeps what it needs itself (IndexedDB).
 *
 * Caches are named by the build's version: a new deployment is a new worker, which takes over at
 * once and deletes the last one's caches, so a page and its scripts always come from one build.
 * Kept pages belong to one account: when a page says another account (or nobody) is signed in,
 * they are deleted.
 */
/// <reference lib="webworker" />

declare const ENGRAM_ASSET_VERSION: string;
declare const self: ServiceWorkerGlobalScope;

const VERSION = ENGRAM_ASSET_VERSION;
const PREFIX = "engram-";
const ASSETS = `${PREFIX}assets-${VERSION}`;
const PAGES = `${PREFIX}pages-${VERSION}`;
/** Not versioned: whose pages are kept, and when the recall page was last fetched ahead. */
const STATE = `${PREFIX}state`;
const RECALL = "/d/recall";
const MAX_PAGES = 40;
/** The recall page and its scripts are fetched ahead at most this often per account. */
const WARM_INTERVAL_MS = 10 * 60_000;
const STATIC = /^\/(assets\/|icons\/|favicon\.svg$|manifest\.webmanifest$)/;
const NOT_KEPT = /^\/(users\/|logout|api\/)/;

export type WorkerMessage = { type: "page"; user: string | null } | { type: "forget" };

self.addEventListener("install", (event) => {
  event.waitUntil(self.skipWaiting());
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(PREFIX) && name !== ASSETS && name !== PAGES && name !== STATE) await caches.delete(name);
      }
      await self.registration.navigationPreload?.enable();
      await self.clients.claim();
      // A new version: the recall page and its scripts of this build, for whoever was signed in.
      const user = await readState("user");
      if (user) await warmRecall(user, true);
    })(),
  );
});

self.addEventListener("message", (event) => {
  const message = event.data as WorkerMessage;
  if (message?.type === "page") event.waitUntil(onPage(message.user, (event.source as Client | null)?.url));
  else if (message?.type === "forget") event.waitUntil(forget());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(page(event));
  } else if (STATIC.test(url.pathname) && !self.navigator.onLine) {
    // Online, scripts and styles load as they always did (the HTTP cache keeps them for a year);
    // offline they come from what was kept.
    event.respondWith(asset(request));
  }
});

async function page(event: FetchEvent): Promise<Response> {
  const request = event.request;
  const url = new URL(request.url);
  try {
    const response = (await event.preloadResponse) ?? (await fetch(request));
    if (isKeepable(response, url)) event.waitUntil(keepPage(url, response.clone()));
    return response;
  } catch {
    // No network (a failed preload or fetch): the kept copy, else the offline page.
    const pages = await caches.open(PAGES);
    const kept = (await pages.match(url.href)) ?? (url.pathname === RECALL ? await pages.match(RECALL, { ignoreSearch: true }) : undefined);
    return kept ?? offlinePage();
  }
}

const isKeepable = (response: Response, url: URL) =>
  response.status === 200 &&
  !response.redirected &&
  response.type === "basic" &&
  (response.headers.get("content-type") ?? "").startsWith("text/html") &&
  !NOT_KEPT.test(url.pathname);

async function keepPage(url: URL, response: Response) {
  const pages = await caches.open(PAGES);
  await pages.put(url.href, response);
  const kept = await pages.keys();
  // The oldest kept pages go first (keys come in the order they were put); the recall page stays.
  for (const old of kept.slice(0, Math.max(0, kept.length - MAX_PAGES))) {
    if (new URL(old.url).pathname !== RECALL) await pages.delete(old);
  }
}

async function asset(request: Request): Promise<Response> {
  const assets = await caches.open(ASSETS);
  const cached = await assets.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok && response.type === "basic") await assets.put(request, response.clone());
  return response;
}

/**
 * A page has loaded and says who is signed in: kept pages of anyone else go; the page's own
 * scripts and stylesheet are kept with it (now, after the page has loaded them: the browser's
 * HTTP cache answers); the recall page is fetched ahead.
 */
async function onPage(user: string | null, pageUrl: string | undefined) {
  const owner = await readState("user");
  if (owner !== (user ?? "")) {
    await caches.delete(PAGES);
    await writeState("user", user ?? "");
    await writeState("warmed", "");
  }
  const kept = pageUrl ? await (await caches.open(PAGES)).match(pageUrl) : undefined;
  if (kept) await keepAssets(await kept.text(), false);
  if (user) await warmRecall(user, false);
}

async function forget() {
  await caches.delete(PAGES);
  await caches.delete(STATE);
}

/**
 * Fetches the recall page and every script and stylesheet it may need, also those its scripts
 * import later, so that it works offline. At most every WARM_INTERVAL_MS unless `force`.
 */
async function warmRecall(user: string, force: boolean) {
  const last = Number(await readState("warmed")) || 0;
  if (!force && Date.now() - last < WARM_INTERVAL_MS) return;
  await writeState("warmed", String(Date.now()));
  let response: Response;
  try {
    response = await fetch(RECALL, { credentials: "same-origin", redirect: "manual" });
  } catch {
    return await writeState("warmed", "");
  }
  const url = new URL(RECALL, self.location.origin);
  if (!isKeepable(response, url) || (await readState("user")) !== user) return;
  const html = await response.clone().text();
  await keepPage(url, response);
  await keepAssets(html, true);
}

/**
 * Assets kept with what they import (at once, or also later) while this worker runs: pages that
 * share their scripts (most do) cost nothing more. A new worker starts with new caches anyway.
 */
const followedAtOnce = new Set<string>();
const followedLazily = new Set<string>();

const STATIC_IMPORT = /(?:\bfrom|\bimport)\s*["']\.\/([\w.-]+\.js)["']/g;
const ANY_IMPORT = /["'`]\.\/([\w.-]+\.js)["'`]/g;

/**
 * Keeps the scripts and stylesheets a page's HTML names, and the chunks they import: at once
 * only, or also later (`lazy`: dynamic imports, such as recall's question views). Chunks refer to
 * each other by relative names ("./chunk-abc.js").
 */
async function keepAssets(html: string, lazy: boolean) {
  const pending = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!);
  const followed = lazy ? followedLazily : followedAtOnce;
  if (pending.every((path) => followed.has(path))) return;
  const assets = await caches.open(ASSETS);
  const seen = new Set<string>();
  while (pending.length) {
    const path = pending.pop()!;
    if (seen.has(path) || followed.has(path)) continue;
    seen.add(path);
    let cached = await assets.match(path);
    if (!cached) {
      const fetched = await fetch(path).catch(() => undefined);
      if (!fetched?.ok) continue;
      await assets.put(path, fetched.clone());
      cached = fetched;
    }
    if (path.endsWith(".js")) {
      for (const m of (await cached.text()).matchAll(lazy ? ANY_IMPORT : STATIC_IMPORT)) pending.push(`/assets/${m[1]}`);
    }
    followed.add(path);
  }
}

async function readState(key: string): Promise<string | undefined> {
  const response = await (await caches.open(STATE)).match(`/__engram/${key}`);
  return response ? await response.text() : undefined;
}

async function writeState(key: string, value: string) {
  await (await caches.open(STATE)).put(`/__engram/${key}`, new Response(value));
}

function offlinePage(): Response {
  const html = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Offline · Engram</title><link rel="manifest" href="/manifest.webmanifest"></head>
<body style="font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;line-height:1.5;color:#1f2433">
<h1 style="font-size:1.4rem">You are offline</h1>
<p>This page was not saved on this device. Recall works offline once you have opened Engram online.</p>
<p><a href="${RECALL}" style="color:#4f46e5;font-weight:600">Go to Recall</a></p></body></html>`;
  return new Response(html, { status: 503, headers: { "content-type": "text/html; charset=utf-8" } });
}
