/**
 * The assimilation list's reads (memory store): what the user assimilated lately, their
 * subscriptions' daily targets, and the notes still to assimilate, in the order they are offered.
 *
 * Own notes: the assimilation_candidates table holds, for every notebook the user created, the
 * undeleted, unskipped notes the user has no tracker for (kept by triggers), so each kind is an
 * index range; circle notebooks are never offered (members subscribe). A subscribed notebook's
 * candidates are its undeleted, unskipped notes the user has no tracker for.
 *
 * The kinds of candidate, in the order they are offered: the notes themselves first, then the links
 * between them (a link is worth remembering once its two notes are known), and last a notebook's
 * head note with no details (a notebook's title, not a thing to learn on its first day). Within a
 * kind: level, creation time, id. The Assimilate badge on every page asks the counts: prepared once.
 */
import { and, asc, count, eq, gt, isNotNull, isNull, not, notExists, type SQL, sql } from "drizzle-orm";
import { all, one, prepared, type Session, type Step, timeParam } from "../session";

export type CandidateKind = "note" | "link" | "head";
export const CANDIDATE_KINDS: readonly CandidateKind[] = ["note", "link", "head"];

function kindCondition(s: Session, kind: CandidateKind): SQL {
  const n = s.t.notes;
  const blankHead = and(isNull(n.parentId), sql`trim(${n.details}) = ''`)!;
  if (kind === "link") return isNotNull(n.targetNoteId);
  if (kind === "head") return and(isNull(n.targetNoteId), blankHead)!;
  return and(isNull(n.targetNoteId), not(blankHead))!;
}

/** The user's trackers assimilated after `since` and not removed, with their notes' notebooks. */
export function* assimilatedSince(
  s: Session,
  userId: number,
  since: Date,
): Step<{ noteId: number; notebookId: number; assimilatedAt: Date }[]> {
  const { memoryTrackers: m, notes: n } = s.t;
  const query = prepared(s, "memory-assimilated-since", () =>
    s.db
      .select({ noteId: m.noteId, notebookId: n.notebookId, assimilatedAt: m.assimilatedAt })
      .from(m)
      .innerJoin(n, eq(n.id, m.noteId))
      .where(and(eq(m.userId, sql.placeholder("userId")), gt(m.assimilatedAt, sql.placeholder("since")), eq(m.removedFromTracking, false))),
  );
  return yield* all(s, query, { userId, since: timeParam(s, since) });
}

/** The user's subscriptions (oldest first) with their daily targets of new notes. */
export function* subscriptionTargets(s: Session, userId: number): Step<{ notebookId: number; target: number }[]> {
  const sub = s.t.subscriptions;
  const query = prepared(s, "memory-subscription-targets", () =>
    s.db
      .select({ notebookId: sub.notebookId, target: sub.dailyTargetOfNewNotes })
      .from(sub)
      .where(eq(sub.userId, sql.placeholder("userId")))
      .orderBy(asc(sub.id)),
  );
  return yield* all(s, query, { userId });
}

/** The first `limit` own candidates of a kind, as note ids (a prepared statement per kind). */
function* ownCandidatesOfKind(s: Session, userId: number, kind: CandidateKind, limit: number): Step<number[]> {
  const { assimilationCandidates: c, notes: n, notebooks: nb } = s.t;
  const query = prepared(s, `memory-own-candidates-${kind}`, () =>
    s.db
      .select({ id: c.noteId })
      .from(c)
      .innerJoin(n, eq(n.id, c.noteId))
      .innerJoin(nb, eq(nb.id, n.notebookId))
      .where(and(eq(c.userId, sql.placeholder("userId")), isNull(nb.circleId), kindCondition(s, kind)))
      .orderBy(asc(c.level), asc(c.createdAt), asc(c.noteId))
      .limit(sql.placeholder("limit")),
  );
  const rows = yield* all(s, query, { userId, limit });
  return rows.map((row) => row.id);
}

/** The first `limit` candidates over the kinds in order. */
function* byKind(limit: number, take: (kind: CandidateKind, limit: number) => Step<number[]>): Step<number[]> {
  const ids: number[] = [];
  for (const kind of CANDIDATE_KINDS) {
    if (ids.length >= limit) break;
    ids.push(...(yield* take(kind, limit - ids.length)));
  }
  return ids;
}

/** The user's own notes still to assimilate, the first `limit` in the order they are offered (note ids). */
export function* ownCandidates(s: Session, userId: number, limit: number): Step<number[]> {
  if (limit <= 0) return [];
  return yield* byKind(limit, (kind, left) => ownCandidatesOfKind(s, userId, kind, left));
}

/** How many own notes are still to assimilate; with a cap, counted only up to it (as fast with 100,000 notes as with 10). */
export function* ownCandidateCount(s: Session, userId: number, cap: number | null): Step<number> {
  if (cap !== null && cap <= 0) return 0;
  const { assimilationCandidates: c, notes: n, notebooks: nb } = s.t;
  const name = cap === null ? "memory-own-candidate-count" : "memory-own-candidate-count-up-to";
  const query = prepared(s, name, () => {
    const candidates = s.db
      .select({ found: sql`1` })
      .from(c)
      .innerJoin(n, eq(n.id, c.noteId))
      .innerJoin(nb, eq(nb.id, n.notebookId))
      .where(and(eq(c.userId, sql.placeholder("userId")), isNull(nb.circleId)));
    const counted = cap === null ? candidates : candidates.limit(sql.placeholder("cap"));
    return s.db.select({ n: count() }).from(counted.as("candidates"));
  });
  return (yield* one(s, query, cap === null ? { userId } : { userId, cap }))?.n ?? 0;
}

