/**
 * The stall bench (`npm run bench -- stall`): does long work hold up other learners? A probe
 * client asks the healthcheck and a signed-in page (the home page) one after the other, every
 * 25 ms, first with nothing else running (the idle probe), then while each of these runs:
 *
 *   obsidian   a 10,000-note vault (one image in ten notes) imported into a notebook
 *   anki       a 20,000-note deck with 8 reviews per card imported as a new notebook
 *   stats      /api/stats and /d/stats read again and again at 100,000 trackers and 1,000,000 reviews
 *   backup     the admin's backup of the database, grown to several hundred MB
 *
 * For each it prints the probe's worst and p99 latency against the idle probe's, the work's
 * duration (and notes per second for imports), and the peak memory of the server and of the
 * worker process doing the work (VmHWM from /proc, Linux). Then the statistics' p50 against the
 * home page's p50, measured side by side, and the first home page after a review against the
 * home page after a request that changed nothing.
 *
 * Goals: the probe's worst latency ≤ 100 ms during any of them; /api/stats and /d/stats p50
 * ≤ 2× the home page's p50; the first page after a review ≤ 2× the page after no change; imports at least as fast as before they moved to a worker (the
 * numbers below). A missed goal prints MISSED and makes the run exit non-zero.
 *
 * This machine is shared: measure when `uptime` shows a low load, and repeat.
 */
import { Database } from "bun:sqlite";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import JSZip from "jszip";
import { ankiPackage, type FixtureNote } from "../../tests/support/anki";
import {
  asLoadResult,
  type Bench,
  httpCall,
  percentile,
  type Reporter,
  type ServerHandle,
  sideBySide,
  signIn,
  startEngram,
} from "./harness";
import { seedStats } from "./stats";

const PROBE_EVERY_MS = 25;
const WORST_PROBE_GOAL_MS = 100;
const STATS_TO_HOME_GOAL = 2;
/** How many reviews the first page after a review is timed after (and as many pages after no change). */
const AFTER_REVIEW_SAMPLES = 60;
/** Before the imports moved to a worker (single transaction on the loop), on this machine: about 1 s per 1,000 vault notes, 5,000 deck notes in 18.5 s. */
const BEFORE_NOTES_PER_SECOND = { obsidian: 1000, anki: 270 };

const VAULT_NOTES = Number(process.env.STALL_VAULT_NOTES ?? 10_000);
const DECK_NOTES = Number(process.env.STALL_DECK_NOTES ?? 20_000);
/** STALL_PHASES=obsidian,anki measures only these (the comparison of statistics and pages runs with "stats"). */
const PHASES = new Set((process.env.STALL_PHASES ?? "obsidian,anki,stats,backup").split(",").map((name) => name.trim()));
const DAY_MS = 86_400_000;

// ---------------------------------------------------------------------------------------------
// The probe

interface ProbeResult {
  count: number;
  worstMs: number;
  p99Ms: number;
  p50Ms: number;
  errors: number;
}

/** When the last probe started: the moments STALL_TRACE prints count from it. */
let traceZero = 0;
const traceMoment = () => `${((performance.now() - traceZero) / 1000).toFixed(2)} s`;

/** Polls the healthcheck and the home page every 25 ms until stopped; each poll's time is both requests'. */
function startProbe(server: ServerHandle, cookie: string) {
  const latencies: number[] = [];
  /** STALL_TRACE=1: the slowest polls are printed with their moment, to find what held them. */
  const polls: { path: string; ms: number; at: number }[] = [];
  const from = performance.now();
  traceZero = from;
  let errors = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const began = performance.now();
      for (const [path, headers] of [
        ["/api/healthcheck", {}],
        ["/", { cookie }],
      ] as const) {
        const started = performance.now();
        try {
          const response = await fetch(server.url + path, { headers, redirect: "manual" });
          await response.arrayBuffer();
          if (response.status !== 200) errors++;
        } catch {
          errors++;
        }
        latencies.push(performance.now() - started);
        polls.push({ path, ms: performance.now() - started, at: started - from });
      }
      await Bun.sleep(Math.max(0, PROBE_EVERY_MS - (performance.now() - began)));
    }
  })();
  return async (): Promise<ProbeResult> => {
    running = false;
    await loop;
    const sorted = Float64Array.from(latencies).sort();
    if (process.env.STALL_TRACE) {
      const slowest = polls.sort((a, b) => b.ms - a.ms).slice(0, 8);
      console.log(
        `  slowest polls: ${slowest.map((poll) => `${poll.path} ${poll.ms.toFixed(0)} ms at ${(poll.at / 1000).toFixed(2)} s`).join("; ")}`,
      );
    }
    return {
      count: sorted.length,
      worstMs: sorted.at(-1) ?? Number.NaN,
      p99Ms: percentile(sorted, 99),
      p50Ms: percentile(sorted, 50),
      errors,
    };
  };
}

