/**
 * The memory store's statistics and lists and the notes store's reads by lists of ids, whose SQL
 * each database says its own way: the same rows written on both, the same answers expected.
 */
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { elapsedRatioAt } from "../../src/services/scheduling/fsrs";
import { all, run, type Session, type Step } from "../../src/store/session";
import { databaseUnderTestOfFile } from "../support/database-under-test";
import { note, notebook, tracker, user } from "./seed";

const under = databaseUnderTestOfFile();
const write = <T>(body: (s: Session) => Step<T>) => under.database.write(body);

const BUCKET = 900_000;
/** Where the default FSRS weights' recall probability falls to 70, 80, 90 and 95 %, as multiples of the stability. */
const DEFAULT_RATIOS = [0.7, 0.8, 0.9, 0.95].map((bound) => elapsedRatioAt({ weights: null }, bound));
const HOUR = 3_600_000;
/** A fixed "now", away from 0 so that times before it are positive. */
const NOW = 1_000 * HOUR;

function* review(s: Session, userId: number, trackerId: number, at: number, outcome: "success" | "failure"): Step<void> {
  yield* run(
    s,
    s.db.insert(s.t.recallLog).values({
      memoryTrackerId: trackerId,
      userId,
      reviewedAt: new Date(at),
      kind: "self-evaluation",
      outcome,
      stateAfter: "{}",
    }),
  );
}

function* linkNote(s: Session, notebookId: number, parentId: number, targetNoteId: number, title: string): Step<number> {
  const [row] = yield* all(
    s,
    s.db
      .insert(s.t.notes)
      .values({ notebookId, parentId, targetNoteId, title, siblingOrder: 4096, createdAt: new Date(NOW), updatedAt: new Date(NOW) })
      .returning({ id: s.t.notes.id }),
  );
  return row!.id;
}

/**
 * Ann's notebook "Ann's book": Alpha and Beta under the head, and under Alpha a link note "Alpha —
 * relates to — Beta". Trackers: Alpha (due in 30 min, assimilated an hour ago), Alpha's spelling
 * (due in 2 h, FSRS stability 3), Beta (due in 5 h, assimilated 3 days ago), the link (due in
 * 26 h). Reviews: Alpha fails twice and succeeds once, the link fails once, Beta succeeds once.
 */
async function world(name: string) {
  return write(function* (s) {
    const ann = yield* user(s, name);
    const book = yield* notebook(s, ann.userId, "Ann's book", NOW);
    const alpha = yield* note(s, book.notebookId, book.headNoteId, "Alpha", NOW, 1024);
    const beta = yield* note(s, book.notebookId, book.headNoteId, "Beta", NOW, 2048);
    const link = yield* linkNote(s, book.notebookId, alpha, beta, "relates to");
    const m = s.t.memoryTrackers;
    const tAlpha = yield* tracker(s, ann.userId, alpha, NOW + HOUR / 2, NOW - HOUR);
    const [spelling] = yield* all(
      s,
      s.db
        .insert(m)
        .values({
          userId: ann.userId,
          noteId: alpha,
          spelling: true,
          assimilatedAt: new Date(NOW - HOUR),
          lastRecalledAt: new Date(NOW - HOUR),
          nextRecallAt: new Date(NOW + 2 * HOUR),
          stability: 3,
        })
        .returning({ id: m.id }),
    );
    const tBeta = yield* tracker(s, ann.userId, beta, NOW + 5 * HOUR, NOW - 72 * HOUR);
    const tLink = yield* tracker(s, ann.userId, link, NOW + 26 * HOUR, NOW - 2 * HOUR);
    yield* review(s, ann.userId, tAlpha, NOW - 3 * HOUR, "failure");
    yield* review(s, ann.userId, tAlpha, NOW - 2 * HOUR, "failure");
    yield* review(s, ann.userId, tAlpha, NOW - 2 * HOUR + 60_000, "success");
    yield* review(s, ann.userId, tLink, NOW - HOUR, "failure");
    yield* review(s, ann.userId, tBeta, NOW - HOUR, "success");
    return { ann, book, alpha, beta, link, trackers: { alpha: tAlpha, spelling: spelling!.id, beta: tBeta, link: tLink } };
  });
}

