/**
 * The benchmark harness behind `npm run bench` (see index.ts for how benches are registered).
 *
 * - startServer(): runs a server entry in its own Bun child process (so the load generator does
 *   not share the server's CPU thread) on a free port with a fresh temp ENGRAM_DATA_DIR, waits
 *   until it answers, and kills it / removes the folder on stop() or when this process exits
 *   (signals and uncaught errors included). After a SIGKILL of the bench, the child stops itself
 *   (ENGRAM_PARENT_PID) and the next run removes the folder left behind.
 * - startEngram() / startBaseline(): the real app (src/main.ts, ENGRAM_MODE=test) and the bare
 *   Elysia + bun:sqlite baseline (baseline-server.ts).
 * - signIn(): the test login (GET /api/healthcheck with basic auth) -> the engram_session cookie.
 * - load(): N concurrent keep-alive fetch loops for a fixed duration after a warm-up; req/s, p50, p99.
 * - Reporter: one table line per measurement with its ratio to the baselines of the same run.
 *
 * Results are ratios (ours / baseline, measured in the same run on the same machine), so they can be
 * compared across machines; absolute numbers are printed only for context. Columns:
 *   req/s, p50 ms, p99 ms   throughput and latency seen by the load generator
 *   × bare, × sqlite        throughput ratio to each baseline route (the goals use these)
 *   srv cpu                 the server process's CPU use while measured, in % of one core (Linux)
 *   cpu µs/req, cost×bare   the server's CPU time per request, and its ratio to a bare request's
 * On a small machine the load generator (one Bun thread running fetch) saturates before a bare route
 * does ("srv cpu" well under 100 %): then "× bare" understates the gap, and "cost×bare" (which does
 * not depend on who is the bottleneck) is the fairer comparison.
 *
 * Environment overrides: BENCH_DURATION (seconds measured, default 3), BENCH_WARMUP (seconds,
 * default 1), BENCH_CONCURRENCY (parallel connections, default 8), BENCH_STRICT=0 (a missed goal is
 * only reported; by default the run exits 1 and prints a MISSED line for each).
 */

import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";

export const ROOT = join(import.meta.dir, "../..");
const BUN = process.execPath;

// ---------------------------------------------------------------------------------------------
// Settings

export interface LoadSettings {
  durationMs: number;
  warmupMs: number;
  concurrency: number;
}

