/**
 * The statistics bench: a user with 100,000 memory trackers and 1,000,000 recall_log
 * rows over the past year.
 *
 *   GET /api/stats?timezone=Europe/Berlin   forecast, history, retention by week, totals
 *   GET /d/stats                            the whole server-rendered page (plus per notebook,
 *                                           most failed notes, FSRS spreads)
 *
 * Rows are written straight into the server's SQLite file, as the learning bench does.
 */
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { type Bench, load, signIn, startEngram } from "./harness";

const TRACKERS = 100_000;
const LOG_ROWS = 1_000_000;
const DAY_MS = 86_400_000;

export function seedStats(dataDir: string) {
  const db = new Database(join(dataDir, "engram.db"));
  db.run("PRAGMA busy_timeout = 10000");
  const user = db
    .query<{ id: number }, []>(
      "SELECT u.id FROM users u JOIN accounts a ON a.id = u.account_id WHERE a.external_identifier = 'old_learner'",
    )
    .get()!;
  const now = Date.now();
  db.transaction(() => {
    const notebook = db
      .query<{ id: number }, [number, number, number]>(
        "INSERT INTO notebooks (creator_id, created_at, updated_at) VALUES (?, ?, ?) RETURNING id",
      )
      .get(user.id, now, now)!;
    const head = db
      .query<{ id: number }, [number, number, number]>(
        "INSERT INTO notes (notebook_id, title, details, sibling_order, created_at, updated_at) VALUES (?, 'Head', '', 0, ?, ?) RETURNING id",
      )
      .get(notebook.id, now, now)!;
    db.run("UPDATE notebooks SET head_note_id = ? WHERE id = ?", [head.id, notebook.id]);
    db.run(
      `WITH RECURSIVE seq(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM seq WHERE i < ?)
       INSERT INTO notes (notebook_id, parent_id, title, details, sibling_order, created_at, updated_at)
       SELECT ?, ?, 'Note ' || i, '', i * 1024, ? + i, ? + i FROM seq`,
      [TRACKERS, notebook.id, head.id, now - TRACKERS, now - TRACKERS],
    );
    // FSRS trackers due over the next 1,000 days (some overdue), stability 1..1000 days.
    db.run(
      `INSERT INTO memory_trackers (user_id, note_id, spelling, assimilated_at, last_recalled_at, next_recall_at,
         repetition_count, forgetting_curve_index, removed_from_tracking, stability, difficulty)
       SELECT ?1, id, 0, ?2 - 400 * ?3, ?2 - (id % 30) * ?3, ?2 + ((id % 1000) - 20) * ?3, 5, 150, 0, id % 1000 + 1, id % 9 + 1
       FROM notes WHERE notebook_id = ?4 AND id <> ?5`,
      [user.id, now, DAY_MS, notebook.id, head.id],
    );
    db.run("UPDATE users SET scheduler = 'fsrs' WHERE id = ?", [user.id]);
    const first = db.query<{ id: number }, [number]>("SELECT min(id) AS id FROM memory_trackers WHERE user_id = ?").get(user.id)!.id;
    // One million recalls spread over the past 365 days, one in eight failed.
    db.run(
      `WITH RECURSIVE seq(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM seq WHERE i < ?1)
       INSERT INTO recall_log (memory_tracker_id, user_id, reviewed_at, kind, outcome, scheduled_hours, elapsed_hours, state_before, state_after)
       SELECT ?2 + (i * 7919) % ?3, ?4, ?5 - (i * 31536) % (365 * ?6), 'self-review', CASE WHEN i % 8 = 0 THEN 'failure' ELSE 'success' END,
         24, 24, '{}', '{}' FROM seq`,
      [LOG_ROWS, first, TRACKERS, user.id, now, DAY_MS],
    );
  })();
  db.run("ANALYZE");
  // Fold the seed's WAL into the database file, as a long-running server's checkpoints would.
  db.run("PRAGMA wal_checkpoint(TRUNCATE)");
  const counts = db
    .query<{ trackers: number; log: number }, []>(
      "SELECT (SELECT count(*) FROM memory_trackers) AS trackers, (SELECT count(*) FROM recall_log) AS log",
    )
    .get()!;
  db.close();
  return counts;
}

export const stats: Bench = {
  name: "stats",
  description: "statistics for a user with 100,000 memory trackers and 1,000,000 review log rows",
  async run({ reporter, settings, baselines }) {
    await baselines();
    const server = await startEngram();
    try {
      const cookie = await signIn(server, "old_learner");
      const counts = seedStats(server.dataDir);
      const headers = { cookie };
      const check = (await (await fetch(`${server.url}/api/stats?timezone=Europe/Berlin`, { headers })).json()) as {
        history: { count: number }[];
        totals: { activeTrackers: number };
      };
      const recalls = check.history.reduce((n, d) => n + d.count, 0);
      if (check.totals.activeTrackers !== TRACKERS || recalls < LOG_ROWS * 0.99)
        throw new Error(`unexpected data: ${JSON.stringify(check.totals)}, ${recalls} recalls`);
      reporter.section(`statistics (${counts.trackers} trackers, ${counts.log} log rows)`);
      const pid = server.pid;
      for (const [label, path, minRatio] of [
        ["GET /api/stats", "/api/stats?timezone=Europe/Berlin", 0.002],
        // The page also renders the shell (menu badges) and passes over every tracker for the
        // per-notebook retention and the FSRS spreads.
        ["GET /d/stats (page)", "/d/stats", 0.0005],
      ] as const) {
        reporter.row(label, await load({ url: server.url + path, headers, pid }, settings), { against: "sqlite", minRatio });
      }
    } finally {
      await server.stop();
    }
  },
};
