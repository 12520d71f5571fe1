/**
 * The load bench: 50 simulated learners at once, each signed in as its own user
 * with its own notebook (200 notes with embeddings, 150 memory trackers due now), each looping a
 * mix of what a learner does, one request after another, without pauses:
 *
 *   30 %  read a note's realm            GET /api/notes/{id}
 *   10 %  open a note page               GET /n{id} (server-rendered HTML)
 *   25 %  autosave                       PATCH /api/text_content/{id}/details (15 %) or /title (10 %)
 *                                        of one of its own notes (queues the embedding job, which
 *                                        calls the fake embedding provider in the background)
 *   10 %  recall                         GET /api/recalls/recalling, then mark the first due
 *                                        tracker as repeated (PATCH .../mark-as-repeated)
 *   15 %  literal search                 POST /api/notes/search (a word, a fragment, a 2-character key)
 *   10 %  semantic search                POST /api/notes/semantic-search (embeds the key at the fake)
 *
 * Printed: the total throughput and p50/p99 over every request, as ratios to the bare baseline
 * route (Elysia + one SQLite primary-key SELECT) loaded by the same 50 connections in the same
 * run; one line per kind of request; and the goal line: 0 errors (any answer but 2xx, or a failed
 * connection, is an error) — ok or MISSED.
 *
 * Users, sessions, notebooks, notes, embeddings and trackers are written straight into the
 * server's SQLite file (WAL), as learning.ts does: the session cookie is a token whose SHA-256 is
 * the sessions row's id. BENCH_LOAD_DURATION (seconds, default 15) sets the measured time; with
 * seeding and the baseline the bench takes about 30 s.
 */
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { DEFAULT_EMBEDDING_MODEL } from "../../src/ai/settings";
import { loadSqliteVec } from "../../src/db/sqlite-vec";
import { embeddingSource, sourceHash, vectorBlob } from "../../src/services/search/embedding-source";
import { fakeEmbedding, startFakeOpenAI } from "../../tests/fakes/openai";
import { type Bench, type LoadResult, type LoadSettings, load, percentile, seededRandom, startBaseline, startEngram } from "./harness";

export const LEARNERS = 50;
const NOTES_PER_LEARNER = 200;
const DUE_TRACKERS = 150;
export const DIMENSIONS = 384;
const DAY_MS = 86_400_000;

const random = seededRandom(20261124);
const SYLLABLES = ["ka", "lo", "mi", "ner", "tu", "sa", "ve", "dor", "pi", "quen", "ra", "zu", "bel", "fo", "gri", "hal"];
export const VOCABULARY = Array.from({ length: 400 }, (_, i) => SYLLABLES[i % 16]! + SYLLABLES[(i >> 4) % 16]! + SYLLABLES[(i * 7) % 16]!);
const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)]!;
const words = (n: number) => Array.from({ length: n }, () => pick(VOCABULARY)).join(" ");

export interface Learner {
  cookie: string;
  noteIds: number[];
}

