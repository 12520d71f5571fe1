/**
 * The note bench: a notebook of 10,000 notes in which one note has 1,000 children.
 *
 *   GET /api/notes/{big}          the NoteRealm of the note with 1,000 children (its first page of 40)
 *   GET /api/notes/{big}/children the next page of 50 of its children
 *   GET /n{big}                   its server-rendered note page
 *   GET /api/notes/{leaf}         a note with no children deep in the big notebook, and one at the same
 *                                 depth in a notebook of 3 notes: loading one level must not grow with the notebook
 *
 * Goals, each printed with its ratio, one request at a time:
 *   - the note page of the note with 1,000 children: p50 at most 5× a leaf's page (same run);
 *   - every measured page (that note page, a leaf's page, the signed-in home page, the notebooks page
 *     and the recall page): p50 at most 3× a bare renderToString of the same view tree with the same
 *     data, plus a bare HTTP round trip (an answer cannot come without one). The bare render is timed in
 *     this process, on the server's SQLite file: the data is loaded once through the route's own
 *     builders (src/web/pages.tsx) and the shell's prefetch, then only
 *     `renderToString(documentElement(...))` (src/web/render.tsx) is timed, again and again, in
 *     slices alternating with the page's requests and the bare round trip (harness.sideBySide).
 */

import type { QueryClient } from "@tanstack/react-query";
import { eq } from "drizzle-orm";
import { readConfig } from "../../src/config";
import { createSqliteContext, type SqliteAppContext } from "../../src/context";
import { accounts, users } from "../../src/db/schema";
import type { CurrentUser, UserJson } from "../../src/services/users";
import type { PageContent } from "../../src/web/render";
import type { MenuSection } from "../../views/shell/AppShell";
import {
  asLoadResult,
  type Bench,
  httpCall,
  type LoadResult,
  load,
  type Reporter,
  type ServerHandle,
  sideBySide,
  signIn,
  startBaseline,
  startEngram,
} from "./harness";

const NOTEBOOK_SIZE = 10_000;
const BIG_CHILDREN = 1_000;
const GROUP_SIZE = 100;

