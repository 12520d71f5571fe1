import { describe, expect, test } from "bun:test";
import { and, eq, isNull, sql } from "drizzle-orm";
import { all } from "../../src/store/session";
import { assimilate, travelTo } from "../support/learning";
import { injectNotes } from "../support/notes";
import { useTestServer } from "../support/server";
import { inRead, sqlRows } from "../support/test-database";

/** A forecast bucket: 15 minutes of next recalls. */
const BUCKET_MS = 900_000;

describe("GET /api/stats on a time-travelled history", () => {
  const server = useTestServer();

  test("forecast with backlog, history of recalls only, retention by week and totals, in the given time zone", async () => {
    const learner = await server.client().loginAs("old_learner");
    await travelTo(learner, 0, 8); // 1976-06-01 (a Tuesday) 08:00 UTC
    const ids = await injectNotes(learner, [{ Title: "A" }, { Title: "B" }, { Title: "C" }]);
    const [a] = await assimilate(learner, ids.A!);
    const [b] = await assimilate(learner, ids.B!);
    await assimilate(learner, ids.C!);
    await learner.patch(`/api/memory-trackers/${a!.id}/mark-as-repeated?successful=true`); // A: next day 1 08:00
    await learner.patch(`/api/memory-trackers/${b!.id}/mark-as-repeated?successful=false`); // B: next day 0 20:00
    await learner.post(`/api/memory-trackers/${b!.id}/self-evaluate`, { adjustment: 0 }); // not a recall
    await travelTo(learner, 2, 22); // 1976-06-03 22:00 UTC = 1976-06-04 07:00 in Tokyo
    await learner.patch(`/api/memory-trackers/${a!.id}/mark-as-repeated?successful=true`); // late: index 105, next in 12 h

    const utc = (await learner.get("/api/stats?timezone=UTC")).body;
    expect(Object.keys(utc).sort()).toEqual(["forecast", "history", "retentionByWeek", "totals"]);
    expect(utc.forecast).toHaveLength(30);
    expect(utc.forecast.slice(0, 3)).toEqual([
      { date: "1976-06-03", count: 2 }, // B and C, overdue since day 0: the backlog
      { date: "1976-06-04", count: 1 }, // A at 10:00
      { date: "1976-06-05", count: 0 },
    ]);
    expect(utc.history).toHaveLength(365);
    expect(utc.history.at(-1)).toEqual({ date: "1976-06-03", count: 1 });
    expect(utc.history.slice(-3).map((d: { count: number }) => d.count)).toEqual([2, 0, 1]);
    expect(utc.history[0].date).toBe("1975-06-05"); // 365 days, 1976 being a leap year
    expect(utc.retentionByWeek.at(-1)).toEqual({ weekStart: "1976-05-31", reviews: 3, successes: 2 });
    expect(utc.retentionByWeek.reduce((n: number, w: { reviews: number }) => n + w.reviews, 0)).toBe(3);
    // A 12 h; B 0 h (the self-evaluation rescheduled it from its last recall); C 0 h: 4 h on average.
    expect(utc.totals).toEqual({ notesAssimilated: 3, activeTrackers: 3, averageIntervalDays: 0.2 });

    const tokyo = (await learner.get("/api/stats?timezone=Asia/Tokyo")).body;
    expect(tokyo.history.slice(-4)).toEqual([
      { date: "1976-06-01", count: 2 },
      { date: "1976-06-02", count: 0 },
      { date: "1976-06-03", count: 0 },
      { date: "1976-06-04", count: 1 },
    ]);
    // In Tokyo it is already the 4th, and A's 10:00 UTC is 19:00 that day: all three are today's.
    expect(tokyo.forecast.slice(0, 2)).toEqual([
      { date: "1976-06-04", count: 3 },
      { date: "1976-06-05", count: 0 },
    ]);
  });

  test("a new user sees zeros; another user's reviews never count; bad zone 400, signed out 401", async () => {
    const learner = await server.client().loginAs("old_learner");
    const ids = await injectNotes(learner, [{ Title: "Mine" }]);
    const [mine] = await assimilate(learner, ids.Mine!);
    await learner.patch(`/api/memory-trackers/${mine!.id}/mark-as-repeated?successful=true`);
    const other = await server.client().loginAs("another_old_learner");
    const empty = (await other.get("/api/stats?timezone=Europe/Berlin")).body;
    expect(empty.history.every((d: { count: number }) => d.count === 0)).toBe(true);
    expect(empty.forecast.every((d: { count: number }) => d.count === 0)).toBe(true);
    expect(empty.totals).toEqual({ notesAssimilated: 0, activeTrackers: 0, averageIntervalDays: 0 });
    const bad = await learner.get("/api/stats?timezone=Mars/Olympus");
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toHaveProperty("timezone");
    expect((await server.client().get("/api/stats?timezone=Mars/Olympus")).status).toBe(401);
  });
});

