/**
 * The statistics' aggregates (kept by triggers) against the same figures counted from the rows
 * themselves, after every kind of change a tracker, a note or the log goes through: answers,
 * removed and restored trackers, deleted, restored, moved and removed notes, a deleted tracker, a
 * tracker moved to another note, and new FSRS weights. The same on both databases; and no
 * aggregate keeps rows that count nothing.
 */
import { describe, expect, test } from "bun:test";
import { and, eq, ne, sql } from "drizzle-orm";
import { elapsedRatioAt } from "../../src/services/scheduling/fsrs";
import { all, rawAll, run, type Session, type Step } from "../../src/store/session";
import { databaseUnderTestOfFile } from "../support/database-under-test";
import { note, notebook, user } from "./seed";

const under = databaseUnderTestOfFile();
const write = <T>(body: (s: Session) => Step<T>) => under.database.write(body);
const read = <T>(body: (s: Session) => Step<T>) => under.database.read(body);

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
const QUARTER = 900_000;
/** A fixed "now" well after 1970, in the middle of a quarter hour. */
const NOW = 20_000 * DAY + 7 * HOUR + 5 * MINUTE;
const BOUNDS = [0.7, 0.8, 0.9, 0.95];
const DEFAULT_RATIOS = BOUNDS.map((bound) => elapsedRatioAt({ weights: null }, bound));
const STABILITY_LIMITS = [1, 7, 30, 90, 365];

interface TrackerState {
  id: number;
  noteId: number;
  spelling: boolean;
  last: number;
  next: number;
  removed: boolean;
  stability: number | null;
}

function* trackerOf(s: Session, userId: number, noteId: number, state: Omit<TrackerState, "id" | "noteId">): Step<number> {
  const [row] = yield* all(
    s,
    s.db
      .insert(s.t.memoryTrackers)
      .values({
        userId,
        noteId,
        spelling: state.spelling,
        assimilatedAt: new Date(state.last - DAY),
        lastRecalledAt: new Date(state.last),
        nextRecallAt: new Date(state.next),
        removedFromTracking: state.removed,
        stability: state.stability,
      })
      .returning({ id: s.t.memoryTrackers.id }),
  );
  return row!.id;
}

/** An answer as the review store writes it: the tracker's new schedule and a log row, in one transaction. */
const answer = (userId: number, trackerId: number, at: number, outcome: "success" | "failure", next: number, stability: number) =>
  write(function* (s) {
    const m = s.t.memoryTrackers;
    yield* run(
      s,
      s.db
        .update(m)
        .set({ lastRecalledAt: new Date(at), nextRecallAt: new Date(next), stability })
        .where(eq(m.id, trackerId)),
    );
    yield* run(
      s,
      s.db
        .insert(s.t.recallLog)
        .values({ memoryTrackerId: trackerId, userId, reviewedAt: new Date(at), kind: "self-review", outcome, stateAfter: "{}" }),
    );
  });

/** The figures counted from the rows: what the aggregates must answer. */
function* countedFromRows(s: Session, userId: number, at: number, ratios: number[]) {
  const { memoryTrackers: m, notes: n, recallLogTrackerCounts: c } = s.t;
  const trackers = yield* all(
    s,
    s.db
      .select({
        id: m.id,
        spelling: m.spelling,
        last: m.lastRecalledAt,
        next: m.nextRecallAt,
        stability: m.stability,
        notebookId: n.notebookId,
      })
      .from(m)
      .innerJoin(n, eq(n.id, m.noteId))
      .where(and(eq(m.userId, userId), eq(m.removedFromTracking, false))),
  );
  const interval = trackers.reduce((sum, t) => sum + (t.next.getTime() - t.last.getTime()), 0);
  const totals = {
    active: trackers.length,
    notes: trackers.filter((t) => !t.spelling).length,
    averageMs: trackers.length ? interval / trackers.length : 0,
  };
  const fsrsTrackers = trackers.filter((t) => t.stability !== null);
  const stability = [0, 0, 0, 0, 0, 0];
  for (const t of fsrsTrackers) {
    const bucket = STABILITY_LIMITS.findIndex((limit) => t.stability! < limit);
    stability[bucket < 0 ? 5 : bucket]!++;
  }
  const quarterStart = Math.floor(at / QUARTER) * QUARTER;
  const below = ratios.map(
    (ratio) => fsrsTrackers.filter((t) => t.stability! > 0 && t.last.getTime() + ratio * t.stability! * DAY < quarterStart).length,
  );
  const counts = yield* all(
    s,
    s.db
      .select({ successes: c.successes, failures: c.failures, notebookId: n.notebookId })
      .from(c)
      .innerJoin(m, eq(m.id, c.memoryTrackerId))
      .innerJoin(n, eq(n.id, m.noteId))
      .where(eq(c.userId, userId)),
  );
  const byNotebook = new Map<number, { notebookId: number; reviews: number; successes: number }>();
  for (const row of counts) {
    const entry = byNotebook.get(row.notebookId) ?? { notebookId: row.notebookId, reviews: 0, successes: 0 };
    entry.reviews += row.successes + row.failures;
    entry.successes += row.successes;
    byNotebook.set(row.notebookId, entry);
  }
  const retention = [...byNotebook.values()]
    .filter((r) => r.reviews > 0)
    .sort((a, b) => b.reviews - a.reviews || a.notebookId - b.notebookId);
  return { totals, fsrs: { stability, below }, retention };
}

