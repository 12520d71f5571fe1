/**
 * `npm run bench [-- names...]`: runs the named benches, or every registered one, and prints one
 * table line per measurement with its throughput ratio to the baselines measured in the same run
 * (a bare Elysia route, and one with a bun:sqlite primary-key SELECT). Timing goals live in the
 * benches, never in tests. Ratios, not absolute numbers, are what compare across machines.
 *
 * Settings (environment): BENCH_DURATION=3 (seconds measured per line), BENCH_WARMUP=1 (seconds),
 * BENCH_CONCURRENCY=8 (parallel keep-alive connections), BENCH_STRICT=0 (report a missed goal without failing the run; by default a miss exits 1).
 * `npm run bench` builds the client bundle first; run directly with
 *   node_modules/.bin/bun scripts/bench/index.ts [names...]
 *
 * Adding a bench (e.g. note page, search, recall):
 *   1. Create scripts/bench/<name>.ts exporting a `Bench` (see platform.ts):
 *        export const search: Bench = {
 *          name: "search",
 *          description: "...",
 *          async run({ reporter, settings, baselines }) {
 *            await baselines();                     // this run's baselines (measured once, shared)
 *            const server = await startEngram();    // fresh Engram child process, empty test database
 *            try {
 *              const cookie = await signIn(server); // old_learner's engram_session cookie
 *              // seed data through the API (with the cookie), then:
 *              reporter.section("search");
 *              const result = await load({ url: server.url + "/api/...", headers: { cookie } }, settings);
 *              reporter.row("GET /api/... (label)", result, { against: "sqlite", minRatio: 0.2 });
 *            } finally {
 *              await server.stop();
 *            }
 *          },
 *        };
 *   2. Add it to BENCHES below (one line).
 */
import { type Baselines, type Bench, type BenchContext, loadSettingsFromEnv, measureBaselines, Reporter, stopAllServers } from "./harness";
import { learning } from "./learning";
import { load50 } from "./load";
import { notes } from "./notes";
import { pageBytes } from "./page-bytes";
import { platform } from "./platform";
import { postgres } from "./postgres";
import { responseChecks } from "./response-checks";
import { search } from "./search";
import { stall } from "./stall";
import { stats } from "./stats";

/** Every bench, in the order `npm run bench` runs them. */
export const BENCHES: Bench[] = [platform, notes, learning, search, pageBytes, stats, load50, responseChecks, stall];
/** Benches that run only when named (`npm run bench -- postgres`): they need more than Engram itself (PostgreSQL). */
export const NAMED_ONLY: Bench[] = [postgres];

async function main(names: string[]) {
  if (names.includes("--help") || names.includes("-h")) {
    console.log("Usage: npm run bench [-- names...]\nBenches:");
    for (const bench of BENCHES) console.log(`  ${bench.name.padEnd(12)} ${bench.description}`);
    for (const bench of NAMED_ONLY) console.log(`  ${bench.name.padEnd(12)} ${bench.description} (only when named)`);
    return 0;
  }
  const known = [...BENCHES, ...NAMED_ONLY];
  const unknown = names.filter((name) => !known.some((bench) => bench.name === name));
  if (unknown.length) {
    console.error(`Unknown bench: ${unknown.join(", ")}. Known: ${known.map((bench) => bench.name).join(", ")}`);
    return 2;
  }
  const selected = names.length ? known.filter((bench) => names.includes(bench.name)) : BENCHES;

  const settings = loadSettingsFromEnv();
  const reporter = new Reporter(settings);
  let measured: Promise<Baselines> | undefined;
  const context: BenchContext = {
    reporter,
    settings,
    baselines: () => {
      if (!measured) {
        reporter.section("baselines");
        measured = measureBaselines(reporter, settings);
      }
      return measured;
    },
  };

  const started = performance.now();
  try {
    await context.baselines();
    for (const bench of selected) await bench.run(context);
  } finally {
    await stopAllServers();
  }
  console.log(`\nDone in ${((performance.now() - started) / 1000).toFixed(1)} s.`);

  // A missed goal fails the run (exit 1) and says which, one MISSED line each; BENCH_STRICT=0 only reports them.
  const missed = reporter.missedGoals();
  if (missed.length) {
    console.log(`\n${missed.length} goal(s) MISSED:`);
    for (const row of missed) console.log(`MISSED: ${row.label}`);
    if (process.env.BENCH_STRICT !== "0") return 1;
  } else console.log("Every goal met.");
  return 0;
}

if (import.meta.main) {
  try {
    process.exitCode = await main(process.argv.slice(2));
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    await stopAllServers();
    process.exitCode = 1;
  }
}