describe("the forecast's counts kept by the database", () => {
  const server = useTestServer();

  /** The aggregate against a count over every tracker, per user, notebook and bucket. */
  async function aggregateAndRecount() {
    const byKey = (a: { key: string }, b: { key: string }) => a.key.localeCompare(b.key);
    const kept = (
      await sqlRows<{ user_id: number; notebook_id: number; bucket: number; trackers: number }>(
        server,
        sql`SELECT user_id, notebook_id, bucket, trackers FROM tracker_due_buckets WHERE trackers <> 0`,
      )
    )
      .map((row) => ({ key: `${row.user_id}/${row.notebook_id}/${row.bucket}`, n: row.trackers }))
      .sort(byKey);
    const active = await inRead(server, function* (s) {
      const { memoryTrackers: m, notes: n } = s.t;
      return yield* all(
        s,
        s.db
          .select({ userId: m.userId, notebookId: n.notebookId, nextRecallAt: m.nextRecallAt })
          .from(m)
          .innerJoin(n, eq(n.id, m.noteId))
          .where(and(eq(m.removedFromTracking, false), isNull(n.deletedAt))),
      );
    });
    const counts = new Map<string, number>();
    for (const { userId, notebookId, nextRecallAt } of active) {
      const key = `${userId}/${notebookId}/${Math.floor(nextRecallAt.getTime() / BUCKET_MS)}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    const counted = [...counts].map(([key, n]) => ({ key, n })).sort(byKey);
    return { kept, counted };
  }

  test("follows answers, removed trackers, deleted and restored notes and notes moved to another notebook", async () => {
    const learner = await server.client().loginAs("old_learner");
    await travelTo(learner, 0, 8);
    const ids = await injectNotes(learner, [
      { Title: "Biology" },
      { Title: "A", "Parent Title": "Biology" },
      { Title: "B", "Parent Title": "Biology" },
    ]);
    const other = await injectNotes(learner, [{ Title: "Chemistry" }, { Title: "C", "Parent Title": "Chemistry" }]);
    const [a] = await assimilate(learner, ids.A!);
    const [b] = await assimilate(learner, ids.B!);
    await assimilate(learner, other.C!);
    const due = async () => (await learner.get("/api/stats?timezone=UTC")).body.forecast.slice(0, 2).map((d: { count: number }) => d.count);
    expect(await due()).toEqual([3, 0]);
    let { kept, counted } = await aggregateAndRecount();
    expect(kept.length).toBeGreaterThan(0);
    expect(kept).toEqual(counted);

    await learner.patch(`/api/memory-trackers/${a!.id}/mark-as-repeated?successful=true`); // A moves to tomorrow
    expect(await due()).toEqual([2, 1]);
    await learner.post(`/api/memory-trackers/${b!.id}/remove`);
    expect(await due()).toEqual([1, 1]);
    expect((await learner.post(`/api/notes/${ids.A}/delete`)).status).toBe(200);
    expect(await due()).toEqual([1, 0]);
    expect((await learner.patch(`/api/notes/${ids.A}/undo-delete`)).status).toBe(200);
    expect(await due()).toEqual([1, 1]);
    ({ kept, counted } = await aggregateAndRecount());
    expect(kept).toEqual(counted);

    // A moved under Chemistry keeps counting, now in that notebook.
    expect((await learner.post(`/api/notes/move_after/${ids.A}/${other.Chemistry}/true`)).status).toBe(200);
    ({ kept, counted } = await aggregateAndRecount());
    expect(kept).toEqual(counted);
    expect(await due()).toEqual([1, 1]);
  });
});
