/**
 * The search bench: literal and semantic note search over 100,000 notes of one user (10 notebooks
 * of 10,000 notes, text made of words from a 3,000-word vocabulary with a Zipf-like spread).
 *
 *   POST /api/notes/search            literal search (FTS5 trigram index), keys rotating over common,
 *                                     middling and rare words, two-word keys, word fragments and exact
 *                                     titles; and a 2-character key (the LIKE fallback)
 *   POST /api/notes/semantic-search   embeds the key (a fake OpenAI server in this process) and ranks
 *                                     the user's 100,000 embeddings with vec_distance_cosine
 *
 * Embeddings: 384 dimensions from the fake's deterministic bag-of-words function (fakeEmbedding),
 * written straight into note_embeddings with the hash of the text Engram would embed, so the
 * embedding jobs (if inject_notes queues them) find them current and skip them; the bench waits
 * until the job queue is empty before measuring.
 *
 * The bare queries are measured in this process, on the same SQLite file (opened beside the server,
 * WAL), in the same run: a bare FTS5 `MATCH ... ORDER BY bm25 LIMIT 30` for the same keys (a bare
 * LIKE scan for the 2-character key), and a bare `vec_distance_cosine` scan of every embedding
 * `ORDER BY distance LIMIT 30` with the key's vector computed locally. They are timed one query after
 * another; Engram's endpoints are timed the same way (one request at a time) for the p50/p99
 * ratios, which therefore also include HTTP, JSON, permission filtering and presenting, and for the
 * semantic search the embedding round trip to the fake. A second, concurrent run of each endpoint
 * gives the usual table line with throughput ratios to the bare Elysia baselines.
 */
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { loadSqliteVec } from "../../src/db/sqlite-vec";
import { DEFAULT_EMBEDDING_MODEL } from "../../src/ai/settings";
import { embeddingSource, sourceHash, vectorBlob } from "../../src/services/search/embedding-source";
import { fakeEmbedding, startFakeOpenAI } from "../../tests/fakes/openai";
import { type Bench, type LoadResult, type LoadSettings, type Reporter, type ServerHandle, signIn, startEngram } from "./harness";

const NOTEBOOKS = 10;
const NOTES_PER_NOTEBOOK = 10_000;
const GROUP_SIZE = 100;
const VOCABULARY_SIZE = 3_000;
const DIMENSIONS = 384;

// ---------------------------------------------------------------------------------------------
// Deterministic text