describe("statistics", () => {
  test("forecast, heatmap, totals, retention, most failed and FSRS spreads are the same on both databases", async () => {
    const w = await world("stats-ann");
    const bucketOf = (ms: number) => Math.floor(ms / BUCKET);
    const rows = await under.stores.memory.statsPageRows(
      w.ann.userId,
      { dueBefore: bucketOf(NOW + 24 * HOUR), recallsFrom: bucketOf(NOW - 24 * HOUR), recallsBefore: bucketOf(NOW) + 1 },
      { at: NOW, ratios: DEFAULT_RATIOS },
    );
    // Forecast: the trackers due in the next 24 hours per bucket (the link's, in 26 h, is not).
    expect(rows.due.sort((a, b) => a.bucket - b.bucket)).toEqual([
      { bucket: bucketOf(NOW + HOUR / 2), n: 1 },
      { bucket: bucketOf(NOW + 2 * HOUR), n: 1 },
      { bucket: bucketOf(NOW + 5 * HOUR), n: 1 },
    ]);
    // Heatmap: recalls and successes per bucket.
    expect(rows.recalls.sort((a, b) => a.bucket - b.bucket)).toEqual([
      { bucket: bucketOf(NOW - 3 * HOUR), n: 1, s: 0 },
      { bucket: bucketOf(NOW - 2 * HOUR), n: 2, s: 1 },
      { bucket: bucketOf(NOW - HOUR), n: 2, s: 1 },
    ]);
    // Four active trackers, three of them not spelling; their mean interval (next - last).
    const intervals = [HOUR / 2 + HOUR, 2 * HOUR + HOUR, 5 * HOUR + 72 * HOUR, 26 * HOUR + 2 * HOUR];
    expect(rows.totals).toEqual({ active: 4, notes: 3, averageMs: intervals.reduce((a, b) => a + b) / 4 });
    expect(rows.retentionByNotebook).toEqual([{ notebookId: w.book.notebookId, title: "Ann's book", reviews: 5, successes: 2 }]);
    expect(rows.mostFailedNotes).toEqual([
      { noteId: w.alpha, title: "Alpha", failures: 2 },
      { noteId: w.link, title: "Alpha — relates to — Beta", failures: 1 },
    ]);
    // The spelling tracker's stability of 3 days; recalled an hour ago, it is above every bound.
    expect(rows.fsrs).toEqual({ stability: [0, 1, 0, 0, 0, 0], below: [0, 0, 0, 0] });
    const titles = await under.stores.memory.currentTitles([w.link, w.beta], [w.book.notebookId]);
    expect(titles.notes).toEqual(
      new Map([
        [w.link, "Alpha — relates to — Beta"],
        [w.beta, "Beta"],
      ]),
    );
    expect(titles.notebooks).toEqual(new Map([[w.book.notebookId, "Ann's book"]]));
  });

  test("a user who reviewed nothing counts zeros", async () => {
    const bob = await write((s) => user(s, "stats-bob"));
    const rows = await under.stores.memory.statsPageRows(
      bob.userId,
      { dueBefore: 10, recallsFrom: 0, recallsBefore: 10 },
      { at: NOW, ratios: DEFAULT_RATIOS },
    );
    expect(rows).toEqual({
      due: [],
      recalls: [],
      totals: { active: 0, notes: 0, averageMs: 0 },
      retentionByNotebook: [],
      mostFailedNotes: [],
      fsrs: { stability: [0, 0, 0, 0, 0, 0], below: [0, 0, 0, 0] },
    });
  });
});

