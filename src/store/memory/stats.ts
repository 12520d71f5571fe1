/**
 * The statistics' reads (memory store, see src/services/stats/stats.ts for the counting rules):
 * buckets of due trackers and of recalls (kept by triggers), the user's tracker totals, FSRS states,
 * and the per-notebook and per-note recall counts. Grouped per 15-minute bucket (every zone's
 * offset is a multiple of 15 minutes), so the database never sends single rows. The SQL that each
 * database says its own way is a body's two pieces: SQLite's date arithmetic on integer times,
 * `CROSS JOIN ... ON` to fix the join order and booleans summed as integers; PostgreSQL's
 * milliseconds from `timestamptz` (engram_ms), plain joins, `FILTER`, quoted camel-case aliases and
 * sums cast back to integers (a bigint or numeric would reach JavaScript as a string).
 */
import { and, eq, gte, lt, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { all, byDialect, one, rawAll, type Session, type Step } from "../session";
import { recallableNotebook } from "../sharing/access";

/** Active trackers of undeleted notes per bucket of their next recall, before `endBucket`, in notebooks the user may still recall. */
export function* dueBuckets(s: Session, userId: number, endBucket: number): Step<{ bucket: number; n: number }[]> {
  const { trackerDueBuckets: b, notebooks: nb } = s.t;
  return yield* all(
    s,
    s.db
      .select({ bucket: b.bucket, n: sql<number>`sum(${b.trackers})`.mapWith(Number) })
      .from(b)
      .crossJoin(nb)
      .where(and(eq(nb.id, b.notebookId), eq(b.userId, userId), lt(b.bucket, endBucket), recallableNotebook(s, nb, userId)))
      .groupBy(b.bucket),
  );
}

/** Recalls and successes per bucket in [fromBucket, endBucket). */
export function* recallBuckets(
  s: Session,
  userId: number,
  fromBucket: number,
  endBucket: number,
): Step<{ bucket: number; n: number; s: number }[]> {
  const b = s.t.recallLogBuckets;
  return yield* all(
    s,
    s.db
      .select({ bucket: b.bucket, n: b.recalls, s: b.successes })
      .from(b)
      .where(and(eq(b.userId, userId), gte(b.bucket, fromBucket), lt(b.bucket, endBucket))),
  );
}

/** The user's active trackers, their notes (a note has at most one normal tracker) and their mean interval in ms. */
export function* trackerTotals(s: Session, userId: number): Step<{ active: number; notes: number; averageMs: number }> {
  const m = s.t.memoryTrackers;
  const row = yield* byDialect(s, {
    sqlite: () =>
      one(
        s,
        s.db
          .select({
            active: sql<number>`count(*)`,
            notes: sql<number | null>`sum(${m.spelling} = 0)`,
            average: sql<number | null>`avg(${m.nextRecallAt} - ${m.lastRecalledAt})`,
          })
          .from(m)
          .where(and(eq(m.userId, userId), eq(m.removedFromTracking, false))),
      ),
    postgres: () =>
      one(
        s,
        s.db
          .select({
            active: sql<number>`count(*)::int`,
            notes: sql<number | null>`(count(*) FILTER (WHERE NOT ${m.spelling}))::int`,
            average: sql<number | null>`avg(engram_ms(${m.nextRecallAt}) - engram_ms(${m.lastRecalledAt}))::float8`,
          })
          .from(m)
          .where(and(eq(m.userId, userId), eq(m.removedFromTracking, false))),
      ),
  });
  return { active: row?.active ?? 0, notes: row?.notes ?? 0, averageMs: row?.average ?? 0 };
}

/** Stability (days) and last recall (ms) of the user's active FSRS trackers, as arrays (100,000 of them read fast). */
export function* fsrsStates(s: Session, userId: number): Step<[number, number | null][]> {
  const m = s.t.memoryTrackers;
  return yield* byDialect(s, {
    // biome-ignore lint/correctness/useYield: SQLite answers values() at once; there is nothing to wait for
    sqlite: function* (): Step<[number, number | null][]> {
      return s.db.values<[number, number | null]>(
        sql`SELECT ${m.stability}, ${m.lastRecalledAt} FROM ${m}
            WHERE ${m.userId} = ${userId} AND ${m.removedFromTracking} = 0 AND ${m.stability} IS NOT NULL`,
      );
    },
    postgres: function* (): Step<[number, number | null][]> {
      const rows = yield* rawAll<{ stability: number; at: number | null }>(
        s,
        sql`SELECT ${m.stability} AS stability, engram_ms(${m.lastRecalledAt})::float8 AS at FROM ${m}
            WHERE ${m.userId} = ${userId} AND NOT ${m.removedFromTracking} AND ${m.stability} IS NOT NULL`,
      );
      return rows.map((row) => [row.stability, row.at]);
    },
  });
}

/** A note's title as the statistics show it: a link note as its sentence, "subject — link type — object". */
function* noteTitles(s: Session, noteIds: number[]): Step<Map<number, string>> {
  const n = s.t.notes;
  const subject = alias(n, "subject");
  const object = alias(n, "object");
  const titles = new Map<number, string>();
  for (const id of noteIds) {
    // Text concatenation (||) and LEFT JOIN say the same on both databases.
    const row = yield* rawAll<{ title: string }>(
      s,
      sql`SELECT CASE WHEN ${n.targetNoteId} IS NULL THEN ${n.title}
                 ELSE ${subject.title} || ' — ' || ${n.title} || ' — ' || ${object.title} END AS title
          FROM ${n} LEFT JOIN ${n} AS ${subject} ON ${subject.id} = ${n.parentId}
            LEFT JOIN ${n} AS ${object} ON ${object.id} = ${n.targetNoteId}
          WHERE ${n.id} = ${id}`,
    );
    if (row[0]) titles.set(id, row[0].title);
  }
  return titles;
}

/** The titles of notebooks' head notes, by notebook. */
function* headTitles(s: Session, notebookIds: number[]): Step<Map<number, string>> {
  const { notebooks: nb, notes: n } = s.t;
  const titles = new Map<number, string>();
  for (const id of notebookIds) {
    const row = yield* one(s, s.db.select({ title: n.title }).from(nb).innerJoin(n, eq(n.id, nb.headNoteId)).where(eq(nb.id, id)));
    if (row) titles.set(id, row.title);
  }
  return titles;
}

/** The titles shown now (a title edit does not change the learning version): notes' and notebooks' heads'. */
export function* currentTitles(
  s: Session,
  noteIds: number[],
  notebookIds: number[],
): Step<{ notes: Map<number, string>; notebooks: Map<number, string> }> {
  return { notes: yield* noteTitles(s, noteIds), notebooks: yield* headTitles(s, notebookIds) };
}

export interface NotebookRetention {
  notebookId: number;
  title: string;
  reviews: number;
  successes: number;
}

/**
 * Recalls and successes per notebook the user may still recall (most reviewed first, 20), from
 * recall_log_tracker_counts: summed per notebook first, then only those few notebooks are looked
 * up and checked, not one notebook lookup per tracker.
 */
export function* retentionByNotebook(s: Session, userId: number): Step<NotebookRetention[]> {
  const { recallLogTrackerCounts: c, memoryTrackers: m, notes: n, notebooks: nb } = s.t;
  const head = alias(n, "head");
  return yield* byDialect(s, {
    sqlite: () =>
      rawAll<NotebookRetention>(
        s,
        sql`SELECT ${nb.id} AS notebookId, ${head.title} AS title, g.reviews AS reviews, g.successes AS successes
            FROM (SELECT ${n.notebookId} AS notebookId, SUM(${c.successes} + ${c.failures}) AS reviews, SUM(${c.successes}) AS successes
                  FROM ${c}
                  CROSS JOIN ${m} ON ${m.id} = ${c.memoryTrackerId}
                  CROSS JOIN ${n} ON ${n.id} = ${m.noteId}
                  WHERE ${c.userId} = ${userId} GROUP BY ${n.notebookId}) g
            CROSS JOIN ${nb} ON ${nb.id} = g.notebookId
            JOIN ${n} AS ${head} ON ${head.id} = ${nb.headNoteId}
            WHERE ${recallableNotebook(s, nb, userId)}
            ORDER BY g.reviews DESC, ${nb.id} LIMIT 20`,
      ),
    postgres: () =>
      rawAll<NotebookRetention>(
        s,
        sql`SELECT ${nb.id} AS "notebookId", ${head.title} AS title, g.reviews::int AS reviews, g.successes::int AS successes
            FROM (SELECT ${n.notebookId} AS notebook_id, SUM(${c.successes} + ${c.failures}) AS reviews, SUM(${c.successes}) AS successes
                  FROM ${c}
                  JOIN ${m} ON ${m.id} = ${c.memoryTrackerId}
                  JOIN ${n} ON ${n.id} = ${m.noteId}
                  WHERE ${c.userId} = ${userId} GROUP BY ${n.notebookId}) g
            JOIN ${nb} ON ${nb.id} = g.notebook_id
            JOIN ${n} AS ${head} ON ${head.id} = ${nb.headNoteId}
            WHERE ${recallableNotebook(s, nb, userId)}
            ORDER BY g.reviews DESC, ${nb.id} LIMIT 20`,
      ),
  });
}

/**
 * The ten most failed notes the user may still recall (undeleted), named as the statistics name
 * them. The 100 most failed trackers (a range of the (user, failures) index) hold them: a note has
 * at most two trackers.
 */
export function* mostFailedNotes(s: Session, userId: number): Step<{ noteId: number; title: string; failures: number }[]> {
  const { recallLogTrackerCounts: c, memoryTrackers: m, notes: n, notebooks: nb } = s.t;
  const subject = alias(n, "subject");
  const object = alias(n, "object");
  return yield* byDialect(s, {
    sqlite: () =>
      rawAll<{ noteId: number; title: string; failures: number }>(
        s,
        sql`SELECT ${n.id} AS noteId, SUM(failed.failures) AS failures,
                   CASE WHEN ${n.targetNoteId} IS NULL THEN ${n.title}
                        ELSE ${subject.title} || ' — ' || ${n.title} || ' — ' || ${object.title} END AS title
            FROM (SELECT ${c.memoryTrackerId} AS trackerId, ${c.failures} AS failures FROM ${c}
                  WHERE ${c.userId} = ${userId} AND ${c.failures} > 0 ORDER BY ${c.failures} DESC LIMIT 100) failed
            CROSS JOIN ${m} ON ${m.id} = failed.trackerId
            CROSS JOIN ${n} ON ${n.id} = ${m.noteId}
            CROSS JOIN ${nb} ON ${nb.id} = ${n.notebookId}
            LEFT JOIN ${n} AS ${subject} ON ${subject.id} = ${n.parentId}
            LEFT JOIN ${n} AS ${object} ON ${object.id} = ${n.targetNoteId}
            WHERE ${n.deletedAt} IS NULL AND ${recallableNotebook(s, nb, userId)}
            GROUP BY ${n.id} ORDER BY failures DESC, ${n.id} LIMIT 10`,
      ),
    // PostgreSQL groups by the joined titles too (they follow from the note, but not by a key it knows).
    postgres: () =>
      rawAll<{ noteId: number; title: string; failures: number }>(
        s,
        sql`SELECT ${n.id} AS "noteId", SUM(failed.failures)::int AS failures,
                   CASE WHEN ${n.targetNoteId} IS NULL THEN ${n.title}
                        ELSE ${subject.title} || ' — ' || ${n.title} || ' — ' || ${object.title} END AS title
            FROM (SELECT ${c.memoryTrackerId} AS tracker_id, ${c.failures} AS failures FROM ${c}
                  WHERE ${c.userId} = ${userId} AND ${c.failures} > 0 ORDER BY ${c.failures} DESC LIMIT 100) failed
            JOIN ${m} ON ${m.id} = failed.tracker_id
            JOIN ${n} ON ${n.id} = ${m.noteId}
            JOIN ${nb} ON ${nb.id} = ${n.notebookId}
            LEFT JOIN ${n} AS ${subject} ON ${subject.id} = ${n.parentId}
            LEFT JOIN ${n} AS ${object} ON ${object.id} = ${n.targetNoteId}
            WHERE ${n.deletedAt} IS NULL AND ${recallableNotebook(s, nb, userId)}
            GROUP BY ${n.id}, ${subject.title}, ${object.title} ORDER BY 2 DESC, ${n.id} LIMIT 10`,
      ),
  });
}

export interface StatsRows {
  due: { bucket: number; n: number }[];
  recalls: { bucket: number; n: number; s: number }[];
  totals: { active: number; notes: number; averageMs: number };
}

/** What GET /api/stats counts, in one snapshot (buckets of 15 minutes, as numbers). */
export function* statsRows(
  s: Session,
  userId: number,
  buckets: { dueBefore: number; recallsFrom: number; recallsBefore: number },
): Step<StatsRows> {
  return {
    due: yield* dueBuckets(s, userId, buckets.dueBefore),
    recalls: yield* recallBuckets(s, userId, buckets.recallsFrom, buckets.recallsBefore),
    totals: yield* trackerTotals(s, userId),
  };
}

export interface StatsPageRows extends StatsRows {
  retentionByNotebook: NotebookRetention[];
  mostFailedNotes: { noteId: number; title: string; failures: number }[];
  /** Null unless asked (FSRS users). */
  fsrsStates: [number, number | null][] | null;
}

/** What the statistics page counts, in one snapshot. */
export function* statsPageRows(
  s: Session,
  userId: number,
  buckets: { dueBefore: number; recallsFrom: number; recallsBefore: number },
  withFsrs: boolean,
): Step<StatsPageRows> {
  return {
    ...(yield* statsRows(s, userId, buckets)),
    retentionByNotebook: yield* retentionByNotebook(s, userId),
    mostFailedNotes: yield* mostFailedNotes(s, userId),
    fsrsStates: withFsrs ? yield* fsrsStates(s, userId) : null,
  };
}