// ---------------------------------------------------------------------------------------------
// Memory of the server and its worker processes

function kib(pid: number, key: "VmHWM" | "VmRSS"): number {
  try {
    return Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** Processes whose parent is `pid` (the workers; a worker is started through /bin/sh, so grandchildren too). */
function descendants(pid: number): number[] {
  if (!existsSync("/proc")) return [];
  const parents = new Map<number, number>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      parents.set(Number(name), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      // gone
    }
  }
  const out: number[] = [];
  const visit = (parent: number) => {
    for (const [child, of] of parents) {
      if (of !== parent) continue;
      out.push(child);
      visit(child);
    }
  };
  visit(pid);
  return out;
}

/** Samples the workers' peak memory every 100 ms while the work runs (a process's VmHWM is gone with it). */
function watchWorkers(serverPid: number) {
  let peak = 0;
  const timer = setInterval(() => {
    for (const pid of descendants(serverPid)) peak = Math.max(peak, kib(pid, "VmHWM"));
  }, 100);
  return () => {
    clearInterval(timer);
    return peak / 1024;
  };
}

// ---------------------------------------------------------------------------------------------
// The work

async function waitForOperation(server: ServerHandle, cookie: string, id: number) {
  for (;;) {
    const operation = (await (await fetch(`${server.url}/api/operations/${id}`, { headers: { cookie } })).json()) as {
      status: string;
      error: string | null;
      result: Record<string, unknown>;
    };
    if (operation.status === "done") {
      if (process.env.STALL_TRACE) console.log(`  the operation was done at ${traceMoment()}`);
      return operation.result;
    }
    if (operation.status === "failed") throw new Error(`the operation failed: ${operation.error}`);
    await Bun.sleep(100);
  }
}

async function startImport(server: ServerHandle, cookie: string, path: string, file: File, fields: Record<string, string> = {}) {
  const form = new FormData();
  form.append("file", file);
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const response = await fetch(server.url + path, { method: "POST", headers: { cookie, prefer: "respond-async" }, body: form });
  const body = (await response.json()) as { id: number };
  if (response.status !== 202) throw new Error(`${path} answered ${response.status}: ${JSON.stringify(body)}`);
  if (process.env.STALL_TRACE) console.log(`  the upload of ${(file.size / 1048576).toFixed(1)} MiB was answered at ${traceMoment()}`);
  return body.id;
}

/** A PNG signature followed by incompressible bytes, as big as a small photo. */
function fakePng(seed: number, size = 20 * 1024): Uint8Array {
  const bytes = new Uint8Array(size);
  let x = (seed * 2654435761) >>> 0 || 1;
  for (let i = 0; i < bytes.length; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    bytes[i] = x & 0xff;
  }
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 0);
  return bytes;
}

async function vault(notes: number): Promise<Uint8Array<ArrayBuffer>> {
  const zip = new JSZip();
  const folders = 50;
  zip.file("Stall/__index.md", "# Stall\n\nA generated vault.\n");
  for (let i = 0; i < notes - 1; i++) {
    const folder = `Folder ${i % folders}`;
    const image = i % 10 === 0 ? `\n![[n${i}.png]]\n` : "";
    if (image) zip.file(`Stall/${folder}/n${i}.png`, fakePng(i));
    zip.file(
      `Stall/${folder}/note ${i}.md`,
      `---\ntags: [bench]\n---\n# note ${i}\n\n${"Some words about this note. ".repeat(10)}\n\nSee [[note ${(i + 7) % (notes - 1)}]].\n${image}`,
    );
  }
  return (await zip.generateAsync({ type: "uint8array", compression: "DEFLATE" })) as Uint8Array<ArrayBuffer>;
}