/** 50 users with a session each, a notebook of 200 notes (embedded), 150 trackers due now. */
export function seedLearners(dataDir: string): Learner[] {
  const db = new Database(join(dataDir, "engram.db"), { strict: true });
  db.run("PRAGMA busy_timeout = 10000");
  // The note_embeddings triggers keep the binary-quantised copy with sqlite-vec's functions.
  loadSqliteVec(db);
  const now = Date.now();
  const learners: Learner[] = [];
  const insertEmbedding = db.query(
    "INSERT OR REPLACE INTO note_embeddings (note_id, model, dimensions, embedding, source_hash, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
  );
  db.transaction(() => {
    for (let k = 0; k < LEARNERS; k++) {
      const account = db
        .query<{ id: number }, [string, number]>(
          "INSERT INTO accounts (external_identifier, password_hash, admin, created_at) VALUES (?, NULL, 0, ?) RETURNING id",
        )
        .get(`load_learner_${k}`, now)!;
      const user = db
        .query<{ id: number }, [number, string, number]>("INSERT INTO users (account_id, name, created_at) VALUES (?, ?, ?) RETURNING id")
        .get(account.id, `Load Learner ${k}`, now)!;
      const token = `load-bench-session-${k}-${now}`;
      const hash = new Bun.CryptoHasher("sha256").update(token).digest("hex");
      // Far from renewal and used just now: no session write on the way in.
      db.run("INSERT INTO sessions (id, account_id, expires_at, created_at, last_used_at) VALUES (?, ?, ?, ?, ?)", [
        hash,
        account.id,
        now + 29 * DAY_MS,
        now,
        now + 10 * 60_000,
      ]);
      const notebook = db
        .query<{ id: number }, [number, number, number]>(
          "INSERT INTO notebooks (creator_id, created_at, updated_at) VALUES (?, ?, ?) RETURNING id",
        )
        .get(user.id, now, now)!;
      const headTitle = `Notebook of learner ${k}`;
      const head = db
        .query<{ id: number }, [number, string, number, number]>(
          "INSERT INTO notes (notebook_id, title, details, sibling_order, created_at, updated_at) VALUES (?, ?, '', 0, ?, ?) RETURNING id",
        )
        .get(notebook.id, headTitle, now, now)!;
      db.run("UPDATE notebooks SET head_note_id = ? WHERE id = ?", [head.id, notebook.id]);
      const noteIds: number[] = [];
      const insertNote = db.query<{ id: number }, [number, number, string, string, number, number, number]>(
        "INSERT INTO notes (notebook_id, parent_id, title, details, sibling_order, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
      );
      for (let i = 1; i < NOTES_PER_LEARNER; i++) {
        const title = `${words(2)} ${k}.${i}`;
        const details = words(10 + (i % 15));
        const id = insertNote.get(notebook.id, head.id, title, details, i * 1024, now, now)!.id;
        noteIds.push(id);
        const source = embeddingSource({ title, details }, [headTitle]);
        insertEmbedding.run(
          id,
          DEFAULT_EMBEDDING_MODEL,
          DIMENSIONS,
          vectorBlob(Float32Array.from(fakeEmbedding(source, DIMENSIONS))),
          sourceHash(DEFAULT_EMBEDDING_MODEL, source),
          now,
        );
      }
      db.run(
        `INSERT INTO memory_trackers (user_id, note_id, spelling, assimilated_at, last_recalled_at, next_recall_at,
           repetition_count, forgetting_curve_index, removed_from_tracking)
         SELECT ?1, id, 0, ?2 - 3 * ?3, ?2 - 2 * ?3, ?2 - 3600000 - id, 2, 120, 0
         FROM notes WHERE notebook_id = ?4 AND id <> ?5 ORDER BY id LIMIT ?6`,
        [user.id, now, DAY_MS, notebook.id, head.id, DUE_TRACKERS],
      );
      learners.push({ cookie: `engram_session=${token}`, noteIds });
    }
  })();
  db.run("ANALYZE");
  db.close();
  return learners;
}

// ---------------------------------------------------------------------------------------------

export type Kind = "realm" | "page" | "autosave" | "recall" | "literal" | "semantic";
const FULL_MIX: [Kind, number][] = [
  ["realm", 30],
  ["page", 10],
  ["autosave", 25],
  ["recall", 10],
  ["literal", 15],
  ["semantic", 10],
];
/** BENCH_LOAD_ONLY=kind,kind (e.g. "realm,page") runs only those kinds, to see what costs. */
const only = process.env.BENCH_LOAD_ONLY?.split(",").map((kind) => kind.trim());
export const MIX = only ? FULL_MIX.filter(([kind]) => only.includes(kind)) : FULL_MIX;
const MIX_TOTAL = MIX.reduce((sum, [, weight]) => sum + weight, 0);
function nextKind(): Kind {
  let x = random() * MIX_TOTAL;
  for (const [kind, weight] of MIX) {
    x -= weight;
    if (x < 0) return kind;
  }
  return "realm";
}

interface Tally {
  latencies: number[];
  errors: number;
  firstError?: string;
}

function summary(tally: Tally, seconds: number): LoadResult {
  const sorted = Float64Array.from(tally.latencies).sort();
  return {
    requests: sorted.length,
    errors: tally.errors,
    seconds,
    rps: sorted.length / seconds,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    firstError: tally.firstError,
  };
}