describe("recall and assimilation lists", () => {
  test("the due list and count take their bound as a time, and assimilation counts what came after `since`", async () => {
    const w = await world("lists-ann");
    const t = w.trackers;
    const inThreeHours = await under.stores.memory.recallList(w.ann.userId, new Date(NOW + 3 * HOUR), new Date(NOW + 3 * HOUR));
    expect(inThreeHours.due).toEqual([
      { id: t.alpha, spelling: false, noteId: w.alpha },
      { id: t.spelling, spelling: true, noteId: w.alpha },
    ]);
    expect(inThreeHours.dueCount).toBe(2);
    expect(inThreeHours.activeTrackers).toBe(4);
    const counted = await under.stores.memory.recallList(w.ann.userId, null, new Date(NOW + 30 * HOUR));
    expect(counted).toEqual({ due: null, dueCount: 4, activeTrackers: 4 });
    // Exactly at a tracker's time: due (<=).
    expect((await under.stores.memory.recallList(w.ann.userId, null, new Date(NOW + HOUR / 2))).dueCount).toBe(1);

    const plan = await under.stores.memory.assimilationPlan(w.ann.userId, {
      dailyCount: 10,
      since: new Date(NOW - 90 * 60_000),
      isToday: () => true,
      onlyTodaysTake: false,
    });
    // Alpha's two trackers (an hour ago) and the link's (2 h ago, before `since`: not counted).
    expect(plan.assimilatedCountOfTheDay).toBe(2);
    expect(plan.todayNoteIds).toEqual([w.alpha, w.alpha]);
  });
});

describe("assimilation with subscriptions", () => {
  test("a subscriber's plan and list take the subscribed notebook's notes within its daily target", async () => {
    const w = await world("subscribed-ann");
    const bob = await write(function* (s) {
      const bob = yield* user(s, "subscriber-bob");
      yield* run(
        s,
        s.db
          .insert(s.t.subscriptions)
          .values({ userId: bob.userId, notebookId: w.book.notebookId, dailyTargetOfNewNotes: 2, createdAt: new Date(NOW) }),
      );
      return bob;
    });
    const options = { dailyCount: 10, since: new Date(NOW - HOUR), isToday: () => true };
    const plan = await under.stores.memory.assimilationPlan(bob.userId, { ...options, onlyTodaysTake: false });
    // Head, Alpha, Beta and the link are Bob's candidates; his daily target takes two, in order.
    expect(plan).toEqual({
      assimilatedCountOfTheDay: 0,
      takes: [{ notebookId: w.book.notebookId, take: 2 }],
      ownTake: 0,
      dueCount: 2,
      totalUnassimilatedCount: 4,
      todayNoteIds: [],
    });
    expect(await under.stores.memory.assimilationList(bob.userId, options)).toEqual([w.alpha, w.beta]);
    // Ann's own: only the head note has no tracker.
    const own = await under.stores.memory.assimilationPlan(w.ann.userId, { ...options, onlyTodaysTake: true });
    expect([own.ownTake, own.totalUnassimilatedCount, own.dueCount]).toEqual([1, 1, 1]);
    expect(await under.stores.memory.assimilationList(w.ann.userId, options)).toEqual([w.book.headNoteId]);
  });
});

describe("notes by lists of ids", () => {
  test("notes by ids keep the asked order, counts of children and links, notes by title", async () => {
    const w = await world("notes-ann");
    const notes = under.stores.notes;
    expect((await notes.notesByIds([w.beta, 999_999, w.alpha])).map((n) => n.title)).toEqual(["Beta", "Alpha"]);
    const counts = await notes.childAndLinkCounts([w.book.headNoteId, w.alpha, w.beta]);
    expect(counts.get(w.book.headNoteId)).toEqual({ children: 2, links: 0 });
    expect(counts.get(w.alpha)).toEqual({ children: 1, links: 1 });
    expect(counts.get(w.beta)).toEqual({ children: 0, links: 0 });
    await write(function* (s) {
      yield* note(s, w.book.notebookId, w.book.headNoteId, "  alpha  ");
      yield* run(
        s,
        s.db
          .update(s.t.notes)
          .set({ deletedAt: new Date(NOW) })
          .where(eq(s.t.notes.id, w.beta)),
      );
    });
    const titled = await notes.notesTitled([w.book.notebookId], "ALPHA");
    expect(titled.map((found) => [found.note.title, found.notebookTitle])).toEqual([
      ["Alpha", "Ann's book"],
      ["  alpha  ", "Ann's book"],
    ]);
    expect(await notes.notesTitled([w.book.notebookId], "beta")).toEqual([]);
    expect((await notes.childAndLinkCounts([w.book.headNoteId])).get(w.book.headNoteId)).toEqual({ children: 2, links: 0 });
  });
});
