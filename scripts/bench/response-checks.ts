/**
 * What checking each answer against its response schema costs: two Engram servers with the same
 * data, one checking answers (ENGRAM_CHECK_RESPONSES=on, as tests run) and one not (off, as
 * production runs), on the hot routes:
 *
 *   GET /api/notes/{note}          the NoteRealm of a note with 1,000 children (its first 40) and of a leaf
 *   GET /api/recalls/recalling     200 memory trackers due now
 *   POST /api/notes/search         a literal search with 30 hits
 *
 * Each route is loaded on both servers in alternating slices (the machine's speed drifts), and the
 * table shows both with the server's CPU time per request; the line under them is what the check
 * adds. Both servers shape answers the same way (fields a schema does not name are left out); only
 * the check differs. No goal: the numbers decide the default.
 */
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { type Bench, type LoadResult, load, type ServerHandle, signIn, startEngram } from "./harness";

const CHILDREN = 1_000;
const GROUPS = 20;
const GROUP_SIZE = 100;
const DUE_NOW = 200;
const ROUNDS = 6;

/** Root, "Big" with 1,000 children, and 20 groups of 100 notes whose details the search finds. */
function notebook(): Record<string, string>[] {
  const rows: Record<string, string>[] = [{ Title: "Root" }, { Title: "Big", "Parent Title": "Root" }];
  for (let i = 0; i < CHILDREN; i++) rows.push({ Title: `Child ${i}`, "Parent Title": "Big", Details: `Details of child ${i}` });
  for (let g = 0; g < GROUPS; g++) {
    rows.push({ Title: `Group ${g}`, "Parent Title": "Root" });
    for (let i = 0; i < GROUP_SIZE; i++) {
      rows.push({ Title: `Group ${g} note ${i}`, "Parent Title": `Group ${g}`, Details: `A note about apples, number ${i}` });
    }
  }
  return rows;
}

/** The notes through the test hook, then 200 due trackers written straight into the server's SQLite file. */
async function seed(server: ServerHandle, cookie: string): Promise<Record<string, number>> {
  const injected = await fetch(`${server.url}/api/testability/inject_notes`, {
    method: "POST",
    headers: { cookie, "content-type": "application/json" },
    body: JSON.stringify({ externalIdentifier: "", circleName: null, noteTestData: notebook() }),
  });
  if (!injected.ok) throw new Error(`inject_notes failed: ${injected.status} ${await injected.text()}`);
  const ids = (await injected.json()) as Record<string, number>;
  const db = new Database(join(server.dataDir, "engram.db"));
  db.run("PRAGMA busy_timeout = 10000");
  const now = Date.now();
  db.run(
    `INSERT INTO memory_trackers (user_id, note_id, spelling, assimilated_at, last_recalled_at, next_recall_at,
       repetition_count, forgetting_curve_index, removed_from_tracking)
     SELECT n.id, notes.id, 0, ?1, ?1, ?2, 3, 130, 0
     FROM notes, (SELECT u.id FROM users u JOIN accounts a ON a.id = u.account_id WHERE a.external_identifier = 'old_learner') n
     WHERE notes.parent_id = ?3 ORDER BY notes.id LIMIT ?4`,
    [now - 2 * 86_400_000, now - 3_600_000, ids.Big!, DUE_NOW],
  );
  db.close();
  return ids;
}

/** Results of several slices as one: requests and CPU summed, the slices' median p50 and worst p99. */
function combine(results: LoadResult[]): LoadResult {
  const requests = results.reduce((sum, r) => sum + r.requests, 0);
  const seconds = results.reduce((sum, r) => sum + r.seconds, 0);
  const cpu = results.every((r) => r.cpuMicrosPerRequest !== undefined)
    ? results.reduce((sum, r) => sum + r.cpuMicrosPerRequest! * r.requests, 0) / requests
    : undefined;
  const p50s = results.map((r) => r.p50Ms).sort((a, b) => a - b);
  return {
    requests,
    errors: results.reduce((sum, r) => sum + r.errors, 0),
    seconds,
    rps: requests / seconds,
    p50Ms: p50s[Math.floor(p50s.length / 2)]!,
    p99Ms: Math.max(...results.map((r) => r.p99Ms)),
    firstError: results.find((r) => r.firstError)?.firstError,
    serverCpuPercent: results.every((r) => r.serverCpuPercent !== undefined)
      ? results.reduce((sum, r) => sum + r.serverCpuPercent! * r.seconds, 0) / seconds
      : undefined,
    cpuMicrosPerRequest: cpu,
  };
}

