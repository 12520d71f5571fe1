/**
 * The page-bytes bench: what the first load of each main page costs a browser
 * with an empty cache, measured by loading it in Chromium (page-bytes-probe.mjs, run with node)
 * until the network is idle, so lazily loaded chunks started at load count too. One table: per
 * page, the bytes on the wire (compressed) and decoded of JavaScript, CSS, HTML and data
 * (fetch/XHR), and the number of script files. JavaScript is also split into what the page needs to
 * hydrate (its module scripts and their static imports) and what a dynamic import() loaded after
 * hydration (the rich editor). Goal: at most 90 KB of compressed JavaScript per first load, on
 * every page. A page over its goal fails the run with a MISSED line and lists its largest scripts.
 * The note page is a note with 30 children whose parent also holds a 100,000-character sibling:
 * the realm answers list children without details.
 */
import { join } from "node:path";
import { type Bench, ROOT, type ServerHandle, signIn, startEngram } from "./harness";

export const FIRST_LOAD_JS_GOAL_KB = 90;
/** How many of a page's largest scripts are listed when it misses its goal. */
const LARGEST_SCRIPTS_SHOWN = 12;

interface Totals {
  wire: number;
  decoded: number;
  files: number;
}
interface PageResult {
  name: string;
  path: string;
  totals: Record<"js" | "criticalJs" | "css" | "html" | "data" | "other", Totals>;
  /** Every script the page loaded, largest (on the wire) first; lazy: loaded by a dynamic import(). */
  scripts: { file: string; wire: number; decoded: number; lazy: boolean }[];
  uncompressed: string[];
}

async function inject(server: ServerHandle, cookie: string, rows: Record<string, string>[]): Promise<Record<string, number>> {
  const response = await fetch(`${server.url}/api/testability/inject_notes`, {
    method: "POST",
    headers: { cookie, "content-type": "application/json" },
    body: JSON.stringify({ externalIdentifier: "", circleName: null, noteTestData: rows }),
  });
  if (!response.ok) throw new Error(`inject_notes failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as Record<string, number>;
}

/** Loads the pages in Chromium through the node probe; answers its measurements. */
export async function measurePages(url: string, cookie: string, pages: { name: string; path: string }[]): Promise<PageResult[]> {
  const probe = Bun.spawn(["node", join(ROOT, "scripts/bench/page-bytes-probe.mjs"), JSON.stringify({ url, cookie, pages })], {
    cwd: ROOT,
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([new Response(probe.stdout).text(), new Response(probe.stderr).text(), probe.exited]);
  if (code !== 0) throw new Error(`page-bytes probe failed (${code}): ${err}`);
  return JSON.parse(out.trim().split("\n").at(-1)!) as PageResult[];
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);

export const pageBytes: Bench = {
  name: "page-bytes",
  description: "first-load bytes (JS, CSS, HTML, data) of home, notebooks, note page and recall in Chromium, empty cache",
  async run({ reporter, baselines }) {
    await baselines();
    const server = await startEngram();
    try {
      const cookie = await signIn(server, "old_learner");
      const rows: Record<string, string>[] = [
        { Title: "Languages" },
        { Title: "French", "Parent Title": "Languages", Details: "A **Romance** language.\n\n- spoken in France\n- and elsewhere" },
        { Title: "Long sibling", "Parent Title": "Languages", Details: `A long note. ${"word ".repeat(20_000)}` },
      ];
      for (let i = 0; i < 30; i++)
        rows.push({
          Title: `French word ${i}`,
          "Parent Title": "French",
          Details: `Meaning of word ${i}. ${"Some more text. ".repeat(20)}`,
        });
      const ids = await inject(server, cookie, rows);
      const pages = [
        { name: "home", path: "/" },
        { name: "notebooks", path: "/d/notebooks" },
        { name: "note page", path: `/n${ids.French}` },
        { name: "recall", path: "/d/recall" },
      ];
      const results = await measurePages(server.url, cookie, pages);

      reporter.section("page bytes: first load, empty cache (KB on the wire / decoded)");
      const header = [
        "page",
        "JS (all)",
        "files",
        "JS to hydrate",
        "JS lazy",
        "CSS",
        "HTML",
        "data",
        `goal: all JS ≤ ${FIRST_LOAD_JS_GOAL_KB} KB`,
      ];
      const widths = [10, 15, 5, 15, 13, 12, 11, 11, 0];
      const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
      console.log(line(header));
      for (const result of results) {
        const t = result.totals;
        const goal = FIRST_LOAD_JS_GOAL_KB;
        const met = t.js.wire <= goal * 1024;
        console.log(
          line([
            result.name,
            `${kb(t.js.wire)} / ${kb(t.js.decoded)}`,
            String(t.js.files),
            `${kb(t.criticalJs.wire)} / ${kb(t.criticalJs.decoded)}`,
            `${kb(t.js.wire - t.criticalJs.wire)} / ${kb(t.js.decoded - t.criticalJs.decoded)}`,
            `${kb(t.css.wire)} / ${kb(t.css.decoded)}`,
            `${kb(t.html.wire)} / ${kb(t.html.decoded)}`,
            `${kb(t.data.wire)} / ${kb(t.data.decoded)}`,
            `${(t.js.wire / 1024 / goal).toFixed(2)}× goal  ${met ? "ok" : "MISSED"}`,
          ]),
        );
        if (result.uncompressed.length) console.log(`    sent uncompressed: ${result.uncompressed.join(", ")}`);
        if (!met) {
          console.log(
            `    MISSED: ${result.name} loads ${kb(t.js.wire)} KB of compressed JavaScript, over its ${goal} KB goal; largest scripts:`,
          );
          for (const script of result.scripts.slice(0, LARGEST_SCRIPTS_SHOWN))
            console.log(
              `      ${script.file.padEnd(44)} ${kb(script.wire).padStart(6)} / ${kb(script.decoded).padStart(6)} KB${script.lazy ? "  (lazy)" : ""}`,
            );
        }
        reporter.rows.push({
          label: `first-load JS of ${result.name}: ${kb(t.js.wire)} KB compressed (goal ≤ ${goal} KB)`,
          result: { requests: 1, errors: 0, seconds: 0, rps: Number.NaN, p50Ms: Number.NaN, p99Ms: Number.NaN },
          goalMet: met,
        });
      }
    } finally {
      await server.stop();
    }
  },
};