function deck(count: number): Promise<Uint8Array<ArrayBuffer>> {
  const crt = Math.floor((Date.now() - 400 * DAY_MS) / 1000);
  const notes: FixtureNote[] = [];
  for (let i = 0; i < count; i++) {
    const id = 1000 + i;
    notes.push({
      id,
      type: "Basic",
      deck: i % 2 ? "Languages::Spanish" : "Science",
      fields: [`<div>Question ${i}</div>`, `<div>Answer ${i}: ${"some words ".repeat(10)}</div>`],
      tags: "bench",
      cards: [
        {
          id: id * 10,
          type: 2,
          queue: 2,
          due: 400 + (i % 30),
          ivl: 20,
          reps: 8,
          reviews: Array.from({ length: 8 }, (_, r) => ({
            at: (crt + (300 + r * 10) * 86_400) * 1000 + i,
            ease: r === 3 ? 1 : 3,
            ivl: r * 3,
            type: 1,
          })),
        },
      ],
    });
  }
  return ankiPackage({ crt, reviewDue: 0, notes, creationOffset: 0, localOffset: 0 }, "anki21b");
}

/** Grows the database with note text until the file holds about `bytes` (the backup's subject). */
function growDatabase(dataDir: string, bytes: number) {
  const db = new Database(join(dataDir, "engram.db"));
  db.run("PRAGMA busy_timeout = 10000");
  const notebook = db.query<{ id: number; head: number }, []>("SELECT id, head_note_id AS head FROM notebooks ORDER BY id LIMIT 1").get()!;
  const now = Date.now();
  const filler = "A paragraph of note text that fills the database for the backup bench. ".repeat(40);
  const insert = db.query(
    "INSERT INTO notes (notebook_id, parent_id, title, details, sibling_order, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
  );
  for (let round = 0; round < 200; round++) {
    const size = db.query<{ n: number }, []>("SELECT page_count * page_size AS n FROM pragma_page_count(), pragma_page_size()").get()!.n;
    if (size >= bytes) break;
    db.transaction(() => {
      for (let i = 0; i < 5000; i++)
        insert.run(notebook.id, notebook.head, `filler ${round}-${i}`, `${filler}${round}-${i}`, 1_000_000 + round * 5000 + i, now, now);
    })();
  }
  db.run("PRAGMA wal_checkpoint(TRUNCATE)");
  const size = db.query<{ n: number }, []>("SELECT page_count * page_size AS n FROM pragma_page_count(), pragma_page_size()").get()!.n;
  db.close();
  return size;
}

// ---------------------------------------------------------------------------------------------
// The report

interface Phase {
  name: string;
  probe: ProbeResult;
  seconds?: number;
  notesPerSecond?: number;
  serverPeakMiB?: number;
  workerPeakMiB?: number;
  detail?: string;
}

function printPhases(idle: ProbeResult, phases: Phase[], reporter: Reporter) {
  const cells = [10, 9, 9, 12, 9, 11, 12, 12, 0];
  const line = (row: string[]) => row.map((cell, i) => (i === 0 ? cell.padEnd(cells[i]!) : cell.padStart(cells[i]!))).join("  ");
  console.log(
    line([
      "work",
      "probe p99",
      "worst ms",
      "worst/idle",
      "seconds",
      "notes/s",
      "server MiB",
      "worker MiB",
      `goal: worst ≤ ${WORST_PROBE_GOAL_MS} ms`,
    ]),
  );
  const f = (n: number | undefined, digits = 1) => (n === undefined || !Number.isFinite(n) ? "-" : n.toFixed(digits));
  console.log(line(["idle", f(idle.p99Ms), f(idle.worstMs), "1.0", "-", "-", "-", "-", ""]));
  for (const phase of phases) {
    const met = phase.probe.worstMs <= WORST_PROBE_GOAL_MS && phase.probe.errors === 0;
    console.log(
      line([
        phase.name,
        f(phase.probe.p99Ms),
        f(phase.probe.worstMs),
        f(phase.probe.worstMs / idle.worstMs),
        f(phase.seconds),
        f(phase.notesPerSecond, 0),
        f(phase.serverPeakMiB, 0),
        f(phase.workerPeakMiB, 0),
        `${met ? "ok" : "MISSED"}${phase.probe.errors ? ` (${phase.probe.errors} probe errors)` : ""}`,
      ]),
    );
    if (phase.detail) console.log(`    ${phase.detail}`);
    goal(reporter, `probe's worst latency during ${phase.name} ≤ ${WORST_PROBE_GOAL_MS} ms (${f(phase.probe.worstMs)} ms)`, met);
    const before = BEFORE_NOTES_PER_SECOND[phase.name as keyof typeof BEFORE_NOTES_PER_SECOND];
    if (before && phase.notesPerSecond !== undefined) {
      goal(
        reporter,
        `${phase.name} import at least as fast as before (${f(phase.notesPerSecond, 0)} ≥ ${before} notes/s)`,
        phase.notesPerSecond >= before,
      );
    }
  }
}