/** Rows of the aggregates that count nothing (there must be none). */
function* emptyRows(s: Session) {
  const { trackerDueBuckets: d, retrievabilityCrossings: x } = s.t;
  const due = yield* all(s, s.db.select({ bucket: d.bucket }).from(d).where(eq(d.trackers, 0)));
  const crossings = yield* all(s, s.db.select({ slot: x.slot }).from(x).where(eq(x.trackers, 0)));
  return { due: due.length, crossings: crossings.length };
}

async function expectAggregatesRight(userId: number, ratios = DEFAULT_RATIOS, at = NOW) {
  const expected = await read((s) => countedFromRows(s, userId, at, ratios));
  const rows = await under.stores.memory.statsPageRows(userId, { dueBefore: 0, recallsFrom: 0, recallsBefore: 0 }, { at, ratios });
  expect(rows.totals).toEqual(expected.totals);
  expect(rows.fsrs).toEqual(expected.fsrs);
  expect(rows.retentionByNotebook.map(({ notebookId, reviews, successes }) => ({ notebookId, reviews, successes }))).toEqual(
    expected.retention,
  );
  // The Recall badge's count (from the due buckets) against the due list (the trackers themselves), at several bounds.
  for (const until of [NOW - DAY, NOW, NOW + 10 * MINUTE, NOW + 2 * HOUR + 1, NOW + 40 * DAY]) {
    const listed = await under.stores.memory.recallList(userId, new Date(until), new Date(until));
    const counted = await under.stores.memory.recallList(userId, null, new Date(until));
    expect({ until, count: counted.dueCount }).toEqual({ until, count: listed.due!.length });
  }
  expect(await read(emptyRows)).toEqual({ due: 0, crossings: 0 });
}

