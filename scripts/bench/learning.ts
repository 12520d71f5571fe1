/**
 * The learning-loop bench: a user with 100,000 notes and 100,000 memory trackers.
 *
 *   GET /api/recalls/recalling       about 200 trackers due now among 100,000 (an index range scan)
 *   GET /api/recalls/overview        the badge counters
 *   GET /api/assimilation/assimilating  10 new notes left after 99,990 assimilated ones (worst case
 *                                    for the candidate search: every earlier note has a tracker)
 *   GET /api/assimilation/count      the assimilation counters
 *
 * Notes and trackers are written straight into the server's SQLite file (WAL lets the bench write
 * while the server runs): creating 100,000 of each through the API would take minutes.
 */
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { type Bench, load, signIn, startEngram } from "./harness";

const NOTES = 100_000;
const UNASSIMILATED = 10;
const DUE_NOW = 200;
const DAY_MS = 86_400_000;

function seed(dataDir: string) {
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
       SELECT ?, ?, 'Note ' || i, 'Details of note ' || i, i * 1024, ? + i, ? + i FROM seq`,
      [NOTES - 1, notebook.id, head.id, now - NOTES, now - NOTES],
    );
    // Trackers for every note but the last UNASSIMILATED; DUE_NOW of them due, the rest over 1,000 days.
    db.run(
      `INSERT INTO memory_trackers (user_id, note_id, spelling, assimilated_at, last_recalled_at, next_recall_at,
         repetition_count, forgetting_curve_index, removed_from_tracking)
       SELECT ?1, id, 0, ?2, ?2, CASE WHEN id % (?3 / ?4) = 0 THEN ?2 - 3600000 ELSE ?2 + (id % 1000 + 1) * ?5 END, 3, 130, 0
       FROM notes WHERE notebook_id = ?6 ORDER BY id LIMIT ?3 - ?7`,
      [user.id, now - 2 * DAY_MS, NOTES, DUE_NOW, DAY_MS, notebook.id, UNASSIMILATED],
    );
  })();
  const counts = db
    .query<{ notes: number; trackers: number }, []>(
      "SELECT (SELECT count(*) FROM notes) AS notes, (SELECT count(*) FROM memory_trackers) AS trackers",
    )
    .get()!;
  db.close();
  return counts;
}

export const learning: Bench = {
  name: "learning",
  description: "recall and assimilation lists for a user with 100,000 notes and 100,000 memory trackers",
  async run({ reporter, settings, baselines }) {
    await baselines();
    const server = await startEngram();
    try {
      const cookie = await signIn(server, "old_learner");
      const counts = seed(server.dataDir);
      const headers = { cookie };
      const check = (await (await fetch(`${server.url}/api/recalls/recalling?timezone=UTC`, { headers })).json()) as {
        toRepeat: unknown[];
      };
      const assimilating = (await (
        await fetch(`${server.url}/api/assimilation/assimilating?timezone=UTC`, { headers })
      ).json()) as unknown[];
      if (check.toRepeat.length < DUE_NOW / 2 || assimilating.length !== UNASSIMILATED) {
        throw new Error(`unexpected data: ${check.toRepeat.length} due, ${assimilating.length} to assimilate`);
      }
      reporter.section(`learning loop (${counts.notes} notes, ${counts.trackers} trackers; ${check.toRepeat.length} due)`);
      const pid = server.pid;
      for (const [label, path, minRatio] of [
        ["GET /api/recalls/recalling", "/api/recalls/recalling?timezone=UTC", 0.02],
        ["GET /api/recalls/overview", "/api/recalls/overview?timezone=UTC", 0.02],
        ["GET /api/assimilation/assimilating", "/api/assimilation/assimilating?timezone=UTC", 0.02],
        ["GET /api/assimilation/count", "/api/assimilation/count?timezone=UTC", 0.02],
      ] as const) {
        reporter.row(label, await load({ url: server.url + path, headers, pid }, settings), { against: "sqlite", minRatio });
      }
    } finally {
      await server.stop();
    }
  },
};