async function inject(server: ServerHandle, cookie: string, rows: Record<string, string>[]): Promise<Record<string, number>> {
  const response = await fetch(`${server.url}/api/testability/inject_notes`, {
    method: "POST",
    headers: { cookie, "content-type": "application/json" },
    body: JSON.stringify({ externalIdentifier: "", circleName: null, noteTestData: rows }),
  });
  if (!response.ok) throw new Error(`inject_notes failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as Record<string, number>;
}

/** Root, "Big" with 1,000 children, and groups of 100 notes until the notebook has 10,000 notes. */
function bigNotebook(): Record<string, string>[] {
  const rows: Record<string, string>[] = [
    { Title: "Root" },
    { Title: "Big", "Parent Title": "Root", Details: "The note with many children" },
  ];
  for (let i = 0; i < BIG_CHILDREN; i++) rows.push({ Title: `Child ${i}`, "Parent Title": "Big", Details: `Details of child ${i}` });
  for (let group = 0; rows.length < NOTEBOOK_SIZE; group++) {
    rows.push({ Title: `Group ${group}`, "Parent Title": "Root" });
    for (let i = 0; i < GROUP_SIZE - 1 && rows.length < NOTEBOOK_SIZE; i++) {
      rows.push({ Title: `Group ${group} note ${i}`, "Parent Title": `Group ${group}`, Details: "Some details of a note" });
    }
  }
  return rows;
}

const f = (n: number) => n.toFixed(2);

/** Prints one goal line ("goal ... ok/MISSED") and records it with the reporter's rows (BENCH_STRICT fails on a miss). */
function goalLine(reporter: Reporter, label: string, text: string, ours: LoadResult, ratio: number, maxRatio: number, against: string) {
  const goalMet = ratio <= maxRatio && ours.errors === 0;
  console.log(`  ${label}: ${text}  goal p50 ≤ ${maxRatio}× ${against}  ${goalMet ? "ok" : "MISSED"}`);
  reporter.rows.push({ label: `${label} (p50 ≤ ${maxRatio}× ${against})`, result: ours, goalMet });
}

/** The signed-in old_learner as the server sees them, read from the server's database. */
function currentUser(ctx: SqliteAppContext, externalIdentifier: string): CurrentUser {
  const account = ctx.db.select().from(accounts).where(eq(accounts.externalIdentifier, externalIdentifier)).get();
  const user = account && ctx.db.select().from(users).where(eq(users.accountId, account.id)).get();
  if (!account || !user) throw new Error(`No user ${externalIdentifier} in the bench database`);
  return { account, user };
}

interface MeasuredPage {
  label: string;
  path: string;
  active?: MenuSection;
  build(
    pages: Rendering["pages"],
    ctx: SqliteAppContext,
    queryClient: QueryClient,
    current: CurrentUser,
    user: UserJson,
  ): PageContent | Promise<PageContent>;
}

/**
 * React and the page modules, loaded in production mode as the server loads them (src/main.ts):
 * React picks its development or production build when first imported, and the development
 * build renders several times slower. No other bench imports React before this one runs.
 */
async function rendering() {
  process.env.NODE_ENV = "production";
  const [{ renderToString }, { newQueryClient }, { presentUser }, pages, { documentElement, prefetchShell, shellOperations }] =
    await Promise.all([
      import("react-dom/server"),
      import("../../islands/runtime/query-client"),
      import("../../src/services/users"),
      import("../../src/web/pages"),
      import("../../src/web/render"),
    ]);
  return { renderToString, newQueryClient, presentUser, documentElement, prefetchShell, shellOperations, pages };
}
type Rendering = Awaited<ReturnType<typeof rendering>>;

/**
 * The bare baseline of a page: its data loaded once as the route loads it (the shell's prefetch
 * and the page's builder), then renderToString of the whole document element, the call to time.
 */
async function bareRender(
  r: Rendering,
  ctx: SqliteAppContext,
  current: CurrentUser,
  url: string,
  page: MeasuredPage,
): Promise<() => string> {
  const { renderToString, newQueryClient, presentUser, documentElement, prefetchShell, shellOperations } = r;
  const request = new Request(url);
  const pageRequest = { ctx, auth: { account: current.account, user: current.user, via: "session" as const }, request };
  const queryClient = newQueryClient();
  await prefetchShell(queryClient, pageRequest);
  const built = await page.build(r.pages, ctx, queryClient, current, presentUser(current));
  const operations = await shellOperations(pageRequest);
  const render = () => renderToString(documentElement(pageRequest, { ...built, active: page.active, queryClient }, operations));
  const html = render();
  if (html.length < 1000) throw new Error(`the bare render of ${page.path} is too short to be the page`);
  return render;
}

export const notes: Bench = {
  name: "notes",
  description: "note realm and note page for a note with 1,000 children in a notebook of 10,000 notes; each page vs a bare renderToString",
  async run({ reporter, settings, baselines }) {
    await baselines();
    const server = await startEngram();
    let ctx: SqliteAppContext | undefined;
    try {
      const cookie = await signIn(server, "old_learner");
      const big = await inject(server, cookie, bigNotebook());
      // Same depth as the big notebook's leaf (root → group → leaf), so only the notebook's size differs.
      const small = await inject(server, cookie, [
        { Title: "Small" },
        { Title: "Small group", "Parent Title": "Small" },
        { Title: "Small child", "Parent Title": "Small group" },
      ]);
      const check = await fetch(`${server.url}/api/notes/${big.Big}`, { headers: { cookie } });
      const realm = (await check.json()) as { children: unknown[]; note: { childrenCount: number }; moreChildrenAfter?: number };
      if (realm.note.childrenCount !== BIG_CHILDREN) throw new Error(`expected ${BIG_CHILDREN} children, got ${realm.note.childrenCount}`);
      if (realm.moreChildrenAfter === undefined)
        throw new Error("the realm of the note with 1,000 children does not say where its next page starts");
      const bigPage = await (await fetch(`${server.url}/n${big.Big}`, { headers: { cookie } })).text();
      if (!bigPage.includes("Child 0") || bigPage.includes(`>Child ${BIG_CHILDREN - 1}<`)) {
        throw new Error("the note page should show the first children and not the last of 1,000");
      }

      reporter.section(`notes (notebook of ${NOTEBOOK_SIZE} notes)`);
      const headers = { cookie };
      const pid = server.pid;
      const leaf = big["Group 50 note 7"]!;
      reporter.row(
        `GET /api/notes/{note with ${BIG_CHILDREN} children}`,
        await load({ url: `${server.url}/api/notes/${big.Big}`, headers, pid }, settings),
        { against: "bare", minRatio: 0.002 },
      );
      reporter.row(
        `GET /api/notes/{…}/children?after=&limit=50`,
        await load(
          { url: `${server.url}/api/notes/${big.Big}/children?after=${realm.moreChildrenAfter}&limit=50`, headers, pid },
          settings,
        ),
        { against: "bare", minRatio: 0.002 },
      );
      reporter.row(
        `GET /n{note with ${BIG_CHILDREN} children} (SSR page)`,
        await load({ url: `${server.url}/n${big.Big}`, headers, pid }, settings),
        { against: "bare", minRatio: 0.0005 },
      );
      const deepLeaf = await load({ url: `${server.url}/api/notes/${leaf}`, headers, pid }, settings);
      reporter.row("GET /api/notes/{leaf in the 10,000-note notebook}", deepLeaf, { against: "sqlite", minRatio: 0.05 });
      const smallLeaf = await load({ url: `${server.url}/api/notes/${small["Small child"]}`, headers, pid }, settings);
      reporter.row("GET /api/notes/{leaf in a 3-note notebook}", smallLeaf, { against: "sqlite", minRatio: 0.05 });
      const growth = smallLeaf.rps / deepLeaf.rps;
      console.log(`  one level of a 10,000-note notebook vs a 3-note notebook: ${growth.toFixed(2)}× the cost (1.00 = no growth)`);
      reporter.row(
        `GET /n{leaf in the 10,000-note notebook} (SSR page)`,
        await load({ url: `${server.url}/n${leaf}`, headers, pid }, settings),
        { against: "bare", minRatio: 0.01 },
      );

      // One request at a time from here on: latency, not throughput.
      const one = { ...settings, concurrency: 1 };
      const pages: MeasuredPage[] = [
        {
          label: `note page (${BIG_CHILDREN} children)`,
          path: `/n${big.Big}`,
          active: "note",
          build: (p, c, q, u) => p.notePage(c, q, u, big.Big!),
        },
        { label: "note page (a leaf)", path: `/n${leaf}`, active: "note", build: (p, c, q, u) => p.notePage(c, q, u, leaf) },
        { label: "home page (signed in)", path: "/", build: (p, _c, _q, _u, user) => p.homePage(user) },
        { label: "notebooks page", path: "/d/notebooks", active: "note", build: (p, c, q, u) => p.notebooksPage(c, q, u) },
        { label: "recall page", path: "/d/recall", active: "recall", build: (p) => p.recallPage() },
      ];
      const r = await rendering();
      ctx = createSqliteContext(readConfig({ ENGRAM_MODE: "test", ENGRAM_DATA_DIR: server.dataDir, PORT: "0" }));
      const current = currentUser(ctx, "old_learner");
      const seconds = one.durationMs / 1000;
      const page = (path: string) => httpCall(server.url + path, headers);
      // Each comparison times its measures in alternating slices (harness.sideBySide): on a machine
      // whose speed drifts, they meet the same moments.
      const [bigResult, leafResult] = (await sideBySide([page(pages[0]!.path), page(pages[1]!.path)], one)).map((timed) =>
        asLoadResult(timed, seconds),
      );
      const pageRatio = bigResult!.p50Ms / leafResult!.p50Ms;
      goalLine(
        reporter,
        `note page of a note with ${BIG_CHILDREN} children vs a leaf's page`,
        `p50 ${f(bigResult!.p50Ms)} ms vs ${f(leafResult!.p50Ms)} ms (${f(pageRatio)}×), p99 ${f(bigResult!.p99Ms)} ms vs ${f(leafResult!.p99Ms)} ms`,
        bigResult!,
        pageRatio,
        5,
        "leaf",
      );
      console.log(`  each page one request at a time, against a bare renderToString of the same view tree with the same data`);
      console.log(`  plus a bare HTTP round trip, timed in alternating slices:`);
      const baseline = await startBaseline();
      try {
        const roundTrip = httpCall(`${baseline.url}/baseline/sqlite`, {});
        for (const measured of pages) {
          const [ours, render, trip] = await sideBySide(
            [page(measured.path), await bareRender(r, ctx, current, server.url + measured.path, measured), roundTrip],
            one,
          );
          const bare = render!.p50Ms + trip!.p50Ms;
          const ratio = ours!.p50Ms / bare;
          goalLine(
            reporter,
            `${measured.label} vs bare renderToString`,
            `p50 ${f(ours!.p50Ms)} ms vs bare ${f(bare)} ms (render ${f(render!.p50Ms)} ms, round trip ${f(trip!.p50Ms)} ms) (${f(ratio)}×)`,
            asLoadResult(ours!, seconds),
            ratio,
            3,
            "bare",
          );
        }
      } finally {
        await baseline.stop();
      }
    } finally {
      ctx?.sqlite.close();
      await server.stop();
    }
  },
};