function subscriptionCandidateCondition(s: Session, userId: number | SQL, notebookId: number | SQL): SQL {
  const { notes: n, memoryTrackers: m } = s.t;
  return and(
    eq(n.notebookId, notebookId),
    isNull(n.deletedAt),
    eq(n.skipMemoryTracking, false),
    notExists(
      s.db
        .select({ found: sql`1` })
        .from(m)
        .where(and(eq(m.userId, userId), eq(m.noteId, n.id))),
    ),
  )!;
}

/** A subscribed notebook's notes still to assimilate, the first `limit` in the order they are offered (note ids). */
export function* subscriptionCandidates(s: Session, userId: number, notebookId: number, limit: number): Step<number[]> {
  if (limit <= 0) return [];
  const n = s.t.notes;
  return yield* byKind(limit, function* (kind, left) {
    const query = prepared(s, `memory-subscription-candidates-${kind}`, () =>
      s.db
        .select({ id: n.id })
        .from(n)
        .where(
          and(
            subscriptionCandidateCondition(s, sql`${sql.placeholder("userId")}`, sql`${sql.placeholder("notebookId")}`),
            kindCondition(s, kind),
          ),
        )
        .orderBy(asc(n.level), asc(n.createdAt), asc(n.id))
        .limit(sql.placeholder("limit")),
    );
    const rows = yield* all(s, query, { userId, notebookId, limit: left });
    return rows.map((row) => row.id);
  });
}

/** How many of a subscribed notebook's notes are still to assimilate; with a cap, counted only up to it. */
export function* subscriptionCandidateCount(s: Session, userId: number, notebookId: number, cap: number | null): Step<number> {
  if (cap !== null && cap <= 0) return 0;
  const n = s.t.notes;
  const name = cap === null ? "memory-subscription-candidate-count" : "memory-subscription-candidate-count-up-to";
  const query = prepared(s, name, () => {
    const candidates = s.db
      .select({ found: sql`1` })
      .from(n)
      .where(subscriptionCandidateCondition(s, sql`${sql.placeholder("userId")}`, sql`${sql.placeholder("notebookId")}`));
    const counted = cap === null ? candidates : candidates.limit(sql.placeholder("cap"));
    return s.db.select({ n: count() }).from(counted.as("candidates"));
  });
  return (yield* one(s, query, cap === null ? { userId, notebookId } : { userId, notebookId, cap }))?.n ?? 0;
}

export interface AssimilationPlan {
  assimilatedCountOfTheDay: number;
  /** Today's take of each subscription (oldest first), then of the own notes. */
  takes: { notebookId: number; take: number }[];
  ownTake: number;
  dueCount: number;
  totalUnassimilatedCount: number;
  /** The notes assimilated today (for the subscriptions' quotas). */
  todayNoteIds: number[];
}

/**
 * Today's plan, in one snapshot: subscription notes first (each within its quota: its daily target
 * minus its notes assimilated today, subscriptions oldest first), then own notes, all within what
 * remains of the daily count. Trackers assimilated after `since` count as today's when `isToday`
 * says so (the caller's time zone). With onlyTodaysTake, candidates are counted only as far as
 * today's take needs (the menu badge on every page); their totals are then lower bounds.
 */
export function* assimilationPlan(
  s: Session,
  userId: number,
  options: { dailyCount: number; since: Date; isToday: (at: Date) => boolean; onlyTodaysTake: boolean },
): Step<AssimilationPlan> {
  const today = (yield* assimilatedSince(s, userId, options.since)).filter((row) => options.isToday(row.assimilatedAt));
  const remaining = Math.max(0, options.dailyCount - today.length);
  const subscribed = yield* subscriptionTargets(s, userId);
  const todayByNotebook = new Map<number, number>();
  for (const row of today) todayByNotebook.set(row.notebookId, (todayByNotebook.get(row.notebookId) ?? 0) + 1);
  let left = remaining;
  let subscriptionCandidatesTotal = 0;
  const takes: AssimilationPlan["takes"] = [];
  for (const { notebookId, target } of subscribed) {
    const quota = Math.max(0, target - (todayByNotebook.get(notebookId) ?? 0));
    const candidates = yield* subscriptionCandidateCount(s, userId, notebookId, options.onlyTodaysTake ? quota : null);
    subscriptionCandidatesTotal += candidates;
    const take = Math.min(left, quota, candidates);
    left -= take;
    takes.push({ notebookId, take });
  }
  const own = yield* ownCandidateCount(s, userId, options.onlyTodaysTake ? left : null);
  const ownTake = Math.min(left, own);
  return {
    assimilatedCountOfTheDay: today.length,
    takes,
    ownTake,
    dueCount: takes.reduce((sum, t) => sum + t.take, ownTake),
    totalUnassimilatedCount: own + subscriptionCandidatesTotal,
    todayNoteIds: today.map((row) => row.noteId),
  };
}

/** Today's notes to assimilate, in the order they are offered (note ids): the plan's takes. */
export function* assimilationList(
  s: Session,
  userId: number,
  options: { dailyCount: number; since: Date; isToday: (at: Date) => boolean },
): Step<number[]> {
  const { takes, ownTake } = yield* assimilationPlan(s, userId, { ...options, onlyTodaysTake: false });
  const ids: number[] = [];
  for (const { notebookId, take } of takes) ids.push(...(yield* subscriptionCandidates(s, userId, notebookId, take)));
  ids.push(...(yield* ownCandidates(s, userId, ownTake)));
  return ids;
}
