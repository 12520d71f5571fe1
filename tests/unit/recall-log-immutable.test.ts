import { expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../../src/db/connection";
import { migrate } from "../../src/db/migrate";

test("the recall log refuses updates: rows are written once and never edited", () => {
  const { sqlite } = openDatabase(join(mkdtempSync(join(tmpdir(), "engram-log-")), "engram.db"));
  migrate(sqlite);
  sqlite.run("INSERT INTO accounts (external_identifier, password_hash, admin, created_at) VALUES ('a', 'x', 0, 0)");
  sqlite.run("INSERT INTO users (account_id, name, created_at) VALUES (1, 'A', 0)");
  sqlite.run("INSERT INTO notebooks (creator_id, created_at, updated_at) VALUES (1, 0, 0)");
  sqlite.run("INSERT INTO notes (notebook_id, title, details, sibling_order, created_at, updated_at) VALUES (1, 'N', '', 0, 0, 0)");
  sqlite.run(`INSERT INTO memory_trackers (user_id, note_id, assimilated_at, last_recalled_at, next_recall_at) VALUES (1, 1, 0, 0, 0)`);
  sqlite.run(
    `INSERT INTO recall_log (memory_tracker_id, user_id, reviewed_at, kind, outcome, state_after) VALUES (1, 1, 0, 'self-review', 'success', '{}')`,
  );
  expect(() => sqlite.run("UPDATE recall_log SET outcome = 'failure'")).toThrow("the recall log is never edited");
  expect(sqlite.query("SELECT outcome FROM recall_log").get()).toEqual({ outcome: "success" });
  // The aggregates the statistics read were kept by the insert trigger.
  expect(sqlite.query("SELECT recalls, successes FROM recall_log_buckets").get()).toEqual({ recalls: 1, successes: 1 });
  expect(sqlite.query("SELECT successes, failures FROM recall_log_tracker_counts").get()).toEqual({ successes: 1, failures: 0 });
});
