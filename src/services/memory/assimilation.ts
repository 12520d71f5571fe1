import type { AppContext } from "../../context";
import { BadRequestError } from "../errors";
import { type NoteJson, NotePresenter } from "../notes/presenters";
import { requireNoteWithNotebook } from "../notes/rows";
import { authorizeRecall } from "../policies";
import { localDay } from "../scheduling/time-windows";
import type { CurrentUser } from "../users";
import { assimilationSchedule, assimilationState } from "./reviews";
import { type MemoryTrackerJson, presentMemoryTrackers } from "./trackers";

const DAY_MS = 86_400_000;

/**
 * What today's plan is computed from (the memory store's assimilationPlan: subscription notes
 * first, each within its quota, then own notes, all within what remains of the daily count).
 * Trackers assimilated "today": within the last 24 hours and on today's calendar day in the
 * user's time zone, not removed. A note that also remembers spelling counts 2 (docs/decisions.md,
 * decision 4).
 */
function today(ctx: AppContext, current: CurrentUser, timeZone: string) {
  const now = ctx.clock.now();
  const day = localDay(now, timeZone);
  return {
    dailyCount: current.user.dailyAssimilationCount,
    since: new Date(now.getTime() - DAY_MS),
    isToday: (at: Date) => localDay(at, timeZone) === day,
  };
}

/** Today's notes to assimilate (GET /assimilation/assimilating). */
export async function assimilating(ctx: AppContext, current: CurrentUser, timeZone: string): Promise<NoteJson[]> {
  const rows = await ctx.stores.notes.notesByIds(await ctx.stores.memory.assimilationList(current.user.id, today(ctx, current, timeZone)));
  const presenter = await new NotePresenter(ctx, current).load(rows);
  return rows.map((row) => presenter.note(row));
}

/** GET /assimilation/count. */
export interface AssimilationCountJson {
  dueCount: number;
  assimilatedCountOfTheDay: number;
  totalUnassimilatedCount: number;
}

/** The counters; dueCount is always the length of today's list, subscription quotas included (docs/decisions.md, decision 4). */
export async function assimilationCount(ctx: AppContext, current: CurrentUser, timeZone: string): Promise<AssimilationCountJson> {
  const { dueCount, assimilatedCountOfTheDay, totalUnassimilatedCount } = await ctx.stores.memory.assimilationPlan(current.user.id, {
    ...today(ctx, current, timeZone),
    onlyTodaysTake: false,
  });
  return { dueCount, assimilatedCountOfTheDay, totalUnassimilatedCount };
}

/** The Assimilate badge on every page's menu: assimilationCount's dueCount, counting only what today's take needs. */
export async function assimilationDueCount(ctx: AppContext, current: CurrentUser, timeZone: string): Promise<number> {
  const plan = await ctx.stores.memory.assimilationPlan(current.user.id, { ...today(ctx, current, timeZone), onlyTodaysTake: true });
  return plan.dueCount;
}

/**
 * Assimilates a note: a tracker (and a spelling tracker when the note remembers spelling), in
 * one transaction. A note already assimilated is refused with 400 (docs/decisions.md, decision 5), so a retried
 * request never counts twice.
 */
export async function assimilate(
  ctx: AppContext,
  current: CurrentUser,
  noteId: number,
  skipMemoryTracking: boolean,
): Promise<MemoryTrackerJson[]> {
  const { note, notebook } = await requireNoteWithNotebook(ctx, noteId);
  await authorizeRecall(ctx, current, notebook);
  if (note.deletedAt) throw new BadRequestError("A deleted note cannot be assimilated");
  const now = ctx.clock.now();
  const schedule = assimilationSchedule(current, now, ctx.randomizer);
  const kinds = note.rememberSpelling ? [false, true] : [false];
  // Each new tracker's first recall_log row is its assimilation.
  const rows = await ctx.stores.memory.assimilate(
    current.user.id,
    note.id,
    kinds.map((spelling) => ({
      userId: current.user.id,
      noteId: note.id,
      spelling,
      assimilatedAt: now,
      ...schedule,
      removedFromTracking: skipMemoryTracking,
    })),
    assimilationState(current),
  );
  if (!rows) throw new BadRequestError("This note is already assimilated");
  return presentMemoryTrackers(ctx, current, rows);
}
