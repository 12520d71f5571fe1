import { and, eq } from "drizzle-orm";
import type { AppContext } from "../../context";
import { memoryTrackers } from "../../db/schema";
import { BadRequestError } from "../errors";
import { type NoteJson, NotePresenter } from "../notes/presenters";
import { getNote, getNotebook, type NoteRow, notesByIds } from "../notes/rows";
import { authorizeRecall } from "../policies";
import { localDay } from "../scheduling/time-windows";
import type { CurrentUser } from "../users";
import { assimilationSchedule, logAssimilation } from "./reviews";
import { type MemoryTrackerJson, presentMemoryTrackers } from "./trackers";

const DAY_MS = 86_400_000;

/**
 * The kinds of candidate, in the order they are offered: the notes themselves first, then the links
 * between them (a link is worth remembering, as the reference has it, once its two notes are
 * known), and last a notebook's head note with no details (a notebook's title, not a thing to
 * learn on its first day). Within a kind, the reference's order: level, creation time, id.
 */
const CANDIDATE_KINDS = [
  "n.target_note_id IS NULL AND NOT (n.parent_id IS NULL AND trim(n.details) = '')",
  "n.target_note_id IS NOT NULL",
  "n.target_note_id IS NULL AND n.parent_id IS NULL AND trim(n.details) = ''",
];

/** The first `limit` candidates over the kinds in order, `take(kind, limit)` answering a kind's ids in order. */
function byKind(limit: number, take: (kind: string, limit: number) => number[]): number[] {
  const ids: number[] = [];
  for (const kind of CANDIDATE_KINDS) {
    if (ids.length >= limit) break;
    ids.push(...take(kind, limit - ids.length));
  }
  return ids;
}

/**
 * The user's own notes still to assimilate: undeleted, unskipped notes of the user's personal
 * notebooks with no tracker of the user. The assimilation_candidates table holds exactly those for
 * every notebook the user created (kept by triggers), so each kind is an index range; circle
 * notebooks are never offered (members subscribe).
 */
const OWN_CANDIDATES = `FROM assimilation_candidates c JOIN notes n ON n.id = c.note_id JOIN notebooks nb ON nb.id = n.notebook_id
  WHERE c.user_id = ?1 AND nb.circle_id IS NULL`;

function ownCandidates(ctx: AppContext, current: CurrentUser, limit: number): NoteRow[] {
  if (limit <= 0) return [];
  const ids = byKind(limit, (kind, left) =>
    ctx.sqlite
      .query<{ id: number }, [number, number]>(
        `SELECT c.note_id AS id ${OWN_CANDIDATES} AND ${kind} ORDER BY c.level, c.created_at, c.note_id LIMIT ?2`,
      )
      .all(current.user.id, left)
      .map((row) => row.id),
  );
  return notesByIds(ctx, ids);
}

function ownCandidateCount(ctx: AppContext, current: CurrentUser): number {
  return ctx.sqlite.query<{ n: number }, [number]>(`SELECT count(*) AS n ${OWN_CANDIDATES}`).get(current.user.id)!.n;
}

/** At most `cap` of the own candidates counted: as fast with 100,000 notes as with 10. */
function ownCandidateCountUpTo(ctx: AppContext, current: CurrentUser, cap: number): number {
  if (cap <= 0) return 0;
  return ctx.sqlite
    .query<{ n: number }, [number, number]>(`SELECT count(*) AS n FROM (SELECT 1 ${OWN_CANDIDATES} LIMIT ?2)`)
    .get(current.user.id, cap)!.n;
}

/** A subscribed notebook's notes the user has no tracker for (undeleted, unskipped), in the same order. */
const SUBSCRIPTION_CANDIDATES = `FROM notes n WHERE n.notebook_id = ?1 AND n.deleted_at IS NULL AND n.skip_memory_tracking = 0
  AND NOT EXISTS (SELECT 1 FROM memory_trackers m WHERE m.user_id = ?2 AND m.note_id = n.id)`;