/** Runs every learner's loop for the warm-up and the measured time; one tally per kind. */
export async function runLearners(url: string, learners: Learner[], settings: LoadSettings) {
  const tallies = new Map<Kind | "all", Tally>([
    ["all", { latencies: [], errors: 0 }],
    ...MIX.map(([kind]) => [kind, { latencies: [], errors: 0 }] as [Kind, Tally]),
  ]);
  const began = performance.now();
  const measuredFrom = began + settings.warmupMs;
  const stopAt = measuredFrom + settings.durationMs;
  const json = { "content-type": "application/json" };

  const learnerLoop = async (learner: Learner, index: number) => {
    const headers = { cookie: learner.cookie };
    const request = async (kind: Kind, path: string, init: RequestInit = {}): Promise<Response | undefined> => {
      const started = performance.now();
      let response: Response | undefined;
      let failure: string | undefined;
      try {
        response = await fetch(url + path, {
          ...init,
          headers: { ...headers, ...(init.headers as Record<string, string>) },
          redirect: "manual",
        });
        const body = await response.arrayBuffer();
        if (response.status < 200 || response.status > 299)
          failure = `${init.method ?? "GET"} ${path}: ${response.status} ${new TextDecoder().decode(body).slice(0, 200)}`;
        else response = new Response(body, { status: response.status, headers: response.headers });
      } catch (error) {
        failure = `${init.method ?? "GET"} ${path}: ${String(error)}`;
      }
      if (started >= measuredFrom && started < stopAt) {
        for (const key of [kind, "all"] as const) {
          const tally = tallies.get(key)!;
          if (failure) {
            tally.errors++;
            tally.firstError ??= failure;
          } else tally.latencies.push(performance.now() - started);
        }
      }
      return failure ? undefined : response;
    };
    let autosaves = 0;
    while (performance.now() < stopAt) {
      const note = pick(learner.noteIds);
      const kind = nextKind();
      switch (kind) {
        case "realm":
          await request(kind, `/api/notes/${note}`);
          break;
        case "page":
          await request(kind, `/n${note}`);
          break;
        case "autosave":
          autosaves++;
          if (random() < 0.4) {
            await request(kind, `/api/text_content/${note}/title`, {
              method: "PATCH",
              headers: json,
              body: JSON.stringify({ newTitle: `${words(2)} ${index}.${autosaves}` }),
            });
          } else {
            await request(kind, `/api/text_content/${note}/details`, {
              method: "PATCH",
              headers: json,
              body: JSON.stringify({ details: words(12) }),
            });
          }
          break;
        case "recall": {
          const list = await request(kind, "/api/recalls/recalling?timezone=UTC");
          const due = list ? ((await list.json()) as { toRepeat: { memoryTrackerId: number }[] }).toRepeat : [];
          if (due.length > 0)
            await request(kind, `/api/memory-trackers/${due[0]!.memoryTrackerId}/mark-as-repeated?successful=true&thinkingTimeMs=1500`, {
              method: "PATCH",
            });
          break;
        }
        case "literal": {
          const word = pick(VOCABULARY);
          const searchKey = random() < 0.3 ? word.slice(0, 2) : random() < 0.5 ? word.slice(1, 5) : word;
          await request(kind, "/api/notes/search", {
            method: "POST",
            headers: json,
            body: JSON.stringify({ searchKey, allMyNotebooksAndSubscriptions: true, allMyCircles: false }),
          });
          break;
        }
        case "semantic":
          await request(kind, "/api/notes/semantic-search", {
            method: "POST",
            headers: json,
            body: JSON.stringify({ searchKey: words(2), allMyNotebooksAndSubscriptions: true, allMyCircles: false }),
          });
          break;
      }
    }
  };
  await Promise.all(learners.map(learnerLoop));
  const seconds = (performance.now() - measuredFrom) / 1000;
  return new Map([...tallies].map(([kind, tally]) => [kind, summary(tally, seconds)]));
}