const percent = (on: number, off: number) => `${on >= off ? "+" : ""}${(((on - off) / off) * 100).toFixed(1)} %`;

export const responseChecks: Bench = {
  name: "responses",
  description: "the hot routes with and without checking each answer against its response schema",
  async run({ reporter, settings, baselines }) {
    await baselines();
    const checking = await startEngram({ ENGRAM_CHECK_RESPONSES: "on" });
    const unchecked = await startEngram({ ENGRAM_CHECK_RESPONSES: "off" });
    try {
      const servers = [checking, unchecked];
      const cookies = await Promise.all(servers.map((server) => signIn(server, "old_learner")));
      const ids = await seed(checking, cookies[0]!);
      const otherIds = await seed(unchecked, cookies[1]!);
      const due = (await (
        await fetch(`${checking.url}/api/recalls/recalling?timezone=UTC`, { headers: { cookie: cookies[0]! } })
      ).json()) as {
        toRepeat: unknown[];
      };
      if (due.toRepeat.length !== DUE_NOW) throw new Error(`expected ${DUE_NOW} due trackers, got ${due.toRepeat.length}`);

      const search = JSON.stringify({ searchKey: "apples", allMyNotebooksAndSubscriptions: true });
      const routes: { label: string; path: (ids: Record<string, number>) => string; body?: string }[] = [
        { label: `GET /api/notes/{note with ${CHILDREN} children}`, path: (i) => `/api/notes/${i.Big}` },
        { label: "GET /api/notes/{leaf}", path: (i) => `/api/notes/${i["Group 7 note 7"]}` },
        { label: `GET /api/recalls/recalling (${DUE_NOW} due)`, path: () => "/api/recalls/recalling?timezone=UTC" },
        { label: "POST /api/notes/search (30 hits)", path: () => "/api/notes/search", body: search },
      ];
      const slice = { ...settings, durationMs: settings.durationMs / ROUNDS, warmupMs: 200 };
      reporter.section("response checks: on (as tests run) and off (as production runs)");
      for (const route of routes) {
        const measured: LoadResult[][] = [[], []];
        for (let round = 0; round < ROUNDS; round++) {
          // Alternate which server goes first, so neither always meets the same moment.
          const order = round % 2 === 0 ? [0, 1] : [1, 0];
          for (const k of order) {
            const server = servers[k]!;
            const headers: Record<string, string> = { cookie: cookies[k]! };
            if (route.body) headers["content-type"] = "application/json";
            const url = server.url + route.path(k === 0 ? ids : otherIds);
            measured[k]!.push(await load({ url, headers, pid: server.pid, method: route.body ? "POST" : "GET", body: route.body }, slice));
          }
        }
        const [on, off] = measured.map(combine) as [LoadResult, LoadResult];
        reporter.row(`${route.label} checked`, on);
        reporter.row(`${route.label} unchecked`, off);
        const cpu =
          on.cpuMicrosPerRequest !== undefined && off.cpuMicrosPerRequest !== undefined
            ? `, server CPU per request ${percent(on.cpuMicrosPerRequest, off.cpuMicrosPerRequest)}`
            : "";
        console.log(`  checking changes: p50 ${percent(on.p50Ms, off.p50Ms)}, throughput ${percent(on.rps, off.rps)}${cpu}`);
      }
    } finally {
      await checking.stop();
      await unchecked.stop();
    }
  },
};
