/**
 * The PostgreSQL bench (`npm run bench -- postgres`): the load bench's 50 learners and route mix
 * (load.ts) against three set-ups in one run, side by side —
 *
 *   SQLite, 1 process          Engram on its SQLite file, as the load bench runs it
 *   PostgreSQL, 1 process      Engram with ENGRAM_DATABASE_URL on a throwaway cluster
 *   PostgreSQL, 2 processes    two Engram processes on one database behind a loopback
 *                              round-robin proxy (round-robin-proxy.ts)
 *
 * printing throughput, p50/p99 and errors per set-up (and p50/p99 per kind of request), then the
 * search ratios: literal and semantic search one request at a time against their bare queries on
 * the same data (SQLite: FTS5 MATCH and a vec_distance_cosine scan; PostgreSQL: a trigram-indexed
 * ILIKE and an exact cosine scan of the vectors read from the database, plain PostgreSQL having no
 * vector distance), each bare query with a bare HTTP round trip added, as the search bench does.
 *
 * Every set-up starts from the same rows: the learners are seeded into the SQLite file, which is
 * copied into PostgreSQL with `engram migrate-to-postgres`'s copy before the SQLite run changes
 * anything (sessions included: the same cookies work everywhere), and that database is copied
 * whole (CREATE DATABASE … TEMPLATE) for the two-process set-up.
 *
 * Goals (a miss prints MISSED and fails the run): 0 errors in every set-up; PostgreSQL with one
 * process at most 2× SQLite's p99; each search ratio on PostgreSQL at most 1.25× the same ratio on
 * SQLite measured in this run (the same ratios, with room for noise). The cluster runs with
 * fsync off (scripts/postgres/cluster.sh): the numbers say what the code costs, not the disk.
 * Needs Debian's postgresql (15 or newer). BENCH_LOAD_DURATION (seconds, default 15) as in load.ts.
 */
import { Database } from "bun:sqlite";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SQL } from "bun";
import { loadSqliteVec } from "../../src/db/sqlite-vec";
import { migrateToPostgres } from "../../src/store/migrate-to-postgres/copy-to-postgres";
import { fakeEmbedding, startFakeOpenAI } from "../../tests/fakes/openai";
import {
  asLoadResult,
  type Bench,
  httpCall,
  type LoadResult,
  type LoadSettings,
  ROOT,
  type ServerHandle,
  sideBySide,
  startBaseline,
  startEngram,
  startServer,
  type Timed,
} from "./harness";
import { DIMENSIONS, type Kind, LEARNERS, type Learner, learnersLoad, MIX, runLearners, seedLearners, VOCABULARY } from "./load";

type LoadResults = Map<Kind | "all", LoadResult>;

interface SearchRatios {
  literal: number;
  semantic: number;
  lines: string[];
}

interface SetUp {
  name: string;
  results?: LoadResults;
  search?: SearchRatios;
  /** Why it did not run. */
  failure?: string;
}

// ---------------------------------------------------------------------------------------------
// The throwaway cluster

async function startCluster(): Promise<{ url: string; stop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), "engram-bench-postgres-"));
  const script = join(ROOT, "scripts/postgres/cluster.sh");
  const started = Bun.spawnSync(["bash", script, "start", dir], { stdout: "pipe", stderr: "pipe" });
  if (started.exitCode !== 0) throw new Error(`Could not start PostgreSQL: ${started.stderr.toString().trim()}`);
  const url = started.stdout.toString().trim();
  return {
    url,
    async stop() {
      Bun.spawnSync(["bash", script, "stop", dir]);
    },
  };
}