function positiveNumber(name: string, fallback: number): number {
  const text = process.env[name]?.trim();
  if (!text) return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number, got "${text}"`);
  return value;
}

export function loadSettingsFromEnv(): LoadSettings {
  const concurrency = Math.round(positiveNumber("BENCH_CONCURRENCY", 8));
  const durationMs = positiveNumber("BENCH_DURATION", 3) * 1000;
  if (concurrency < 1) throw new Error("BENCH_CONCURRENCY must be at least 1");
  if (durationMs <= 0) throw new Error("BENCH_DURATION must be more than 0");
  return { durationMs, warmupMs: positiveNumber("BENCH_WARMUP", 1) * 1000, concurrency };
}

// ---------------------------------------------------------------------------------------------
// Child servers, with clean-up on every way out

export interface ServerHandle {
  name: string;
  url: string;
  pid: number;
  dataDir: string;
  /** What the server printed so far (to show why a bench failed). */
  output(): string;
  stop(): Promise<void>;
}

const running = new Set<{ child: Subprocess; dataDir: string }>();

function killAllNow() {
  for (const entry of running) {
    try {
      entry.child.kill("SIGKILL");
    } catch {
      // already gone
    }
    rmSync(entry.dataDir, { recursive: true, force: true });
  }
  running.clear();
}

let cleanupInstalled = false;
function installCleanup() {
  if (cleanupInstalled) return;
  cleanupInstalled = true;
  process.on("exit", killAllNow);
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.on(signal, () => {
      killAllNow();
      process.exit(130);
    });
  }
  process.on("uncaughtException", (error) => {
    console.error(error);
    killAllNow();
    process.exit(1);
  });
  process.on("unhandledRejection", (error) => {
    console.error(error);
    killAllNow();
    process.exit(1);
  });
}

/** Stops every server still running (index.ts calls this at the end of a run). */
export async function stopAllServers() {
  killAllNow();
}

const DATA_DIR_PREFIX = "engram-bench-";

/** Removes temp data folders left by a bench process that was killed outright (SIGKILL). */
function removeStaleDataDirs() {
  for (const name of readdirSync(tmpdir())) {
    const match = name.startsWith(DATA_DIR_PREFIX) && /^(\d+)-/.exec(name.slice(DATA_DIR_PREFIX.length));
    if (!match) continue;
    const owner = Number(match[1]);
    if (owner === process.pid) continue;
    try {
      process.kill(owner, 0);
    } catch {
      rmSync(join(tmpdir(), name), { recursive: true, force: true });
    }
  }
}

/** A port nobody listens on right now (the OS picks it; the server binds it a moment later). */
export function freePort(): number {
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = probe.port!;
  probe.stop(true);
  return port;
}

async function drain(stream: ReadableStream<Uint8Array> | null | undefined, sink: string[]) {
  if (!stream) return;
  const decoder = new TextDecoder();
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    sink.push(decoder.decode(value, { stream: true }));
    if (process.env.BENCH_SERVER_LOG) process.stderr.write(sink.at(-1)!);
    if (sink.length > 200) sink.splice(0, sink.length - 200);
  }
}

export interface StartOptions {
  /** Shown in errors. */
  name: string;
  /** Script to run with Bun, relative to the repository root. */
  entry: string;
  /** Extra environment for the child (PORT, HOST, ENGRAM_DATA_DIR, ENGRAM_PARENT_PID are set here). */
  env?: Record<string, string>;
  /** A GET path that answers 2xx once the server is ready. */
  readyPath: string;
  timeoutMs?: number;
}

/** Starts `bun <entry>` on a free port with a temp data folder and waits until readyPath answers. */
export async function startServer(options: StartOptions): Promise<ServerHandle> {
  installCleanup();
  removeStaleDataDirs();
  const dataDir = mkdtempSync(join(tmpdir(), `${DATA_DIR_PREFIX}${process.pid}-`));
  const port = freePort();
  const url = `http://127.0.0.1:${port}`;
  const output: string[] = [];
  // BENCH_SERVER_BUN_ARGS: flags for the servers' runtime, e.g. "--cpu-prof-md --cpu-prof-dir=/tmp/profiles".
  const runtimeFlags = process.env.BENCH_SERVER_BUN_ARGS?.split(" ").filter(Boolean) ?? [];
  const child = Bun.spawn([BUN, ...runtimeFlags, options.entry], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...options.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      ENGRAM_DATA_DIR: dataDir,
      // src/main.ts stops itself when this process disappears, even after a SIGKILL here.
      ENGRAM_PARENT_PID: String(process.pid),
    },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const entry = { child, dataDir };
  running.add(entry);
  void drain(child.stdout, output);
  void drain(child.stderr, output);

  const stop = async () => {
    if (!running.has(entry)) return;
    running.delete(entry);
    child.kill("SIGTERM");
    const exited = await Promise.race([child.exited.then(() => true), Bun.sleep(3000).then(() => false)]);
    if (!exited) {
      child.kill("SIGKILL");
      await child.exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };

  const deadline = Date.now() + (options.timeoutMs ?? 20_000);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      await stop();
      throw new Error(`${options.name} (${options.entry}) exited before it was ready:\n${output.join("")}`);
    }
    try {
      const response = await fetch(url + options.readyPath);
      await response.arrayBuffer();
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${options.name} did not answer ${options.readyPath} in time:\n${output.join("")}`);
    }
    await Bun.sleep(50);
  }
  return { name: options.name, url, pid: child.pid, dataDir, output: () => output.join(""), stop };
}

/** The real Engram server (src/main.ts) in test mode, with an empty database reset by the test hook. */
export async function startEngram(env: Record<string, string> = {}): Promise<ServerHandle> {
  if (!existsSync(join(ROOT, "build/client/manifest.json"))) {
    throw new Error("The client bundle is missing: run `npm run bench`, or `bun scripts/build-client.ts` first.");
  }
  const server = await startServer({
    name: "Engram",
    entry: "src/main.ts",
    env: { ENGRAM_MODE: "test", ...env },
    readyPath: "/api/healthcheck",
  });
  const reset = await fetch(`${server.url}/api/testability/clean_db_and_reset_testability_settings`, { method: "POST" });
  await reset.arrayBuffer();
  if (!reset.ok) {
    await server.stop();
    throw new Error(`Resetting the Engram database failed: ${reset.status}`);
  }
  return server;
}

/** The bare Elysia + bun:sqlite baseline server (baseline-server.ts); `env` may name BARE_SEARCH_DB. */
export function startBaseline(env: Record<string, string> = {}): Promise<ServerHandle> {
  return startServer({ name: "Baseline", entry: "scripts/bench/baseline-server.ts", readyPath: "/baseline", env });
}

/** Signs in a test identity (non-production basic-auth login); returns the Cookie header to send. */
export async function signIn(server: ServerHandle, identity = "old_learner", password = "password"): Promise<string> {
  const response = await fetch(`${server.url}/api/healthcheck`, {
    headers: { authorization: `Basic ${btoa(`${identity}:${password}`)}` },
  });
  await response.arrayBuffer();
  const session = response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0]!)
    .find((pair) => pair.startsWith("engram_session="));
  if (response.status !== 200 || !session) throw new Error(`Signing in as ${identity} failed: ${response.status}`);
  return session;
}

// ---------------------------------------------------------------------------------------------
// Load generator

export interface LoadTarget {
  url: string;
  headers?: Record<string, string>;
  /** GET unless told; a POST sends `body` each time. */
  method?: "GET" | "POST";
  body?: string;
  /** The status every answer must have (default 200); other answers are counted as errors. */
  expectStatus?: number;
  /** The server's process id: its CPU use during the measurement is reported (Linux only). */
  pid?: number;
}

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  /** The first unexpected answer, for the report. */
  firstError?: string;
  /**
   * The server process's CPU time over the measured wall time, in % of one core (Linux only).
   * Near 100 %: the server's thread is the bottleneck; well below: the load generator is.
   */
  serverCpuPercent?: number;
  /** The server's CPU time per answered request, in microseconds (Linux only). */
  cpuMicrosPerRequest?: number;
}

/** A process's user + system CPU seconds from /proc (undefined elsewhere). */
function cpuSeconds(pid: number | undefined): number | undefined {
  if (!pid) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the ")" that ends the command name: state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}
const CLOCK_TICKS = 100; // sysconf(_SC_CLK_TCK) on Linux

/** The p-th percentile (nearest rank) of sorted latencies; NaN for none. */
export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

/**
 * Runs `concurrency` keep-alive fetch loops against the target: first for the warm-up (not
 * recorded), then for the measured duration. Each loop reads the whole body before its next request.
 */
export async function load(target: LoadTarget, settings: LoadSettings = loadSettingsFromEnv()): Promise<LoadResult> {
  const expected = target.expectStatus ?? 200;
  // Bun's fetch keeps connections alive and reuses them by default: one connection per loop.
  const init: RequestInit = { method: target.method ?? "GET", headers: { ...target.headers }, body: target.body, redirect: "manual" };
  let latencies = new Float64Array(1 << 16);
  let count = 0;
  let errors = 0;
  let firstError: string | undefined;
  let measuredFrom = Number.POSITIVE_INFINITY;
  let stopAt = Number.POSITIVE_INFINITY;

  const record = (ms: number) => {
    if (count === latencies.length) {
      const bigger = new Float64Array(latencies.length * 2);
      bigger.set(latencies);
      latencies = bigger;
    }
    latencies[count++] = ms;
  };

  const loop = async () => {
    while (performance.now() < stopAt) {
      const started = performance.now();
      let ok = false;
      const warmingUp = started < measuredFrom;
      try {
        const response = await fetch(target.url, init);
        await response.arrayBuffer();
        ok = response.status === expected;
        if (!ok && !warmingUp) firstError ??= `status ${response.status} (expected ${expected})`;
      } catch (error) {
        if (!warmingUp) firstError ??= String(error);
      }
      if (warmingUp) continue;
      if (ok) record(performance.now() - started);
      else errors++;
    }
  };

  const began = performance.now();
  stopAt = began + settings.warmupMs + settings.durationMs;
  const loops = Array.from({ length: settings.concurrency }, loop);
  await Bun.sleep(settings.warmupMs);
  // Only requests started after the warm-up are recorded.
  const cpuBefore = cpuSeconds(target.pid);
  measuredFrom = performance.now();
  await Promise.all(loops);
  const seconds = (performance.now() - measuredFrom) / 1000;
  const cpuAfter = cpuSeconds(target.pid);

  const sorted = latencies.subarray(0, count).sort();
  return {
    requests: count,
    errors,
    seconds,
    rps: count / seconds,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    firstError,
    ...(cpuBefore !== undefined && cpuAfter !== undefined && count > 0
      ? { serverCpuPercent: ((cpuAfter - cpuBefore) / seconds) * 100, cpuMicrosPerRequest: ((cpuAfter - cpuBefore) / count) * 1e6 }
      : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// Baselines and the report

export interface Baselines {
  /** GET /baseline: bare Elysia answering { ok: true }. */
  bare: LoadResult;
  /** GET /baseline/sqlite: bare Elysia plus one bun:sqlite primary-key SELECT. */
  sqlite: LoadResult;
}

/** Measures both baseline routes on a fresh baseline server (started and stopped here). */
export async function measureBaselines(reporter: Reporter, settings = loadSettingsFromEnv()): Promise<Baselines> {
  const server = await startBaseline();
  try {
    const bare = await load({ url: `${server.url}/baseline`, pid: server.pid }, settings);
    const sqlite = await load({ url: `${server.url}/baseline/sqlite`, pid: server.pid }, settings);
    reporter.baselines = { bare, sqlite };
    reporter.row("baseline: bare Elysia  GET /baseline", bare);
    reporter.row("baseline: + sqlite PK  GET /baseline/sqlite", sqlite);
    return reporter.baselines;
  } finally {
    await server.stop();
  }
}

/**
 * A timing goal: the measurement's throughput must be at least `minRatio` times the named
 * baseline's throughput (e.g. 0.25 = no slower than a quarter of the bare route).
 */
export interface Goal {
  against: keyof Baselines;
  minRatio: number;
}

export interface ReportedRow {
  label: string;
  result: LoadResult;
  /** Throughput ratios: this req/s over the baseline's req/s. */
  ratios?: { bare: number; sqlite: number };
  /** Cost ratio: this request's server CPU time over a bare request's (Linux only). */
  costVsBare?: number;
  goal?: Goal;
  goalMet?: boolean;
}

const COLUMNS: [string, number][] = [
  ["measurement", 44],
  ["req/s", 9],
  ["p50 ms", 8],
  ["p99 ms", 8],
  ["× bare", 7],
  ["× sqlite", 9],
  ["errors", 7],
  ["srv cpu", 7],
  ["cpu µs/req", 10],
  ["cost×bare", 9],
  ["goal", 0],
];

function line(cells: string[]) {
  return cells.map((cell, i) => (i === 0 ? cell.padEnd(COLUMNS[i]![1]) : cell.padStart(COLUMNS[i]![1]))).join("  ");
}

const fixed = (value: number, digits: number) => (Number.isFinite(value) ? value.toFixed(digits) : "-");

/** Prints the table: a header once, then one line per measurement, ratios against the baselines. */
export class Reporter {
  readonly rows: ReportedRow[] = [];
  private headerShown = false;
  baselines: Baselines | undefined;

  constructor(readonly settings: LoadSettings = loadSettingsFromEnv()) {}

  header() {
    if (this.headerShown) return;
    this.headerShown = true;
    const { concurrency, warmupMs, durationMs } = this.settings;
    console.log(`concurrency ${concurrency}, warm-up ${warmupMs / 1000} s, measured ${durationMs / 1000} s per line`);
    console.log(line(COLUMNS.map(([name]) => name)));
    console.log("-".repeat(COLUMNS.reduce((width, [, cell]) => width + cell + 2, 20)));
  }

  section(title: string) {
    this.header();
    console.log(`# ${title}`);
  }

  /** Prints one measurement; with baselines known, also its throughput ratios and goal check. */
  row(label: string, result: LoadResult, goal?: Goal): ReportedRow {
    this.header();
    const row: ReportedRow = { label, result, goal };
    if (this.baselines) {
      row.ratios = { bare: result.rps / this.baselines.bare.rps, sqlite: result.rps / this.baselines.sqlite.rps };
      const bareCost = this.baselines.bare.cpuMicrosPerRequest;
      if (bareCost && result.cpuMicrosPerRequest !== undefined) row.costVsBare = result.cpuMicrosPerRequest / bareCost;
      if (goal) row.goalMet = row.ratios[goal.against] >= goal.minRatio && result.errors === 0;
    }
    this.rows.push(row);
    const goalText = goal ? `≥ ${goal.minRatio}× ${goal.against}${row.goalMet === undefined ? "" : row.goalMet ? "  ok" : "  MISSED"}` : "";
    console.log(
      line([
        label,
        fixed(result.rps, 0),
        fixed(result.p50Ms, 2),
        fixed(result.p99Ms, 2),
        row.ratios ? fixed(row.ratios.bare, 3) : "1",
        row.ratios ? fixed(row.ratios.sqlite, 3) : "",
        String(result.errors),
        result.serverCpuPercent === undefined ? "-" : `${fixed(result.serverCpuPercent, 0)}%`,
        result.cpuMicrosPerRequest === undefined ? "-" : fixed(result.cpuMicrosPerRequest, 1),
        row.costVsBare === undefined ? "-" : fixed(row.costVsBare, 1),
        goalText,
      ]),
    );
    if (result.firstError) console.log(`    first error: ${result.firstError}`);
    return row;
  }

  missedGoals(): ReportedRow[] {
    return this.rows.filter((row) => row.goalMet === false);
  }
}