function goal(reporter: Reporter, label: string, met: boolean) {
  reporter.rows.push({
    label,
    result: { requests: 1, errors: 0, seconds: 0, rps: Number.NaN, p50Ms: Number.NaN, p99Ms: Number.NaN },
    goalMet: met,
  });
  if (!met) console.log(`    MISSED: ${label}`);
}

const serverPeak = (server: ServerHandle) => kib(server.pid, "VmHWM") / 1024;

export const stall: Bench = {
  name: "stall",
  description: "probe latency while a vault, a deck, statistics and a backup are worked on; statistics against a page",
  async run({ reporter, settings }) {
    reporter.section("stall: a probe every 25 ms (healthcheck, then the signed-in home page) while long work runs");
    const server = await startEngram();
    try {
      const cookie = await signIn(server, "old_learner");
      const adminCookie = await signIn(server, "admin");
      const created = await fetch(`${server.url}/api/notebooks/create`, {
        method: "POST",
        headers: { cookie, "content-type": "application/json" },
        body: JSON.stringify({ newTitle: "Stall" }),
      });
      const { noteId } = (await created.json()) as { noteId: number };
      const notebookId = (
        (await (await fetch(`${server.url}/api/notes/${noteId}`, { headers: { cookie } })).json()) as { notebook: { id: number } }
      ).notebook.id;

      const phases: Phase[] = [];
      const measure = async (
        name: string,
        work: () => Promise<Omit<Phase, "name" | "probe" | "seconds" | "serverPeakMiB" | "workerPeakMiB"> | undefined>,
      ) => {
        const workers = watchWorkers(server.pid);
        const probe = startProbe(server, cookie);
        const started = performance.now();
        const extra = await work();
        const seconds = (performance.now() - started) / 1000;
        phases.push({ name, probe: await probe(), seconds, serverPeakMiB: serverPeak(server), workerPeakMiB: workers(), ...extra });
      };

      // The idle probe, in the same run.
      const probe = startProbe(server, cookie);
      await Bun.sleep(3000);
      const idle = await probe();

      const vaultBytes = PHASES.has("obsidian") ? await vault(VAULT_NOTES) : undefined;
      if (vaultBytes)
        await measure("obsidian", async () => {
          const id = await startImport(server, cookie, `/api/notebooks/${notebookId}/obsidian`, new File([vaultBytes], "stall.zip"));
          const started = performance.now();
          const report = await waitForOperation(server, cookie, id);
          const seconds = (performance.now() - started) / 1000;
          return {
            notesPerSecond: VAULT_NOTES / seconds,
            detail: `${(vaultBytes.byteLength / 1048576).toFixed(1)} MiB zip: ${JSON.stringify({ created: report.created, links: report.links, embeddedFiles: report.attachments })}`,
          };
        });

      const deckBytes = PHASES.has("anki") ? await deck(DECK_NOTES) : undefined;
      if (deckBytes)
        await measure("anki", async () => {
          const id = await startImport(server, cookie, "/api/notebooks/anki", new File([deckBytes], "stall.apkg"), {
            withReviewState: "true",
          });
          const started = performance.now();
          const report = await waitForOperation(server, cookie, id);
          const seconds = (performance.now() - started) / 1000;
          return {
            notesPerSecond: DECK_NOTES / seconds,
            detail: `${(deckBytes.byteLength / 1048576).toFixed(1)} MiB deck: ${JSON.stringify({ created: report.created, trackers: report.trackers, reviews: report.reviews })}`,
          };
        });

      // 100,000 trackers and 1,000,000 reviews more for the statistics (written beside the server, not measured).
      const counts = PHASES.has("stats") ? seedStats(server.dataDir) : undefined;
      if (counts)
        await measure("stats", async () => {
          const stopAt = performance.now() + 5000;
          let reads = 0;
          while (performance.now() < stopAt) {
            for (const path of ["/api/stats?timezone=Europe/Berlin", "/d/stats"]) {
              const response = await fetch(server.url + path, { headers: { cookie } });
              await response.arrayBuffer();
              reads++;
            }
          }
          return { detail: `${reads} reads of /api/stats and /d/stats (${counts.trackers} trackers, ${counts.log} log rows)` };
        });

      const bytes = PHASES.has("backup") ? growDatabase(server.dataDir, 400 * 1024 * 1024) : 0;
      if (bytes)
        await measure("backup", async () => {
          const response = await fetch(`${server.url}/api/admin/backups`, { method: "POST", headers: { cookie: adminCookie } });
          const body = (await response.json()) as { backup?: { bytes: number; durationMs: number } };
          if (response.status !== 200) throw new Error(`the backup answered ${response.status}: ${JSON.stringify(body)}`);
          return {
            detail: `database ${(bytes / 1048576).toFixed(0)} MiB, snapshot ${((body.backup?.bytes ?? 0) / 1048576).toFixed(0)} MiB`,
          };
        });

      printPhases(idle, phases, reporter);
      if (!counts) return;

      // Statistics against a page, side by side (the same moments of the machine).
      const [home, apiStats, pageStats] = await sideBySide(
        [
          httpCall(`${server.url}/`, { cookie }),
          httpCall(`${server.url}/api/stats?timezone=Europe/Berlin`, { cookie }),
          httpCall(`${server.url}/d/stats`, { cookie }),
        ],
        settings,
      );
      const seconds = settings.durationMs / 1000;
      reporter.row("GET / (signed-in home page)", asLoadResult(home!, seconds));
      for (const [label, timed] of [
        ["GET /api/stats", apiStats!],
        ["GET /d/stats (page)", pageStats!],
      ] as const) {
        reporter.row(label, asLoadResult(timed, seconds));
        const ratio = timed.p50Ms / home!.p50Ms;
        console.log(
          `    p50 ${timed.p50Ms.toFixed(2)} ms = ${ratio.toFixed(2)}× the home page's ${home!.p50Ms.toFixed(2)} ms (goal ≤ ${STATS_TO_HOME_GOAL}×)`,
        );
        goal(reporter, `${label} p50 ≤ ${STATS_TO_HOME_GOAL}× the home page's (${ratio.toFixed(2)}×)`, ratio <= STATS_TO_HOME_GOAL);
      }
      // The first page after a review: the badges are counted again (the review changed them). It is
      // compared with the home page asked the same way (one request right after another) after a
      // request that changes nothing: a lone request costs more than one of a steady stream (the
      // home page's p50 above), whatever came before it.
      const due = (await (await fetch(`${server.url}/api/recalls/recalling?timezone=Europe/Berlin`, { headers: { cookie } })).json()) as {
        toRepeat: { memoryTrackerId: number }[];
      };
      const timedHome = async () => {
        const started = performance.now();
        await (await fetch(`${server.url}/`, { headers: { cookie } })).arrayBuffer();
        return performance.now() - started;
      };
      const afterReviews: number[] = [];
      const afterNothing: number[] = [];
      for (const { memoryTrackerId } of due.toRepeat.slice(0, AFTER_REVIEW_SAMPLES)) {
        const answered = await fetch(`${server.url}/api/memory-trackers/${memoryTrackerId}/mark-as-repeated?successful=true`, {
          method: "PATCH",
          headers: { cookie },
        });
        await answered.arrayBuffer();
        afterReviews.push(await timedHome());
        await (await fetch(`${server.url}/api/healthcheck`)).arrayBuffer();
        afterNothing.push(await timedHome());
      }
      const afterReview = percentile(Float64Array.from(afterReviews).sort(), 50);
      const control = percentile(Float64Array.from(afterNothing).sort(), 50);
      const ratio = afterReview / control;
      console.log(
        `    the first home page after a review: p50 ${afterReview.toFixed(2)} ms = ${ratio.toFixed(2)}× the home page after a request that changed nothing (${control.toFixed(2)} ms; ${afterReviews.length} of each)`,
      );
      goal(
        reporter,
        `the first page after a review ≤ ${STATS_TO_HOME_GOAL}× the page after no change (${ratio.toFixed(2)}×)`,
        ratio <= STATS_TO_HOME_GOAL,
      );
    } catch (error) {
      console.error(`The stall bench stopped: ${(error as Error).message}\nThe server's last output:\n${server.output().slice(-4000)}`);
      throw error;
    } finally {
      await server.stop();
    }
  },
};