/** A new database on the cluster, empty or a copy of `template` (which nobody may be connected to). */
async function createDatabase(url: string, name: string, template?: string): Promise<string> {
  const admin = new SQL(url, { max: 1 });
  try {
    await admin.unsafe(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ""}`);
  } finally {
    await admin.close();
  }
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

// ---------------------------------------------------------------------------------------------
// Servers

/** Engram on PostgreSQL in test mode, its data as copied (no test reset: that would empty it). */
function startEngramOnPostgres(databaseUrl: string, openaiUrl: string): Promise<ServerHandle> {
  return startServer({
    name: "Engram on PostgreSQL",
    entry: "src/main.ts",
    env: { ENGRAM_MODE: "test", ENGRAM_DATABASE_URL: databaseUrl, OPENAI_API_KEY: "bench", OPENAI_BASE_URL: openaiUrl },
    readyPath: "/api/healthcheck",
    timeoutMs: 60_000,
  });
}

/** Every kind of request answers on the copied data (and semantic search is on) before the clock starts. */
async function warmUpOnPostgres(url: string, learner: Learner, servers: ServerHandle[]) {
  try {
    await warmUp(url, learner);
  } catch (error) {
    // A server that ignored ENGRAM_DATABASE_URL serves an empty SQLite file: the copied notes are not there.
    const said = servers
      .map((server) => server.output().trim().split("\n").slice(-8).join("\n    "))
      .filter(Boolean)
      .join("\n    ");
    console.log(`  Engram on PostgreSQL said:\n    ${said}`);
    throw new Error(`Engram did not serve the copied data from PostgreSQL: ${(error as Error).message}`);
  }
}

/** Every kind of request answers (and semantic search is on) before the clock starts. */
async function warmUp(url: string, learner: Learner) {
  const json = { "content-type": "application/json" };
  const body = JSON.stringify({ searchKey: "ka", allMyNotebooksAndSubscriptions: true });
  for (const [path, init] of [
    [`/api/notes/${learner.noteIds[0]}`, {}],
    [`/n${learner.noteIds[0]}`, {}],
    ["/api/recalls/recalling?timezone=UTC", {}],
    ["/api/notes/search", { method: "POST", headers: json, body }],
    ["/api/notes/semantic-search", { method: "POST", headers: json, body }],
  ] as [string, RequestInit][]) {
    const response = await fetch(url + path, { ...init, headers: { cookie: learner.cookie, ...(init.headers as Record<string, string>) } });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`${path} answered ${response.status}: ${text.slice(0, 200)}`);
    if (path.includes("semantic") && response.headers.get("x-engram-semantic") !== "on") throw new Error("semantic search is not on");
  }
}

// ---------------------------------------------------------------------------------------------
// Search ratios against bare queries

const searchBody = (searchKey: string) => JSON.stringify({ searchKey, allMyNotebooksAndSubscriptions: true, allMyCircles: false });
const literalKeys = [VOCABULARY[3]!, VOCABULARY[40]!, VOCABULARY[170]!, VOCABULARY[333]!.slice(1, 5), `${VOCABULARY[7]} ${VOCABULARY[90]}`];
const semanticKeys = [`${VOCABULARY[20]} ${VOCABULARY[300]}`, VOCABULARY[250]!, `${VOCABULARY[33]} ${VOCABULARY[44]} ${VOCABULARY[55]}`];

interface BareQueries {
  literal: Timed;
  semantic: Timed;
  close(): Promise<void>;
}

function bareSqlite(file: string): BareQueries {
  const db = new Database(file, { readonly: true });
  loadSqliteVec(db);
  const fts = db.query("SELECT rowid FROM notes_fts WHERE notes_fts MATCH ? ORDER BY bm25(notes_fts) LIMIT 30");
  const phrase = (key: string) =>
    key
      .split(/\s+/)
      .map((w) => `"${w.replaceAll('"', '""')}"`)
      .join(" AND ");
  const scan = db.query(
    "SELECT note_id, vec_distance_cosine(embedding, ?) AS d FROM note_embeddings WHERE dimensions = ? ORDER BY d LIMIT 30",
  );
  const vectors = semanticKeys.map((key) => Buffer.from(Float32Array.from(fakeEmbedding(key, DIMENSIONS)).buffer));
  return {
    literal: (i) => fts.all(phrase(literalKeys[i % literalKeys.length]!)),
    semantic: (i) => scan.all(vectors[i % vectors.length]!, DIMENSIONS),
    close: async () => db.close(),
  };
}

/** Plain PostgreSQL: ILIKE over the trigram indexes, and every vector read and compared exactly (no vector type). */
function barePostgres(url: string): BareQueries {
  const client = new SQL(url, { max: 1 });
  const vectors = semanticKeys.map((key) => Float32Array.from(fakeEmbedding(key, DIMENSIONS)));
  const cosine = (a: Float32Array, b: Float32Array) => {
    let dot = 0;
    let na = 0;
    let nb = 0;
    for (let i = 0; i < a.length; i++) {
      dot += a[i]! * b[i]!;
      na += a[i]! * a[i]!;
      nb += b[i]! * b[i]!;
    }
    return 1 - dot / Math.sqrt(na * nb || 1);
  };
  return {
    literal: async (i) => {
      const words = literalKeys[i % literalKeys.length]!.split(/\s+/).map((word) => `%${word}%`);
      const [first, second = first] = words;
      return client`SELECT id FROM notes WHERE (title ILIKE ${first} OR details ILIKE ${first}) AND (title ILIKE ${second} OR details ILIKE ${second}) LIMIT 30`;
    },
    semantic: async (i) => {
      const key = vectors[i % vectors.length]!;
      const rows: { note_id: number; embedding: Uint8Array }[] =
        await client`SELECT note_id, embedding FROM note_embeddings WHERE dimensions = ${DIMENSIONS}`;
      return rows
        .map((row) => ({
          id: row.note_id,
          d: cosine(key, new Float32Array(row.embedding.buffer, row.embedding.byteOffset, row.embedding.byteLength / 4)),
        }))
        .sort((a, b) => a.d - b.d)
        .slice(0, 30);
    },
    close: () => client.close(),
  };
}

/** Engram's literal and semantic search one request at a time, each against its bare query plus a bare round trip. */
async function searchRatios(url: string, learner: Learner, bare: BareQueries, settings: LoadSettings): Promise<SearchRatios> {
  const baseline = await startBaseline();
  try {
    const headers = { cookie: learner.cookie, "content-type": "application/json" };
    const roundTrip = httpCall(`${baseline.url}/baseline/sqlite`, {});
    const one = { ...settings, concurrency: 1 };
    const seconds = one.durationMs / 1000;
    const [literal, bareLiteral, semantic, bareSemantic, trip] = await sideBySide(
      [
        httpCall(`${url}/api/notes/search`, headers, literalKeys.map(searchBody)),
        bare.literal,
        httpCall(`${url}/api/notes/semantic-search`, headers, semanticKeys.map(searchBody)),
        bare.semantic,
        roundTrip,
      ],
      one,
    );
    const f = (n: number) => n.toFixed(2);
    const ratio = (ours: LoadResult, query: { p50Ms: number }) => ours.p50Ms / (query.p50Ms + trip!.p50Ms);
    const oursLiteral = asLoadResult(literal!, seconds);
    const oursSemantic = asLoadResult(semantic!, seconds);
    const literalRatio = ratio(oursLiteral, bareLiteral!);
    const semanticRatio = ratio(oursSemantic, bareSemantic!);
    return {
      literal: oursLiteral.errors === 0 ? literalRatio : Number.NaN,
      semantic: oursSemantic.errors === 0 ? semanticRatio : Number.NaN,
      lines: [
        `literal p50 ${f(oursLiteral.p50Ms)} ms vs bare ${f(bareLiteral!.p50Ms)} ms + round trip ${f(trip!.p50Ms)} ms: ${f(literalRatio)}×`,
        `semantic p50 ${f(oursSemantic.p50Ms)} ms vs bare ${f(bareSemantic!.p50Ms)} ms + round trip ${f(trip!.p50Ms)} ms: ${f(semanticRatio)}×`,
      ],
    };
  } finally {
    await baseline.stop();
    await bare.close();
  }
}

// ---------------------------------------------------------------------------------------------
// Printing

function printSideBySide(setUps: SetUp[]) {
  const width = 24;
  const cell = (text: string) => text.padStart(width);
  const f = (n: number) => (Number.isFinite(n) ? n.toFixed(n >= 100 ? 0 : 2) : "—");
  console.log(`  ${"".padEnd(28)}${setUps.map((s) => cell(s.name)).join("")}`);
  const line = (label: string, value: (r: LoadResults) => string) =>
    console.log(`  ${label.padEnd(28)}${setUps.map((s) => cell(s.results ? value(s.results) : "not run")).join("")}`);
  line("throughput (req/s)", (r) => f(r.get("all")!.rps));
  line("p50 / p99 (ms)", (r) => `${f(r.get("all")!.p50Ms)} / ${f(r.get("all")!.p99Ms)}`);
  line("errors / requests", (r) => `${r.get("all")!.errors} / ${r.get("all")!.requests + r.get("all")!.errors}`);
  for (const [kind] of MIX) line(`  ${kind} p50 / p99 (ms)`, (r) => `${f(r.get(kind)!.p50Ms)} / ${f(r.get(kind)!.p99Ms)}`);
  for (const setUp of setUps) {
    if (setUp.failure) console.log(`  ${setUp.name} did not run: ${setUp.failure}`);
    const first = setUp.results?.get("all")?.firstError;
    if (first) console.log(`  ${setUp.name}, first error: ${first}`);
  }
}

// ---------------------------------------------------------------------------------------------

async function attempt(setUp: SetUp, run: () => Promise<void>) {
  try {
    await run();
  } catch (error) {
    setUp.failure = error instanceof Error ? error.message.split("\n")[0] : String(error);
  }
}

export const postgres: Bench = {
  name: "postgres",
  description: "the load mix on SQLite (1 process) and PostgreSQL (1 and 2 processes behind a proxy), and search ratios on PostgreSQL",
  async run({ reporter, settings, baselines }) {
    await baselines();
    const measured = learnersLoad(settings);
    const sqliteSetUp: SetUp = { name: "SQLite, 1 process" };
    const pgOne: SetUp = { name: "PostgreSQL, 1 process" };
    const pgTwo: SetUp = { name: "PostgreSQL, 2 processes" };
    const cluster = await startCluster();
    const fake = await startFakeOpenAI({ embeddingDimensions: DIMENSIONS });
    try {
      const sqliteServer = await startEngram({ OPENAI_API_KEY: "bench", OPENAI_BASE_URL: fake.url });
      let learners: Learner[];
      const databases: string[] = [];
      try {
        const started = performance.now();
        learners = seedLearners(sqliteServer.dataDir);
        await warmUp(sqliteServer.url, learners[0]!);
        console.log(`  seeded ${LEARNERS} learners in ${((performance.now() - started) / 1000).toFixed(1)} s`);
        // The same rows for every set-up: copied before the SQLite run changes them.
        const file = join(sqliteServer.dataDir, "engram.db");
        const copyStarted = performance.now();
        const oneUrl = await createDatabase(cluster.url, "engram_bench_one");
        const copied = await migrateToPostgres(file, oneUrl);
        const rows = copied.tables.reduce((sum, table) => sum + table.target, 0);
        console.log(
          `  copied ${rows} rows into PostgreSQL with migrate-to-postgres in ${((performance.now() - copyStarted) / 1000).toFixed(1)} s`,
        );
        // The two-process set-up gets the very same rows: PostgreSQL copies the first database whole.
        databases.push(oneUrl, await createDatabase(cluster.url, "engram_bench_two", "engram_bench_one"));
        console.log(`  ${sqliteSetUp.name}: ${LEARNERS} learners for ${measured.durationMs / 1000} s`);
        sqliteSetUp.results = await runLearners(sqliteServer.url, learners, measured);
        sqliteSetUp.search = await searchRatios(sqliteServer.url, learners[0]!, bareSqlite(file), settings);
      } finally {
        await sqliteServer.stop();
      }
      const [oneUrl, twoUrl] = databases as [string, string];

      await attempt(pgOne, async () => {
        const server = await startEngramOnPostgres(oneUrl, fake.url);
        try {
          await warmUpOnPostgres(server.url, learners[0]!, [server]);
          console.log(`  ${pgOne.name}: ${LEARNERS} learners for ${measured.durationMs / 1000} s`);
          pgOne.results = await runLearners(server.url, learners, measured);
          pgOne.search = await searchRatios(server.url, learners[0]!, barePostgres(oneUrl), settings);
        } finally {
          await server.stop();
        }
      });

      await attempt(pgTwo, async () => {
        const servers: ServerHandle[] = [];
        try {
          for (let i = 0; i < 2; i++) servers.push(await startEngramOnPostgres(twoUrl, fake.url));
          const proxy = await startServer({
            name: "round-robin proxy",
            entry: "scripts/bench/round-robin-proxy.ts",
            env: { PROXY_UPSTREAMS: servers.map((server) => server.url).join(",") },
            readyPath: "/api/healthcheck",
          });
          servers.push(proxy);
          await warmUpOnPostgres(proxy.url, learners[0]!, servers);
          console.log(`  ${pgTwo.name}: ${LEARNERS} learners for ${measured.durationMs / 1000} s`);
          pgTwo.results = await runLearners(proxy.url, learners, measured);
        } finally {
          for (const server of servers.reverse()) await server.stop();
        }
      });
    } finally {
      await fake.stop();
      await cluster.stop();
    }

    const setUps = [sqliteSetUp, pgOne, pgTwo];
    reporter.section(`SQLite and PostgreSQL under load (${LEARNERS} learners, the load bench's mix, no pauses)`);
    printSideBySide(setUps);
    for (const setUp of setUps) {
      if (setUp.results) reporter.row(`${setUp.name}, mixed`, setUp.results.get("all")!);
    }
    const f = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : "—");
    for (const setUp of [sqliteSetUp, pgOne]) {
      if (setUp.search) for (const line of setUp.search.lines) console.log(`  ${setUp.name}, ${line}`);
    }

    const goal = (label: string, met: boolean, shown: string) => {
      console.log(`  goal: ${label}: ${shown}  ${met ? "met" : "MISSED"}`);
      const result = { requests: 0, errors: 0, seconds: 0, rps: Number.NaN, p50Ms: Number.NaN, p99Ms: Number.NaN };
      reporter.rows.push({ label, result, goalMet: met });
    };
    for (const setUp of setUps) {
      const all = setUp.results?.get("all");
      goal(
        `0 errors, ${setUp.name}`,
        !!all && all.errors === 0 && all.requests > 0,
        all ? `${all.errors} errors` : `not run (${setUp.failure})`,
      );
    }
    const sqliteP99 = sqliteSetUp.results?.get("all")?.p99Ms ?? Number.NaN;
    const pgP99 = pgOne.results?.get("all")?.p99Ms ?? Number.NaN;
    goal(
      "PostgreSQL 1-process p99 ≤ 2× SQLite's",
      pgP99 <= 2 * sqliteP99,
      `${f(pgP99)} ms vs ${f(sqliteP99)} ms (${f(pgP99 / sqliteP99)}×)`,
    );
    for (const kind of ["literal", "semantic"] as const) {
      const onSqlite = sqliteSetUp.search?.[kind] ?? Number.NaN;
      const onPostgres = pgOne.search?.[kind] ?? Number.NaN;
      goal(
        `${kind} search ratio to its bare query on PostgreSQL ≤ 1.25× SQLite's`,
        onPostgres <= 1.25 * onSqlite,
        `${f(onPostgres)}× vs ${f(onSqlite)}× on SQLite`,
      );
    }
  },
};