function mulberry32(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const random = mulberry32(20260601);
const SYLLABLES = ["ka", "lo", "mi", "ner", "tu", "sa", "ve", "dor", "pi", "quen", "ra", "zu", "bel", "fo", "gri", "hal", "jo", "wen", "xi", "yor"];
const vocabulary = Array.from({ length: VOCABULARY_SIZE }, (_, i) => {
  let word = "";
  for (let n = i + 7; word.length < 5 || n > 0; n = Math.floor(n / SYLLABLES.length)) word += SYLLABLES[n % SYLLABLES.length];
  return word;
});
/** Word rank r is picked with weight 1/(r+1): a few words are everywhere, most are rare. */
const cumulative = (() => {
  let sum = 0;
  return vocabulary.map((_, r) => (sum += 1 / (r + 1)));
})();
function word(): string {
  const x = random() * cumulative.at(-1)!;
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cumulative[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return vocabulary[lo]!;
}
const words = (min: number, max: number) => Array.from({ length: min + Math.floor(random() * (max - min + 1)) }, word).join(" ");

interface SeedNote {
  Title: string;
  Details: string;
  "Parent Title"?: string;
  ancestors: string[];
}

/** One notebook: a root, groups of 100 under it, notes under the groups. Titles are unique. */
function notebook(k: number): SeedNote[] {
  const root = `Notebook ${k} ${words(1, 2)}`;
  const rows: SeedNote[] = [{ Title: root, Details: words(5, 10), ancestors: [] }];
  for (let g = 0; rows.length < NOTES_PER_NOTEBOOK; g++) {
    const group = `Group ${k}.${g} ${words(1, 2)}`;
    rows.push({ Title: group, Details: words(5, 15), "Parent Title": root, ancestors: [root] });
    for (let i = 0; i < GROUP_SIZE - 1 && rows.length < NOTES_PER_NOTEBOOK; i++) {
      rows.push({ Title: `${words(2, 3)} ${k}.${g}.${i}`, Details: words(12, 25), "Parent Title": group, ancestors: [root, group] });
    }
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------
// Seeding

async function inject(server: ServerHandle, cookie: string, rows: SeedNote[]): Promise<Record<string, number>> {
  const noteTestData = rows.map(({ ancestors: _, ...row }) => row);
  const response = await fetch(`${server.url}/api/testability/inject_notes`, {
    method: "POST",
    headers: { cookie, "content-type": "application/json" },
    body: JSON.stringify({ externalIdentifier: "", circleName: null, noteTestData }),
  });
  if (!response.ok) throw new Error(`inject_notes failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as Record<string, number>;
}

/** Writes each note's embedding as Engram would store it, 5,000 rows per transaction (short write locks). */
function writeEmbeddings(db: Database, notes: { id: number; row: SeedNote }[]) {
  const insert = db.query(
    `INSERT OR REPLACE INTO note_embeddings (note_id, model, dimensions, embedding, source_hash, updated_at) VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const now = Date.now();
  for (let i = 0; i < notes.length; i += 5_000) {
    db.transaction(() => {
      for (const { id, row } of notes.slice(i, i + 5_000)) {
        const source = embeddingSource({ title: row.Title, details: row.Details }, row.ancestors);
        const vector = Float32Array.from(fakeEmbedding(source, DIMENSIONS));
        insert.run(id, DEFAULT_EMBEDDING_MODEL, DIMENSIONS, vectorBlob(vector), sourceHash(DEFAULT_EMBEDDING_MODEL, source), now);
      }
    })();
  }
}

async function waitForEmptyJobQueue(db: Database) {
  const deadline = Date.now() + 10 * 60_000;
  const pending = db.query<{ n: number }, []>("SELECT count(*) AS n FROM jobs WHERE status IN ('queued', 'running')");
  for (;;) {
    const n = pending.get()!.n;
    if (n === 0) return;
    if (Date.now() > deadline) throw new Error(`${n} jobs still pending after 10 minutes`);
    await Bun.sleep(500);
  }
}

// ---------------------------------------------------------------------------------------------
// Timing

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** `concurrency` keep-alive loops POSTing the bodies in turn; a warm-up, then the measured duration. */
async function postLoad(url: string, cookie: string, bodies: string[], settings: LoadSettings): Promise<LoadResult> {
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  let next = 0;
  const began = performance.now();
  const measuredFrom = began + settings.warmupMs;
  const stopAt = measuredFrom + settings.durationMs;
  const loop = async () => {
    while (performance.now() < stopAt) {
      const body = bodies[next++ % bodies.length]!;
      const started = performance.now();
      let ok = false;
      try {
        const response = await fetch(url, { method: "POST", headers: { cookie, "content-type": "application/json" }, body });
        await response.arrayBuffer();
        ok = response.status === 200;
        if (!ok) firstError ??= `status ${response.status}`;
      } catch (error) {
        firstError ??= String(error);
      }
      if (started < measuredFrom) continue;
      if (ok) latencies.push(performance.now() - started);
      else errors++;
    }
  };
  await Promise.all(Array.from({ length: settings.concurrency }, loop));
  const seconds = (performance.now() - measuredFrom) / 1000;
  const sorted = Float64Array.from(latencies).sort();
  return { requests: latencies.length, errors, seconds, rps: latencies.length / seconds, p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99), firstError };
}

/** Runs the queries one after another for the duration (after a warm-up); p50 and p99 in ms. */
function timeQueries(run: (i: number) => unknown, settings: LoadSettings) {
  const latencies: number[] = [];
  const warmUntil = performance.now() + Math.min(settings.warmupMs, 1000);
  for (let i = 0; performance.now() < warmUntil; i++) run(i);
  const stopAt = performance.now() + settings.durationMs;
  for (let i = 0; performance.now() < stopAt; i++) {
    const started = performance.now();
    run(i);
    latencies.push(performance.now() - started);
  }
  const sorted = Float64Array.from(latencies).sort();
  return { p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99) };
}

/**
 * Prints one comparison with the bare query; the goal is a p50 at most `maxP50Ratio` times the bare
 * query's. A miss is recorded with the reporter's rows, so BENCH_STRICT=1 fails on it too.
 */
function compare(reporter: Reporter, label: string, ours: LoadResult, bare: { p50Ms: number; p99Ms: number }, maxP50Ratio: number) {
  const f = (n: number) => n.toFixed(2);
  const p50Ratio = ours.p50Ms / bare.p50Ms;
  const goalMet = p50Ratio <= maxP50Ratio && ours.errors === 0;
  console.log(
    `  ${label}: p50 ${f(ours.p50Ms)} ms vs bare ${f(bare.p50Ms)} ms (${f(p50Ratio)}×), ` +
      `p99 ${f(ours.p99Ms)} ms vs bare ${f(bare.p99Ms)} ms (${f(ours.p99Ms / bare.p99Ms)}×)  goal p50 ≤ ${maxP50Ratio}× bare  ${goalMet ? "ok" : "MISSED"}`,
  );
  reporter.rows.push({ label: `${label} (p50 ≤ ${maxP50Ratio}× bare)`, result: ours, goalMet });
}

// ---------------------------------------------------------------------------------------------

export const search: Bench = {
  name: "search",
  description: "literal and semantic note search over 100,000 notes, against bare FTS5 and sqlite-vec queries",
  async run({ reporter, settings, baselines }) {
    await baselines();
    const fake = await startFakeOpenAI({ embeddingDimensions: DIMENSIONS });
    const server = await startEngram({ OPENAI_API_KEY: "bench", OPENAI_BASE_URL: fake.url });
    const db = new Database(join(server.dataDir, "engram.db"), { strict: true });
    try {
      db.run("PRAGMA busy_timeout = 10000");
      loadSqliteVec(db);
      const cookie = await signIn(server, "old_learner");
      const seeded: { id: number; row: SeedNote }[] = [];
      const started = performance.now();
      for (let k = 0; k < NOTEBOOKS; k++) {
        const rows = notebook(k);
        const ids = await inject(server, cookie, rows);
        for (const row of rows) seeded.push({ id: ids[row.Title]!, row });
      }
      writeEmbeddings(db, seeded);
      await waitForEmptyJobQueue(db);
      console.log(`  seeded ${seeded.length} notes with ${DIMENSIONS}-dimension embeddings in ${((performance.now() - started) / 1000).toFixed(1)} s`);

      const pick = (rank: number) => vocabulary[rank]!;
      const literalKeys = [
        pick(3), pick(40), pick(400), pick(2500), `${pick(5)} ${pick(120)}`, `${pick(60)} ${pick(700)}`,
        pick(150).slice(0, 4), pick(900).slice(1, 5), seeded[4242]!.row.Title, seeded[77_777]!.row.Title,
      ];
      const shortKey = pick(10).slice(0, 2);
      const semanticKeys = [`${pick(20)} ${pick(300)}`, `${pick(7)} ${pick(80)} ${pick(1500)}`, pick(250), `${pick(33)} ${pick(44)}`];
      const body = (searchKey: string) => JSON.stringify({ searchKey, allMyNotebooksAndSubscriptions: true, allMyCircles: false });
      const check = await fetch(`${server.url}/api/notes/semantic-search`, { method: "POST", headers: { cookie, "content-type": "application/json" }, body: body(semanticKeys[0]!) });
      if (check.headers.get("x-engram-semantic") !== "on" || ((await check.json()) as unknown[]).length === 0) {
        throw new Error(`semantic search is not answering semantically (${check.headers.get("x-engram-semantic")})`);
      }

      const one = { ...settings, concurrency: 1 };
      const literalUrl = `${server.url}/api/notes/search`;
      const semanticUrl = `${server.url}/api/notes/semantic-search`;
      const ftsQuery = db.query("SELECT rowid FROM notes_fts WHERE notes_fts MATCH ? ORDER BY bm25(notes_fts) LIMIT 30");
      const likeQuery = db.query("SELECT id FROM notes WHERE title LIKE ?1 OR details LIKE ?1 ORDER BY length(title) LIMIT 30");
      const vecQuery = db.query("SELECT note_id, vec_distance_cosine(embedding, ?) AS d FROM note_embeddings ORDER BY d LIMIT 30");
      const phrase = (key: string) => key.split(/\s+/).map((w) => `"${w.replaceAll('"', '""')}"`).join(" AND ");
      const queryVectors = semanticKeys.map((key) => vectorBlob(Float32Array.from(fakeEmbedding(key, DIMENSIONS))));

      reporter.section(`search (${seeded.length} notes, ${DIMENSIONS}-dimension embeddings)`);
      const literalBodies = literalKeys.map(body);
      // Throughput for context; the goals are the ratios to the bare queries below.
      reporter.row("POST /api/notes/search (mixed keys)", await postLoad(literalUrl, cookie, literalBodies, settings));
      reporter.row("POST /api/notes/search (2-char key)", await postLoad(literalUrl, cookie, [body(shortKey)], settings));
      reporter.row("POST /api/notes/semantic-search", await postLoad(semanticUrl, cookie, semanticKeys.map(body), settings));

      console.log("  one request at a time, against the bare queries on the same data:");
      compare(reporter, "literal (mixed keys) vs bare FTS5 MATCH", await postLoad(literalUrl, cookie, literalBodies, one),
        timeQueries((i) => ftsQuery.all(phrase(literalKeys[i % literalKeys.length]!)), settings), 2);
      compare(reporter, "literal (2-char key) vs bare LIKE scan", await postLoad(literalUrl, cookie, [body(shortKey)], one),
        timeQueries(() => likeQuery.all(`%${shortKey}%`), settings), 5);
      compare(reporter, "semantic vs bare vec_distance_cosine scan", await postLoad(semanticUrl, cookie, semanticKeys.map(body), one),
        timeQueries((i) => vecQuery.all(queryVectors[i % queryVectors.length]!), settings), 2);
    } finally {
      db.close();
      await server.stop();
      await fake.stop();
    }
  },
};