interface SubscriptionQuota {
  notebookId: number;
  /** What the subscription may still bring today: its daily target minus its notes assimilated today. */
  quota: number;
  candidates: number;
}

/** Each subscription (oldest first) with today's quota and its count of notes still to assimilate. */
function subscriptionQuotas(
  ctx: AppContext,
  current: CurrentUser,
  todayNoteIds: number[],
  { upToQuota = false } = {},
): SubscriptionQuota[] {
  const subscribed = ctx.sqlite
    .query<{ notebookId: number; target: number }, [number]>(
      "SELECT notebook_id AS notebookId, daily_target_of_new_notes AS target FROM subscriptions WHERE user_id = ? ORDER BY id",
    )
    .all(current.user.id);
  if (subscribed.length === 0) return [];
  const todayByNotebook = new Map<number, number>();
  for (const note of notesByIds(ctx, [...new Set(todayNoteIds)])) {
    todayByNotebook.set(note.notebookId, (todayByNotebook.get(note.notebookId) ?? 0) + 1);
  }
  const count = ctx.sqlite.query<{ n: number }, [number, number]>(`SELECT count(*) AS n ${SUBSCRIPTION_CANDIDATES}`);
  // With upToQuota, candidates beyond the quota are not counted (what today's take needs, no more).
  const countUpTo = ctx.sqlite.query<{ n: number }, [number, number, number]>(
    `SELECT count(*) AS n FROM (SELECT 1 ${SUBSCRIPTION_CANDIDATES} LIMIT ?3)`,
  );
  return subscribed.map(({ notebookId, target }) => {
    const quota = Math.max(0, target - (todayByNotebook.get(notebookId) ?? 0));
    const candidates = upToQuota ? countUpTo.get(notebookId, current.user.id, quota)!.n : count.get(notebookId, current.user.id)!.n;
    return { notebookId, quota, candidates };
  });
}

function subscriptionCandidates(ctx: AppContext, current: CurrentUser, notebookId: number, limit: number): NoteRow[] {
  if (limit <= 0) return [];
  const ids = byKind(limit, (kind, left) =>
    ctx.sqlite
      .query<{ id: number }, [number, number, number]>(
        `SELECT n.id ${SUBSCRIPTION_CANDIDATES} AND ${kind} ORDER BY n.level, n.created_at, n.id LIMIT ?3`,
      )
      .all(notebookId, current.user.id, left)
      .map((row) => row.id),
  );
  return notesByIds(ctx, ids);
}

/**
 * Today's plan: subscription notes first (each within its quota, subscriptions oldest first),
 * then own notes, all within what remains of the daily count. With
 * onlyTodaysTake, candidates are counted only as far as today's take needs (the menu badge on
 * every page: a large collection's unassimilated notes are not all counted); their totals are
 * then lower bounds.
 */
function plan(ctx: AppContext, current: CurrentUser, timeZone: string, { onlyTodaysTake = false } = {}) {
  const today = assimilatedToday(ctx, current, timeZone);
  const assimilatedCountOfTheDay = today.length;
  const remaining = Math.max(0, current.user.dailyAssimilationCount - assimilatedCountOfTheDay);
  const subscriptions = subscriptionQuotas(
    ctx,
    current,
    today.map((t) => t.noteId),
    { upToQuota: onlyTodaysTake },
  );
  let left = remaining;
  const takes = subscriptions.map((s) => {
    const take = Math.min(left, s.quota, s.candidates);
    left -= take;
    return { notebookId: s.notebookId, take };
  });
  const ownCandidates = onlyTodaysTake ? ownCandidateCountUpTo(ctx, current, left) : ownCandidateCount(ctx, current);
  const ownTake = Math.min(left, ownCandidates);
  return {
    assimilatedCountOfTheDay,
    takes,
    ownTake,
    dueCount: takes.reduce((sum, t) => sum + t.take, ownTake),
    totalUnassimilatedCount: ownCandidates + subscriptions.reduce((sum, s) => sum + s.candidates, 0),
  };
}