/** The learners' load both load benches measure: every learner at once, BENCH_LOAD_DURATION seconds (15). */
export function learnersLoad(settings: LoadSettings): LoadSettings {
  return {
    concurrency: LEARNERS,
    warmupMs: Math.min(settings.warmupMs, 2000),
    durationMs: (Number(process.env.BENCH_LOAD_DURATION) || 15) * 1000,
  };
}

export const load50: Bench = {
  name: "load",
  description: "50 signed-in learners at once: reads, note pages, autosaves, recall, literal and semantic searches",
  async run({ reporter, settings, baselines }) {
    await baselines();
    const measured = learnersLoad(settings);
    // The bare baseline under the same 50 keep-alive connections, for the latency ratios.
    const baseline = await startBaseline();
    let bare: LoadResult;
    try {
      bare = await load({ url: `${baseline.url}/baseline/sqlite`, pid: baseline.pid }, { ...measured, durationMs: 3000 });
    } finally {
      await baseline.stop();
    }
    const fake = await startFakeOpenAI({ embeddingDimensions: DIMENSIONS });
    // The fake must not outlive a server that failed to start (it would keep this process alive).
    const server = await startEngram({ OPENAI_API_KEY: "bench", OPENAI_BASE_URL: fake.url }).catch(async (error) => {
      await fake.stop();
      throw error;
    });
    try {
      const started = performance.now();
      const learners = seedLearners(server.dataDir);
      // Every kind of request answers before the clock starts.
      const first = learners[0]!;
      for (const [path, init] of [
        [`/api/notes/${first.noteIds[0]}`, {}],
        [`/n${first.noteIds[0]}`, {}],
        ["/api/recalls/recalling?timezone=UTC", {}],
        [
          "/api/notes/semantic-search",
          {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ searchKey: "ka", allMyNotebooksAndSubscriptions: true }),
          },
        ],
      ] as [string, RequestInit][]) {
        const response = await fetch(server.url + path, {
          ...init,
          headers: { cookie: first.cookie, ...(init.headers as Record<string, string>) },
        });
        const text = await response.text();
        if (response.status !== 200) throw new Error(`${path} answered ${response.status}: ${text.slice(0, 300)}`);
        if (path.includes("semantic") && response.headers.get("x-engram-semantic") !== "on") throw new Error("semantic search is not on");
      }
      console.log(
        `  seeded ${LEARNERS} learners × ${NOTES_PER_LEARNER} notes and ${DUE_TRACKERS} due trackers in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );

      reporter.section(`under load (${LEARNERS} learners, one signed-in user each, no pauses)`);
      reporter.row(`baseline: + sqlite PK, ${LEARNERS} connections`, bare);
      const results = await runLearners(server.url, learners, measured);
      for (const [kind] of MIX) reporter.row(`  ${kind}`, results.get(kind)!);
      const all = results.get("all")!;
      reporter.row(`${LEARNERS} learners, mixed`, all);
      const f = (n: number) => n.toFixed(2);
      const pending = new Database(join(server.dataDir, "engram.db"), { readonly: true });
      const jobs = pending.query<{ n: number }, []>("SELECT count(*) AS n FROM jobs WHERE status IN ('queued', 'running')").get()!.n;
      pending.close();
      console.log(
        `  ${LEARNERS} learners vs bare (same ${LEARNERS} connections): throughput ${all.rps.toFixed(0)} req/s (${f(all.rps / bare.rps)}× bare), ` +
          `p50 ${f(all.p50Ms)} ms (${f(all.p50Ms / bare.p50Ms)}× bare ${f(bare.p50Ms)} ms), p99 ${f(all.p99Ms)} ms (${f(all.p99Ms / bare.p99Ms)}× bare ${f(bare.p99Ms)} ms), ` +
          `${all.errors} errors in ${all.requests + all.errors} requests (${jobs} embedding jobs still queued)`,
      );
      const met = all.errors === 0 && all.requests > 0;
      console.log(`  goal: 0 errors under ${LEARNERS} learners  ${met ? "ok" : "MISSED"}`);
      if (all.firstError) console.log(`    first error: ${all.firstError}`);
      reporter.rows.push({ label: `${LEARNERS} learners: 0 errors`, result: all, goalMet: met });
    } finally {
      await server.stop();
      await fake.stop();
    }
  },
};