// ---------------------------------------------------------------------------------------------
// Benches

/** What a bench gets from index.ts: the shared reporter and this run's baselines (measured once). */
export interface BenchContext {
  reporter: Reporter;
  settings: LoadSettings;
  baselines(): Promise<Baselines>;
}

export interface Bench {
  /** The name used on the command line: `npm run bench -- <name>`. */
  name: string;
  description: string;
  run(context: BenchContext): Promise<void>;
}

/** A deterministic pseudo-random number generator (mulberry32) in [0, 1): benches seed the same data every run. */
export function seededRandom(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ---------------------------------------------------------------------------------------------
// Side-by-side latency: ours and its bare baselines in alternating slices

/**
 * One kind of call timed one at a time: `call(i)` makes the i-th call (an HTTP request, or a query
 * in this process) and throws on a wrong answer.
 */
export type Timed = (i: number) => unknown;

export interface SideBySide {
  p50Ms: number;
  p99Ms: number;
  count: number;
  errors: number;
  firstError?: string;
}

/** An HTTP POST (or GET without a body) as a Timed call; any status but 200 is an error. */
export function httpCall(url: string, headers: Record<string, string>, bodies?: string[]): Timed {
  return async (i) => {
    const body = bodies?.[i % bodies.length];
    const response = await fetch(url, { method: body === undefined ? "GET" : "POST", headers, body, redirect: "manual" });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  };
}

/**
 * Times the calls one at a time, in `rounds` rounds that give each of them an equal slice of the
 * duration in turn (after one warm-up each), and answers each one's p50 and p99 over all its
 * slices. A virtual machine's speed drifts within seconds: timed in one block each, the faster
 * moment would favour whichever ran in it; in alternating slices they meet the same moments.
 */
export async function sideBySide(calls: Timed[], settings: LoadSettings, rounds = 8): Promise<SideBySide[]> {
  const latencies = calls.map(() => [] as number[]);
  const errors = calls.map(() => 0);
  const firstErrors: (string | undefined)[] = calls.map(() => undefined);
  const counters = calls.map(() => 0);
  const runFor = async (k: number, ms: number, record: boolean) => {
    const stopAt = performance.now() + ms;
    while (performance.now() < stopAt) {
      const started = performance.now();
      try {
        const answer = calls[k]!(counters[k]!++);
        if (answer instanceof Promise) await answer;
        if (record) latencies[k]!.push(performance.now() - started);
      } catch (error) {
        if (record) errors[k]!++;
        firstErrors[k] ??= String(error);
      }
    }
  };
  for (let k = 0; k < calls.length; k++) await runFor(k, Math.min(settings.warmupMs, 1000), false);
  const slice = settings.durationMs / rounds;
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < calls.length; k++) await runFor(k, slice, true);
  }
  return latencies.map((values, k) => {
    const sorted = Float64Array.from(values).sort();
    return {
      p50Ms: percentile(sorted, 50),
      p99Ms: percentile(sorted, 99),
      count: values.length,
      errors: errors[k]!,
      firstError: firstErrors[k],
    };
  });
}

/** A side-by-side measurement as a LoadResult (for the reporter's goal rows). */
export function asLoadResult(timed: SideBySide, seconds: number): LoadResult {
  return {
    requests: timed.count,
    errors: timed.errors,
    seconds,
    rps: timed.count / seconds,
    p50Ms: timed.p50Ms,
    p99Ms: timed.p99Ms,
    firstError: timed.firstError,
  };
}