/**
 * Trackers assimilated "today": within the last 24 hours and on today's calendar day in the
 * user's time zone, not removed. A note that also remembers spelling counts 2 (docs/decisions.md, decision 4).
 */
export function assimilatedToday(ctx: AppContext, current: CurrentUser, timeZone: string) {
  const now = ctx.clock.now();
  const today = localDay(now, timeZone);
  // One cached statement: every page's Assimilate badge asks this.
  return ctx.sqlite
    .query<{ noteId: number; assimilatedAt: number }, [number, number]>(
      `SELECT note_id AS noteId, assimilated_at AS assimilatedAt FROM memory_trackers
       WHERE user_id = ?1 AND assimilated_at > ?2 AND removed_from_tracking = 0`,
    )
    .all(current.user.id, now.getTime() - DAY_MS)
    .map((t) => ({ noteId: t.noteId, assimilatedAt: new Date(t.assimilatedAt) }))
    .filter((t) => localDay(t.assimilatedAt, timeZone) === today);
}

/** Today's notes to assimilate (GET /assimilation/assimilating). */
export function assimilating(ctx: AppContext, current: CurrentUser, timeZone: string): NoteJson[] {
  const { takes, ownTake } = plan(ctx, current, timeZone);
  const rows = [
    ...takes.flatMap(({ notebookId, take }) => (take > 0 ? subscriptionCandidates(ctx, current, notebookId, take) : [])),
    ...ownCandidates(ctx, current, ownTake),
  ];
  const presenter = new NotePresenter(ctx, current).preload(rows);
  return rows.map((row) => presenter.note(row));
}

/** GET /assimilation/count. */
export interface AssimilationCountJson {
  dueCount: number;
  assimilatedCountOfTheDay: number;
  totalUnassimilatedCount: number;
}

/** The counters; dueCount is always the length of today's list, subscription quotas included (docs/decisions.md, decision 4). */
export function assimilationCount(ctx: AppContext, current: CurrentUser, timeZone: string): AssimilationCountJson {
  const { dueCount, assimilatedCountOfTheDay, totalUnassimilatedCount } = plan(ctx, current, timeZone);
  return { dueCount, assimilatedCountOfTheDay, totalUnassimilatedCount };
}

/** The Assimilate badge on every page's menu: assimilationCount's dueCount, counting only what today's take needs. */
export function assimilationDueCount(ctx: AppContext, current: CurrentUser, timeZone: string): number {
  return plan(ctx, current, timeZone, { onlyTodaysTake: true }).dueCount;
}

/**
 * Assimilates a note: a tracker (and a spelling tracker when the note remembers spelling), in
 * one transaction. A note already assimilated is refused with 400 (docs/decisions.md, decision 5), so a retried
 * request never counts twice.
 */
export function assimilate(ctx: AppContext, current: CurrentUser, noteId: number, skipMemoryTracking: boolean): MemoryTrackerJson[] {
  const note = getNote(ctx, noteId);
  authorizeRecall(ctx, current, getNotebook(ctx, note.notebookId));
  if (note.deletedAt) throw new BadRequestError("A deleted note cannot be assimilated");
  const now = ctx.clock.now();
  const schedule = assimilationSchedule(current, now, ctx.randomizer);
  const rows = ctx.db.transaction((tx) => {
    const existing = tx
      .select({ id: memoryTrackers.id })
      .from(memoryTrackers)
      .where(and(eq(memoryTrackers.userId, current.user.id), eq(memoryTrackers.noteId, note.id)))
      .get();
    if (existing) throw new BadRequestError("This note is already assimilated");
    const kinds = note.rememberSpelling ? [false, true] : [false];
    // Each new tracker's first recall_log row is its assimilation.
    return logAssimilation(
      tx,
      current,
      kinds.map((spelling) =>
        tx
          .insert(memoryTrackers)
          .values({
            userId: current.user.id,
            noteId: note.id,
            spelling,
            assimilatedAt: now,
            ...schedule,
            removedFromTracking: skipMemoryTracking,
          })
          .returning()
          .get(),
      ),
    );
  });
  return presentMemoryTrackers(ctx, current, rows);
}
