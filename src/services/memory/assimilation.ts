import { and, asc, count, eq, gt } from "drizzle-orm";
import type { AppContext } from "../../context";
import { assimilationCandidates, memoryTrackers, notes } from "../../db/schema";
import { BadRequestError } from "../errors";
import { authorizeRead } from "../notes/access";
import { NotePresenter, type NoteJson } from "../notes/presenters";
import { getNote, getNotebook, type NoteRow } from "../notes/rows";
import { newSchedule } from "../scheduling/forgetting-curve";
import { localDay } from "../scheduling/time-windows";
import type { CurrentUser } from "../users";
import { intervalsOf, type MemoryTrackerJson, presentMemoryTrackers } from "./trackers";

const DAY_MS = 86_400_000;

/**
 * Notes the user may still assimilate, in the reference's order (level, creation time, id): the
 * user's own undeleted, unskipped notes with no tracker of the user. The assimilation_candidates
 * table holds exactly those (kept by triggers), so this is an index range, not a scan.
 * (Subscriptions join this list when sharing lands, before the own notes.)
 */
function candidates(ctx: AppContext, current: CurrentUser, limit: number): NoteRow[] {
  return ctx.db
    .select({ note: notes })
    .from(assimilationCandidates)
    .innerJoin(notes, eq(notes.id, assimilationCandidates.noteId))
    .where(eq(assimilationCandidates.userId, current.user.id))
    .orderBy(asc(assimilationCandidates.level), asc(assimilationCandidates.createdAt), asc(assimilationCandidates.noteId))
    .limit(limit)
    .all()
    .map((row) => row.note);
}

function unassimilatedCount(ctx: AppContext, current: CurrentUser): number {
  return ctx.db.select({ n: count() }).from(assimilationCandidates).where(eq(assimilationCandidates.userId, current.user.id)).get()!.n;
}

/**
 * Trackers assimilated "today": within the last 24 hours and on today's calendar day in the
 * user's time zone, not removed. A note that also remembers spelling counts 2 (decision 4).
 */
export function assimilatedToday(ctx: AppContext, current: CurrentUser, timeZone: string) {
  const now = ctx.clock.now();
  const today = localDay(now, timeZone);
  return ctx.db
    .select({ noteId: memoryTrackers.noteId, assimilatedAt: memoryTrackers.assimilatedAt })
    .from(memoryTrackers)
    .where(and(eq(memoryTrackers.userId, current.user.id), gt(memoryTrackers.assimilatedAt, new Date(now.getTime() - DAY_MS)),
      eq(memoryTrackers.removedFromTracking, false)))
    .all()
    .filter((t) => localDay(t.assimilatedAt, timeZone) === today);
}

function remainingToday(ctx: AppContext, current: CurrentUser, timeZone: string) {
  const assimilatedCountOfTheDay = assimilatedToday(ctx, current, timeZone).length;
  return { assimilatedCountOfTheDay, remaining: Math.max(0, current.user.dailyAssimilationCount - assimilatedCountOfTheDay) };
}

/** Today's notes to assimilate (GET /assimilation/assimilating). */
export function assimilating(ctx: AppContext, current: CurrentUser, timeZone: string): NoteJson[] {
  const { remaining } = remainingToday(ctx, current, timeZone);
  if (remaining === 0) return [];
  const rows = candidates(ctx, current, remaining);
  const presenter = new NotePresenter(ctx).preload(rows);
  return rows.map((row) => presenter.note(row));
}

/** GET /assimilation/count. */
export interface AssimilationCountJson {
  dueCount: number;
  assimilatedCountOfTheDay: number;
  totalUnassimilatedCount: number;
}

/** The counters; dueCount is always the length of today's list (decision 4). */
export function assimilationCount(ctx: AppContext, current: CurrentUser, timeZone: string): AssimilationCountJson {
  const { assimilatedCountOfTheDay, remaining } = remainingToday(ctx, current, timeZone);
  const totalUnassimilatedCount = unassimilatedCount(ctx, current);
  return { dueCount: Math.min(remaining, totalUnassimilatedCount), assimilatedCountOfTheDay, totalUnassimilatedCount };
}

/**
 * Assimilates a note: a tracker (and a spelling tracker when the note remembers spelling), in
 * one transaction. A note already assimilated is refused with 400 (decision 5), so a retried
 * request never counts twice.
 */
export function assimilate(ctx: AppContext, current: CurrentUser, noteId: number, skipMemoryTracking: boolean): MemoryTrackerJson[] {
  const note = getNote(ctx, noteId);
  authorizeRead(ctx, current, getNotebook(ctx, note.notebookId));
  if (note.deletedAt) throw new BadRequestError("A deleted note cannot be assimilated");
  const now = ctx.clock.now();
  const schedule = newSchedule(intervalsOf(current), now);
  const rows = ctx.db.transaction((tx) => {
    const existing = tx.select({ id: memoryTrackers.id }).from(memoryTrackers)
      .where(and(eq(memoryTrackers.userId, current.user.id), eq(memoryTrackers.noteId, note.id))).get();
    if (existing) throw new BadRequestError("This note is already assimilated");
    const kinds = note.rememberSpelling ? [false, true] : [false];
    return kinds.map((spelling) =>
      tx.insert(memoryTrackers)
        .values({ userId: current.user.id, noteId: note.id, spelling, assimilatedAt: now, ...schedule, removedFromTracking: skipMemoryTracking })
        .returning()
        .get(),
    );
  });
  return presentMemoryTrackers(ctx, rows);
}

