import type { AppContext } from "../../context";
import { RECALLABLE_NOTEBOOK_SQL } from "../policies";
import { endOfHalfDay } from "../scheduling/time-windows";
import type { CurrentUser } from "../users";
import { spreadSameNote } from "./spread-same-note";

const HOUR_MS = 3_600_000;

/**
 * The user's trackers due by the end of the half-day N days ahead (in the user's time zone),
 * oldest due first: not removed, on undeleted notes of notebooks the user may still recall
 * (docs/decisions.md, decision 3: own, circle and subscribed notebooks; an unsubscribed notebook's trackers drop out). One range scan of the (user, removed, next recall) index.
 */
/** The conditions of a due tracker (CROSS JOIN keeps SQLite starting from the user's trackers: with statistics gathered it would otherwise start from notebooks and scan every note, hundreds of ms at 100k notes). */
const DUE_TRACKERS = `FROM memory_trackers m
       CROSS JOIN notes n ON n.id = m.note_id
       CROSS JOIN notebooks nb ON nb.id = n.notebook_id
       WHERE m.user_id = ?1 AND m.removed_from_tracking = 0 AND m.next_recall_at <= ?2
         AND n.deleted_at IS NULL AND ${RECALLABLE_NOTEBOOK_SQL}`;

function dueTrackers(ctx: AppContext, current: CurrentUser, until: Date) {
  return ctx.sqlite
    .query<{ id: number; spelling: number; noteId: number }, [number, number]>(
      `SELECT m.id, m.spelling, m.note_id AS noteId ${DUE_TRACKERS} ORDER BY m.next_recall_at, m.id`,
    )
    .all(current.user.id, until.getTime());
}

function totalAssimilatedCount(ctx: AppContext, current: CurrentUser): number {
  // Kept by triggers on memory_trackers (migrations/0006): no count over all the user's trackers.
  return (
    ctx.sqlite
      .query<{ n: number }, [number]>("SELECT active_trackers AS n FROM user_tracker_counts WHERE user_id = ?1")
      .get(current.user.id)?.n ?? 0
  );
}

function toRepeatCount(ctx: AppContext, current: CurrentUser, timeZone: string, now: Date): number {
  return ctx.sqlite
    .query<{ n: number }, [number, number]>(`SELECT count(*) AS n ${DUE_TRACKERS}`)
    .get(current.user.id, endOfHalfDay(now, timeZone).getTime())!.n;
}

/** The Recall badge on every page's menu: the overview's toRepeatCount alone. */
export function recallDueCount(ctx: AppContext, current: CurrentUser, timeZone: string): number {
  return toRepeatCount(ctx, current, timeZone, ctx.clock.now());
}

/** One item of the recall list; noteId is an Engram addition (a note's items are kept apart). */
export interface MemoryTrackerLite {
  memoryTrackerId: number;
  spelling: boolean;
  noteId: number;
}

/** GET /recalls/overview. */
export interface RecallOverviewJson {
  toRepeatCount: number;
  totalAssimilatedCount: number;
  recallWindowEndAt: string;
}

/** GET /recalls/recalling (DueMemoryTrackers). */
export interface DueMemoryTrackersJson extends RecallOverviewJson {
  toRepeat: MemoryTrackerLite[];
  dueInDays: number;
}

/**
 * GET /recalls/recalling: what to repeat now (N = 0) or up to N days ahead, oldest due first but
 * with a note's items parted (spreadSameNote). Each item also names its note (an Engram addition),
 * so that the browser can part them again after its shuffle.
 */
export function recalling(ctx: AppContext, current: CurrentUser, timeZone: string, dueInDays: number): DueMemoryTrackersJson {
  const now = ctx.clock.now();
  const toRepeat = spreadSameNote<MemoryTrackerLite>(
    dueTrackers(ctx, current, endOfHalfDay(new Date(now.getTime() + dueInDays * 24 * HOUR_MS), timeZone)).map((row) => ({
      memoryTrackerId: row.id,
      spelling: !!row.spelling,
      noteId: row.noteId,
    })),
  );
  return {
    toRepeat,
    dueInDays,
    toRepeatCount: dueInDays === 0 ? toRepeat.length : toRepeatCount(ctx, current, timeZone, now),
    totalAssimilatedCount: totalAssimilatedCount(ctx, current),
    recallWindowEndAt: new Date(now.getTime() + 24 * HOUR_MS).toISOString(),
  };
}

/** GET /recalls/overview: the counters of the recall menu badge and page. */
export function recallOverview(ctx: AppContext, current: CurrentUser, timeZone: string): RecallOverviewJson {
  const now = ctx.clock.now();
  return {
    toRepeatCount: toRepeatCount(ctx, current, timeZone, now),
    totalAssimilatedCount: totalAssimilatedCount(ctx, current),
    recallWindowEndAt: new Date(now.getTime() + 24 * HOUR_MS).toISOString(),
  };
}
