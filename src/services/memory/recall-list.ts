import type { AppContext } from "../../context";
import { endOfHalfDay } from "../scheduling/time-windows";
import type { CurrentUser } from "../users";
import { spreadSameNote } from "./spread-same-note";

const HOUR_MS = 3_600_000;

/**
 * The user's trackers are due by the end of the half-day N days ahead (in the user's time zone),
 * oldest due first: not removed, on undeleted notes of notebooks the user may still recall
 * (docs/decisions.md, decision 3: own, circle and subscribed notebooks; an unsubscribed notebook's
 * trackers drop out). The memory store reads them (store/memory/recall-list.ts).
 */
/** The Recall badge on every page's menu: the overview's toRepeatCount alone. */
export async function recallDueCount(ctx: AppContext, current: CurrentUser, timeZone: string): Promise<number> {
  return ctx.stores.memory.dueCount(current.user.id, endOfHalfDay(ctx.clock.now(), timeZone));
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
export async function recalling(
  ctx: AppContext,
  current: CurrentUser,
  timeZone: string,
  dueInDays: number,
): Promise<DueMemoryTrackersJson> {
  const now = ctx.clock.now();
  const listUntil = endOfHalfDay(new Date(now.getTime() + dueInDays * 24 * HOUR_MS), timeZone);
  const { due, dueCount, activeTrackers } = await ctx.stores.memory.recallList(current.user.id, listUntil, endOfHalfDay(now, timeZone));
  const toRepeat = spreadSameNote<MemoryTrackerLite>(
    due!.map((row) => ({ memoryTrackerId: row.id, spelling: row.spelling, noteId: row.noteId })),
  );
  return {
    toRepeat,
    dueInDays,
    toRepeatCount: dueInDays === 0 ? toRepeat.length : dueCount,
    totalAssimilatedCount: activeTrackers,
    recallWindowEndAt: new Date(now.getTime() + 24 * HOUR_MS).toISOString(),
  };
}

/** GET /recalls/overview: the counters of the recall menu badge and page. */
export async function recallOverview(ctx: AppContext, current: CurrentUser, timeZone: string): Promise<RecallOverviewJson> {
  const now = ctx.clock.now();
  const { dueCount, activeTrackers } = await ctx.stores.memory.recallList(current.user.id, null, endOfHalfDay(now, timeZone));
  return {
    toRepeatCount: dueCount,
    totalAssimilatedCount: activeTrackers,
    recallWindowEndAt: new Date(now.getTime() + 24 * HOUR_MS).toISOString(),
  };
}
