/**
 * Wake-ups (src/store/wake-ups.ts): on PostgreSQL a write that other processes poll for sends a
 * NOTIFY from its own transaction, and another pool's listener hears it. On SQLite there are none
 * (the pollers keep their intervals). No timing: each test waits for its wake-up, and fails by the
 * test's time limit if it never comes.
 */
import { describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import type { PostgresDatabase } from "../../src/store/postgres-database";
import { rawRun } from "../../src/store/session";
import type { WakeTopic } from "../../src/store/wake-ups";
import { databaseUnderTestOfFile, postgresTestUrl } from "../support/database-under-test";

const under = databaseUnderTestOfFile();

/** Another pool on the same data, listening: answers (wrapped, so that awaiting this does not wait for it) the topic's next wake-up there. */
async function listenOnAnother(topic: WakeTopic): Promise<{ woken: Promise<WakeTopic> }> {
  const other = (await under.another()) as PostgresDatabase;
  const woken = new Promise<WakeTopic>((resolve) => {
    const stop = other.onWake(topic, () => {
      stop();
      resolve(topic);
    });
  });
  await other.wakeUps.listening();
  return { woken };
}

describe.skipIf(!postgresTestUrl())("wake-ups on PostgreSQL", () => {
  test("a run's state written through one pool wakes the AI-run watchers of another", async () => {
    const { woken } = await listenOnAnother("ai-runs");
    await under.stores.aiRuns.cancel(1, Date.now()); // no such run: the statement still says "look"
    expect(await woken).toBe("ai-runs");
  });

  test("a job queued through one pool wakes the job workers of another", async () => {
    const { woken } = await listenOnAnother("jobs");
    await under.stores.jobs.enqueue({ kind: "wake-up-test", payloads: ["{}"], runAt: Date.now(), dedupe: false }, Date.now());
    expect(await woken).toBe("jobs");
  });

  test("a note's text saved through one pool wakes the open notes' watchers of another", async () => {
    const { woken } = await listenOnAnother("note-revisions");
    await under.database.write((s) => rawRun(s, sql`UPDATE ${s.t.notes} SET ${sql.identifier("title")} = 'x' WHERE false`));
    expect(await woken).toBe("note-revisions");
  });

  test("a wake-up goes out with its transaction's commit: a rolled-back write sends none before a committed one", async () => {
    const other = (await under.another()) as PostgresDatabase;
    const heard: string[] = [];
    const committed = new Promise<void>((resolve) => {
      other.onWake("jobs", () => {
        heard.push("jobs");
        resolve();
      });
      other.onWake("ai-runs", () => heard.push("ai-runs"));
    });
    await other.wakeUps.listening();
    const rolledBack = under.database.write(function* (s) {
      yield* rawRun(s, sql`UPDATE ${s.t.aiRuns} SET ${sql.identifier("status")} = 'cancelled' WHERE false`);
      throw new Error("undone");
    });
    await expect(rolledBack).rejects.toThrow("undone");
    await under.stores.jobs.enqueue({ kind: "wake-up-test", payloads: ["{}"], runAt: Date.now(), dedupe: false }, Date.now());
    await committed;
    // Notifications arrive in commit order: had the rolled-back unit sent one, it would be first.
    expect(heard).toEqual(["jobs"]);
  });
});