describe("the statistics' aggregates", () => {
  test("stay what the rows count after answers, removals, deletions, moves and new weights", async () => {
    const ann = await write((s) => user(s, "agg-ann"));
    const first = await write((s) => notebook(s, ann.userId, "First"));
    const second = await write((s) => notebook(s, ann.userId, "Second"));
    const [alpha, beta, gamma, delta] = await write(function* (s) {
      const ids: number[] = [];
      for (const title of ["Alpha", "Beta", "Gamma"]) ids.push(yield* note(s, first.notebookId, first.headNoteId, title));
      ids.push(yield* note(s, second.notebookId, second.headNoteId, "Delta"));
      return ids as [number, number, number, number];
    });
    // Trackers: due long ago, due within this quarter hour (before and after now), due in the
    // coming days; stabilities spread over the buckets, one of 0 and a classic one (no stability).
    const t = await write(function* (s) {
      const at = (last: number, next: number, stability: number | null, spelling = false) => ({
        spelling,
        last,
        next,
        removed: false,
        stability,
      });
      return {
        alpha: yield* trackerOf(s, ann.userId, alpha, at(NOW - 30 * DAY, NOW - 20 * DAY, 2.5)),
        alphaSpelling: yield* trackerOf(s, ann.userId, alpha, at(NOW - 2 * DAY, NOW + 3 * MINUTE, 0.5, true)),
        beta: yield* trackerOf(s, ann.userId, beta, at(NOW - 400 * DAY, NOW - MINUTE, 40)),
        gamma: yield* trackerOf(s, ann.userId, gamma, at(NOW - 3 * HOUR, NOW + 5 * DAY, 0)),
        delta: yield* trackerOf(s, ann.userId, delta, at(NOW - 100 * DAY, NOW + 2 * HOUR, 500)),
        deltaSpelling: yield* trackerOf(s, ann.userId, delta, at(NOW - 10 * DAY, NOW + 30 * DAY, null, true)),
      };
    });
    await expectAggregatesRight(ann.userId);

    // Answers: the schedule moves, the log counts per notebook.
    await answer(ann.userId, t.alpha, NOW - 2 * HOUR, "failure", NOW + HOUR, 1.2);
    await answer(ann.userId, t.beta, NOW - HOUR, "success", NOW + 60 * DAY, 80);
    await answer(ann.userId, t.delta, NOW - 30 * MINUTE, "success", NOW + 200 * DAY, 900);
    await answer(ann.userId, t.delta, NOW - 20 * MINUTE, "failure", NOW + 4 * MINUTE, 300);
    await expectAggregatesRight(ann.userId);
    // Later, when more trackers have crossed their bounds.
    await expectAggregatesRight(ann.userId, DEFAULT_RATIOS, NOW + 45 * DAY);

    const setTracker = (id: number, values: Record<string, unknown>) =>
      write(function* (s) {
        yield* run(s, s.db.update(s.t.memoryTrackers).set(values).where(eq(s.t.memoryTrackers.id, id)));
      });
    const setNote = (id: number, values: Record<string, unknown>) =>
      write(function* (s) {
        yield* run(s, s.db.update(s.t.notes).set(values).where(eq(s.t.notes.id, id)));
      });

    // Removed from tracking, and back.
    await setTracker(t.beta, { removedFromTracking: true });
    await expectAggregatesRight(ann.userId);
    await setTracker(t.beta, { removedFromTracking: false });
    await expectAggregatesRight(ann.userId);

    // A note deleted (soft) and restored; a note moved to the other notebook.
    await setNote(alpha, { deletedAt: new Date(NOW) });
    await expectAggregatesRight(ann.userId);
    await setNote(alpha, { deletedAt: null });
    await expectAggregatesRight(ann.userId);
    await setNote(beta, { notebookId: second.notebookId });
    await expectAggregatesRight(ann.userId);

    // A tracker moved to another note, of the other notebook.
    await setTracker(t.alpha, { noteId: second.headNoteId });
    await expectAggregatesRight(ann.userId);

    // A tracker deleted; a note removed for good (its trackers go by cascade).
    await write((s) => run(s, s.db.delete(s.t.memoryTrackers).where(eq(s.t.memoryTrackers.id, t.gamma))));
    await expectAggregatesRight(ann.userId);
    await write((s) => run(s, s.db.delete(s.t.notes).where(eq(s.t.notes.id, delta))));
    await expectAggregatesRight(ann.userId);

    // New weights: counted with the old ratios, the spreads say so (null) until counted again.
    const ratios = DEFAULT_RATIOS.map((ratio) => ratio * 0.5);
    const stale = await under.stores.memory.statsPageRows(
      ann.userId,
      { dueBefore: 0, recallsFrom: 0, recallsBefore: 0 },
      { at: NOW, ratios },
    );
    expect(stale.fsrs).toBeNull();
    await under.stores.memory.rebuildCrossings(ann.userId, ratios);
    await expectAggregatesRight(ann.userId, ratios);
    // And the triggers go on with the user's own ratios.
    await answer(ann.userId, t.beta, NOW - 10 * MINUTE, "success", NOW + 90 * DAY, 120);
    await setTracker(t.alphaSpelling, { removedFromTracking: true });
    await expectAggregatesRight(ann.userId, ratios);
    await expectAggregatesRight(ann.userId, ratios, NOW + 100 * DAY);

    // Another user's trackers and reviews are never counted.
    const bob = await write((s) => user(s, "agg-bob"));
    const bobs = await write((s) => notebook(s, bob.userId, "Bob's"));
    const bobTracker = await write((s) =>
      trackerOf(s, bob.userId, bobs.headNoteId, { spelling: false, last: NOW - DAY, next: NOW, removed: false, stability: 1 }),
    );
    await answer(bob.userId, bobTracker, NOW - HOUR, "failure", NOW + DAY, 2);
    await expectAggregatesRight(ann.userId, ratios);
    await expectAggregatesRight(bob.userId);
    const others = await read((s) =>
      all(
        s,
        s.db
          .select()
          .from(s.t.recallLogNotebookCounts)
          .where(and(eq(s.t.recallLogNotebookCounts.userId, bob.userId), ne(s.t.recallLogNotebookCounts.notebookId, bobs.notebookId))),
      ),
    );
    expect(others).toEqual([]);
  });

  test("a user without weights of their own has the default weights' ratios, as the scheduler has them", async () => {
    const carl = await write((s) => user(s, "agg-carl"));
    const stored = await read((s) =>
      rawAll<{ bound: number; ratio: number }>(
        s,
        sql`SELECT bound, ratio FROM retrievability_ratios WHERE user_id = ${carl.userId} ORDER BY bound`,
      ),
    );
    expect(stored.map((row) => row.bound)).toEqual([0, 1, 2, 3]);
    for (const [i, row] of stored.entries()) expect(row.ratio).toBeCloseTo(DEFAULT_RATIOS[i]!, 12);
  });
});
