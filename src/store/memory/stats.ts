/**
 * The statistics' reads (memory store, see src/services/stats/stats.ts for the counting rules),
 * all from aggregates kept by triggers: buckets of due trackers and of recalls, the user's tracker
 * totals, the FSRS spreads, and the per-notebook and per-note recall counts. Grouped per 15-minute
 * bucket (every zone's offset is a multiple of 15 minutes), so the database never sends single
 * rows. The SQL that each
 * database says its own way is a body's two pieces: SQLite's date arithmetic on integer times,
 * `CROSS JOIN ... ON` to fix the join order and booleans summed as integers; PostgreSQL's
 * milliseconds from `timestamptz` (engram_ms), plain joins, `FILTER`, quoted camel-case aliases and
 * sums cast back to integers (a bigint or numeric would reach JavaScript as a string).
 */
import { and, asc, desc, eq, gt, gte, lt, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { all, byDialect, inJsonIds, one, prepared, rawAll, rawRun, run, type Session, type Step } from "../session";
import { recallableNotebook } from "../sharing/access";
import { BUCKET_MS } from "./buckets";

/** The recall log's hours. */
const HOUR_MS = 3_600_000;

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

/**
 * Recalls and successes per slot in [from, before): hours (recall_log_hours) when `spanMs` is an
 * hour, else 15-minute buckets (recall_log_buckets); both kept by the recall log's trigger. Up to
 * 35,040 rows a year: read as arrays on SQLite (mapping each row through the query builder cost as
 * much as reading it).
 */
export function* recallBuckets(
  s: Session,
  userId: number,
  from: number,
  before: number,
  spanMs: number = BUCKET_MS,
): Step<{ bucket: number; n: number; s: number }[]> {
  const { recallLogHours: h, recallLogBuckets: b } = s.t;
  const [table, slot, recalls, successes, user] =
    spanMs === HOUR_MS ? [h, h.hour, h.recalls, h.successes, h.userId] : [b, b.bucket, b.recalls, b.successes, b.userId];
  const query = sql`SELECT ${slot} AS bucket, ${recalls} AS n, ${successes} AS s FROM ${table}
    WHERE ${user} = ${userId} AND ${slot} >= ${from} AND ${slot} < ${before}`;
  return yield* byDialect(s, {
    sqlite: function* (): Step<{ bucket: number; n: number; s: number }[]> {
      return s.db.values<[number, number, number]>(query).map(([bucket, n, successes]) => ({ bucket, n, s: successes }));
    },
    postgres: () => rawAll<{ bucket: number; n: number; s: number }>(s, query),
  });
}

/**
 * The user's active trackers, their notes (a note has at most one normal tracker) and their mean
 * interval in ms, from user_tracker_counts (kept by triggers on memory_trackers).
 */
export function* trackerTotals(s: Session, userId: number): Step<{ active: number; notes: number; averageMs: number }> {
  const c = s.t.userTrackerCounts;
  const row = yield* one(
    s,
    s.db.select({ active: c.activeTrackers, notes: c.activeNotes, intervalMs: c.intervalMs }).from(c).where(eq(c.userId, userId)),
  );
  if (!row?.active) return { active: 0, notes: 0, averageMs: 0 };
  return { active: row.active, notes: row.notes, averageMs: row.intervalMs / row.active };
}

const DAY_MS = 86_400_000;
/** Far beyond any crossing that can come (ratios that are not finite are stored as this). */
const NEVER_RATIO = 1e6;

/** What the FSRS spreads count: active trackers per stability bucket, and those below each recall-probability bound. */
export interface FsrsSpreads {
  /** Trackers under 1, 7, 30, 90, 365 days of stability, and the rest. */
  stability: number[];
  /** Trackers below 70 %, 80 %, 90 % and 95 % (each includes the ones below the lower bounds). */
  below: number[];
}

/** A ratio as the crossings store it: one that is not finite never comes (or came at once). */
export const storedRatio = (ratio: number) => (Number.isNaN(ratio) ? NEVER_RATIO : Math.max(-NEVER_RATIO, Math.min(NEVER_RATIO, ratio)));

/** Whether the ratios the crossings were counted with (retrievability_ratios: the user's own, or else the defaults') are `ratios`. */
function* crossingsCountedWith(s: Session, userId: number, ratios: number[]): Step<boolean> {
  const stored = yield* rawAll<{ bound: number; ratio: number }>(
    s,
    sql`SELECT bound, ratio FROM retrievability_ratios WHERE user_id = ${userId} ORDER BY bound`,
  );
  // Compared to 12 digits: SQLite may read a decimal literal back one unit in the last place off.
  return (
    stored.length === ratios.length &&
    stored.every((row, i) => row.bound === i && Math.abs(row.ratio - storedRatio(ratios[i]!)) <= 1e-12 * Math.abs(row.ratio))
  );
}

/**
 * The FSRS spreads at the start of the quarter hour holding `at`, from tracker_stability_buckets
 * and retrievability_crossings (kept by triggers on memory_trackers): a tracker is below a bound
 * once its crossing is past, so the count is the crossings of the days before that day plus the
 * quarters of that day before it. Null when the crossings were counted with other ratios than
 * `ratios` (the user's weights changed since): rebuildCrossings, then ask again.
 */
export function* fsrsSpreads(s: Session, userId: number, at: number, ratios: number[]): Step<FsrsSpreads | null> {
  if (!(yield* crossingsCountedWith(s, userId, ratios))) return null;
  const { trackerStabilityBuckets: b, retrievabilityCrossings: x } = s.t;
  const stability = [0, 0, 0, 0, 0, 0];
  for (const row of yield* all(s, s.db.select({ bucket: b.bucket, n: b.trackers }).from(b).where(eq(b.userId, userId))))
    stability[row.bucket] = (stability[row.bucket] ?? 0) + row.n;
  const quarter = Math.floor(at / BUCKET_MS);
  const day = Math.floor((quarter * BUCKET_MS) / DAY_MS);
  const crossed = (span: number, from: number | null, before: number) =>
    all(
      s,
      s.db
        .select({ bound: x.bound, n: sql<number>`sum(${x.trackers})`.mapWith(Number) })
        .from(x)
        .where(and(eq(x.userId, userId), eq(x.spanMs, span), from === null ? undefined : gte(x.slot, from), lt(x.slot, before)))
        .groupBy(x.bound),
    );
  const below = ratios.map(() => 0);
  for (const row of [...(yield* crossed(DAY_MS, null, day)), ...(yield* crossed(BUCKET_MS, day * (DAY_MS / BUCKET_MS), quarter))])
    if (row.bound < below.length) below[row.bound]! += row.n;
  return { stability, below };
}

/**
 * Counts the user's crossings again with `ratios` (the user's weights changed): the ratios become
 * the user's own, and every active tracker with a stability is counted at each bound's crossing.
 */
export function* rebuildCrossings(s: Session, userId: number, ratios: number[]): Step<void> {
  const { retrievabilityThresholds: t, retrievabilityCrossings: x, memoryTrackers: m } = s.t;
  yield* run(s, s.db.delete(t).where(eq(t.userId, userId)));
  yield* run(s, s.db.insert(t).values(ratios.map((ratio, bound) => ({ userId, bound, ratio: storedRatio(ratio) }))));
  yield* run(s, s.db.delete(x).where(eq(x.userId, userId)));
  // The same arithmetic as the triggers' (migrations/*_statistics_aggregates.sql).
  yield* byDialect(s, {
    sqlite: () =>
      rawRun(
        s,
        sql`INSERT INTO ${x} (user_id, span_ms, slot, bound, trackers)
            SELECT ${m.userId}, sp.span_ms,
              floor(max(min(${m.lastRecalledAt} + ${t.ratio} * ${m.stability} * 86400000, 4e15), -4e15) / sp.span_ms) AS s, ${t.bound}, count(*)
            FROM ${m}, ${t}, (SELECT 900000 AS span_ms UNION ALL SELECT 86400000) sp
            WHERE ${m.userId} = ${userId} AND ${m.removedFromTracking} = 0 AND ${m.stability} > 0 AND ${t.userId} = ${userId}
            GROUP BY sp.span_ms, s, ${t.bound}`,
      ),
    postgres: () =>
      rawRun(
        s,
        sql`INSERT INTO ${x} (user_id, span_ms, slot, bound, trackers)
            SELECT ${m.userId}, c.span_ms, c.slot, c.bound, count(*)::int
            FROM ${m} CROSS JOIN LATERAL engram_crossing_slots(${m.userId}, ${m.lastRecalledAt}, ${m.stability}) c
            WHERE ${m.userId} = ${userId} AND NOT ${m.removedFromTracking}
            GROUP BY ${m.userId}, c.span_ms, c.slot, c.bound`,
      ),
  });
}

/**
 * Notes' titles as the statistics show them (a link note as its sentence, "subject — link type —
 * object"), in one prepared statement: the page reads them on every request.
 */
function* noteTitles(s: Session, noteIds: number[]): Step<Map<number, string>> {
  if (noteIds.length === 0) return new Map();
  const query = prepared(s, "stats-note-titles", () => {
    const n = s.t.notes;
    const subject = alias(n, "subject");
    const object = alias(n, "object");
    // Text concatenation (||) and LEFT JOIN say the same on both databases.
    return s.db
      .select({
        id: n.id,
        title: sql<string>`CASE WHEN ${n.targetNoteId} IS NULL THEN ${n.title}
          ELSE ${subject.title} || ' — ' || ${n.title} || ' — ' || ${object.title} END`,
      })
      .from(n)
      .leftJoin(subject, eq(subject.id, n.parentId))
      .leftJoin(object, eq(object.id, n.targetNoteId))
      .where(inJsonIds(s, n.id));
  });
  const rows = yield* all(s, query, { ids: JSON.stringify(noteIds) });
  return new Map(rows.map((row) => [row.id, row.title]));
}

/** The titles of notebooks' head notes, by notebook, in one prepared statement. */
function* headTitles(s: Session, notebookIds: number[]): Step<Map<number, string>> {
  if (notebookIds.length === 0) return new Map();
  const query = prepared(s, "stats-head-titles", () => {
    const { notebooks: nb, notes: n } = s.t;
    return s.db.select({ id: nb.id, title: n.title }).from(nb).innerJoin(n, eq(n.id, nb.headNoteId)).where(inJsonIds(s, nb.id));
  });
  const rows = yield* all(s, query, { ids: JSON.stringify(notebookIds) });
  return new Map(rows.map((row) => [row.id, row.title]));
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
 * recall_log_notebook_counts (kept by triggers): a row per notebook, not every tracker joined to its note.
 */
export function* retentionByNotebook(s: Session, userId: number): Step<NotebookRetention[]> {
  const { recallLogNotebookCounts: g, notes: n, notebooks: nb } = s.t;
  const reviews = sql<number>`${g.successes} + ${g.failures}`;
  return yield* all(
    s,
    s.db
      .select({ notebookId: nb.id, title: n.title, reviews, successes: g.successes })
      .from(g)
      .crossJoin(nb)
      .innerJoin(n, eq(n.id, nb.headNoteId))
      .where(and(eq(nb.id, g.notebookId), eq(g.userId, userId), gt(reviews, 0), recallableNotebook(s, nb, userId)))
      .orderBy(desc(reviews), asc(nb.id))
      .limit(20),
  );
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

/**
 * The slots the statistics read: due trackers before a 15-minute bucket, recalls in [from, before)
 * slots of `recallSpanMs` (an hour or, by default, 15 minutes).
 */
export interface StatsBuckets {
  dueBefore: number;
  recallsFrom: number;
  recallsBefore: number;
  recallSpanMs?: number;
}

/** What GET /api/stats counts, in one snapshot (buckets of 15 minutes, as numbers). */
export function* statsRows(s: Session, userId: number, buckets: StatsBuckets): Step<StatsRows> {
  return {
    due: yield* dueBuckets(s, userId, buckets.dueBefore),
    recalls: yield* recallBuckets(s, userId, buckets.recallsFrom, buckets.recallsBefore, buckets.recallSpanMs),
    totals: yield* trackerTotals(s, userId),
  };
}

export interface StatsPageRows extends StatsRows {
  retentionByNotebook: NotebookRetention[];
  mostFailedNotes: { noteId: number; title: string; failures: number }[];
  /** Null unless asked (FSRS users), or when the crossings were counted with other ratios (see fsrsSpreads). */
  fsrs: FsrsSpreads | null;
}

/**
 * What the statistics page counts, in one snapshot; `fsrs` asks the FSRS spreads at a time with
 * the user's ratios of each recall-probability bound.
 */
export function* statsPageRows(
  s: Session,
  userId: number,
  buckets: StatsBuckets,
  fsrs: { at: number; ratios: number[] } | null,
): Step<StatsPageRows> {
  return {
    ...(yield* statsRows(s, userId, buckets)),
    retentionByNotebook: yield* retentionByNotebook(s, userId),
    mostFailedNotes: yield* mostFailedNotes(s, userId),
    fsrs: fsrs ? yield* fsrsSpreads(s, userId, fsrs.at, fsrs.ratios) : null,
  };
}
