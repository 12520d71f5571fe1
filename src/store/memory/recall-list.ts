/**
 * The recall list's reads (memory store): the user's trackers due by a time, oldest due first, and
 * their count. Due: not removed, on undeleted notes of notebooks the user may still recall. One
 * range scan of the (user, removed, next recall) index: CROSS JOIN keeps SQLite starting from the
 * user's trackers (with statistics gathered it would otherwise start from notebooks and scan every
 * note, hundreds of ms at 100k notes). The count (every page's Recall badge) sums
 * tracker_due_buckets instead: prepared once.
 */
import { and, asc, count, eq, gte, isNull, lt, lte, sql } from "drizzle-orm";
import { all, one, prepared, type Session, type Step, timeParam } from "../session";
import { recallableNotebook } from "../sharing/access";
import { BUCKET_MS } from "./buckets";

function dueQuery(s: Session) {
  const { memoryTrackers: m, notes: n, notebooks: nb } = s.t;
  const userId = sql`${sql.placeholder("userId")}`;
  return {
    where: and(
      eq(n.id, m.noteId),
      eq(nb.id, n.notebookId),
      eq(m.userId, userId),
      eq(m.removedFromTracking, false),
      lte(m.nextRecallAt, sql.placeholder("until")),
      isNull(n.deletedAt),
      recallableNotebook(s, nb, userId),
    ),
    m,
    n,
    nb,
  };
}

export interface DueTracker {
  id: number;
  spelling: boolean;
  noteId: number;
}

/** The user's trackers due by `until`, oldest due first. */
export function* dueTrackers(s: Session, userId: number, until: Date): Step<DueTracker[]> {
  const query = prepared(s, "memory-due-trackers", () => {
    const { where, m, n, nb } = dueQuery(s);
    return s.db
      .select({ id: m.id, spelling: m.spelling, noteId: m.noteId })
      .from(m)
      .crossJoin(n)
      .crossJoin(nb)
      .where(where)
      .orderBy(asc(m.nextRecallAt), asc(m.id));
  });
  return yield* all(s, query, { userId, until: timeParam(s, until) });
}

/**
 * How many of the user's trackers are due by `until`: tracker_due_buckets (active trackers of
 * undeleted notes per notebook and 15 minutes, kept by triggers) summed over the buckets before
 * `until`'s own, in the notebooks the user may still recall, plus the trackers of `until`'s own
 * bucket due by `until`, counted one by one (at most 15 minutes' worth). A backlog of 100,000 due
 * trackers is a few hundred bucket rows, not 100,000 rows joined to their notes.
 */
export function* dueCount(s: Session, userId: number, until: Date): Step<number> {
  const edge = Math.floor(until.getTime() / BUCKET_MS);
  const before = prepared(s, "memory-due-count-buckets", () => {
    const { trackerDueBuckets: b, notebooks: nb } = s.t;
    const user = sql`${sql.placeholder("userId")}`;
    return s.db
      .select({ n: sql<number | null>`sum(${b.trackers})`.mapWith(Number) })
      .from(b)
      .crossJoin(nb)
      .where(and(eq(nb.id, b.notebookId), eq(b.userId, user), lt(b.bucket, sql.placeholder("edge")), recallableNotebook(s, nb, user)));
  });
  const within = prepared(s, "memory-due-count-edge", () => {
    const { where, m, n, nb } = dueQuery(s);
    return s.db
      .select({ n: count() })
      .from(m)
      .crossJoin(n)
      .crossJoin(nb)
      .where(and(where, gte(m.nextRecallAt, sql.placeholder("from"))));
  });
  const whole = (yield* one(s, before, { userId, edge }))?.n ?? 0;
  const partial = (yield* one(s, within, { userId, until: timeParam(s, until), from: timeParam(s, new Date(edge * BUCKET_MS)) }))?.n ?? 0;
  return whole + partial;
}

/** The user's active trackers (kept by triggers on memory_trackers in user_tracker_counts: no count over them). */
export function* activeTrackerCount(s: Session, userId: number): Step<number> {
  const c = s.t.userTrackerCounts;
  const query = prepared(s, "memory-active-tracker-count", () =>
    s.db
      .select({ n: c.activeTrackers })
      .from(c)
      .where(eq(c.userId, sql.placeholder("userId"))),
  );
  return (yield* one(s, query, { userId }))?.n ?? 0;
}

export interface RecallCounts {
  due: DueTracker[] | null;
  dueCount: number;
  activeTrackers: number;
}

/**
 * What the recall list and overview show, in one snapshot: the trackers due by `listUntil` (when
 * asked), the count due by `countUntil` and the user's active trackers.
 */
export function* recallList(s: Session, userId: number, listUntil: Date | null, countUntil: Date): Step<RecallCounts> {
  const due = listUntil ? yield* dueTrackers(s, userId, listUntil) : null;
  const counted = due && listUntil?.getTime() === countUntil.getTime() ? due.length : yield* dueCount(s, userId, countUntil);
  return { due, dueCount: counted, activeTrackers: yield* activeTrackerCount(s, userId) };
}
