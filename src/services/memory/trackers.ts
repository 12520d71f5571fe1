import type { AppContext } from "../../context";
import type { MemoryTrackerRow, RepeatResult } from "../../store/memory/memory-store";
import { BadRequestError, NotFoundError, ValidationError } from "../errors";
import { type NoteJson, NotePresenter, type NoteRealmJson, noteRealm } from "../notes/presenters";
import { requireNoteWithNotebook } from "../notes/rows";
import { authorizeEdit, authorizeOwnRecord, authorizeRead, authorizeRecall } from "../policies";
import { parseSpaceIntervals } from "../scheduling/forgetting-curve";
import type { CurrentUser } from "../users";
import { ALREADY_RECORDED, appliedNow, refuseRepeatedKey } from "./answer-keys";
import { planReview, thinkingTime } from "./reviews";

export type { MemoryTrackerRow } from "../../store/memory/memory-store";

export interface MemoryTrackerJson {
  id: number;
  note: NoteJson;
  lastRecalledAt: string;
  nextRecallAt: string;
  assimilatedAt: string;
  repetitionCount: number;
  forgettingCurveIndex: number;
  removedFromTracking: boolean;
  spelling: boolean;
  /** FSRS memory state, only while the user schedules with FSRS: hours and 1..10. */
  stability?: number;
  difficulty?: number;
}

/**
 * MemoryTracker JSON for many trackers of the reader's, loading their notes in one go. A tracker
 * is kept for history when its note leaves the notebooks the reader may read; its note is then a
 * placeholder (no title, no details).
 */
export async function presentMemoryTrackers(ctx: AppContext, reader: CurrentUser, rows: MemoryTrackerRow[]): Promise<MemoryTrackerJson[]> {
  const noteRows = await ctx.stores.notes.notesByIds([...new Set(rows.map((r) => r.noteId))]);
  const presenter = await new NotePresenter(ctx, reader).load(noteRows);
  const byId = new Map(noteRows.map((n) => [n.id, presenter.note(n)]));
  return rows.map((row) => ({
    id: row.id,
    note: byId.get(row.noteId)!,
    lastRecalledAt: row.lastRecalledAt.toISOString(),
    nextRecallAt: row.nextRecallAt.toISOString(),
    assimilatedAt: row.assimilatedAt.toISOString(),
    repetitionCount: row.repetitionCount,
    forgettingCurveIndex: row.forgettingCurveIndex,
    removedFromTracking: row.removedFromTracking,
    spelling: row.spelling,
    ...(row.stability !== null
      ? { stability: Math.round(row.stability * 24 * 1000) / 1000, difficulty: Math.round((row.difficulty ?? 0) * 1000) / 1000 }
      : {}),
  }));
}

export const presentMemoryTracker = async (ctx: AppContext, reader: CurrentUser, row: MemoryTrackerRow) =>
  (await presentMemoryTrackers(ctx, reader, [row]))[0]!;

/**
 * The user's own tracker: 404 when there is none, 403 when it is someone else's. To be recalled
 * (asked, answered, repeated, nudged) its note must also still be the user's to recall: an
 * unsubscribed notebook's trackers stay in history but are not recalled.
 */
export async function ownTracker(
  ctx: AppContext,
  current: CurrentUser,
  trackerId: number,
  purpose: "recall" | "look" = "recall",
): Promise<MemoryTrackerRow> {
  const row = await ctx.stores.memory.tracker(trackerId);
  if (!row) throw new NotFoundError("Memory tracker");
  authorizeOwnRecord(current, row.userId, "memory tracker");
  if (purpose === "recall") await authorizeRecall(ctx, current, (await requireNoteWithNotebook(ctx, row.noteId)).notebook);
  return row;
}

export const intervalsOf = (current: CurrentUser) => parseSpaceIntervals(current.user.spaceIntervals);

/** The tracker as a review left it: a repeated answer key is a 400, a tracker gone meanwhile a 404. */
export function reviewed(result: RepeatResult): MemoryTrackerRow {
  if (result.status === "already-recorded") throw new BadRequestError(ALREADY_RECORDED);
  if (result.status === "not-found") throw new NotFoundError("Memory tracker");
  return result.tracker;
}

export async function markTrackerAsRepeated(
  ctx: AppContext,
  current: CurrentUser,
  trackerId: number,
  successful: boolean,
  thinkingTimeMs?: unknown,
  idempotencyKey?: string,
) {
  const thinking = thinkingTime(thinkingTimeMs);
  await refuseRepeatedKey(ctx, current.user.id, idempotencyKey);
  const tracker = await ownTracker(ctx, current, trackerId);
  const now = ctx.clock.now();
  const plan = planReview(now, current, successful ? "success" : "failure", "self-review", {
    randomizer: ctx.randomizer,
    thinkingTimeMs: thinking,
  });
  const row = reviewed(await ctx.stores.memory.repeat(current.user.id, tracker.id, plan, appliedNow(idempotencyKey, now, successful)));
  return presentMemoryTracker(ctx, current, row);
}

/** "Sad" (−5) or "happy" (+5): a nudge to the interval without counting a repetition. */
export async function selfEvaluate(ctx: AppContext, current: CurrentUser, trackerId: number, adjustment: number) {
  if (!Number.isInteger(adjustment) || Math.abs(adjustment) > 100) {
    throw new ValidationError({ adjustment: "must be a whole number from -100 to 100" });
  }
  const tracker = await ownTracker(ctx, current, trackerId);
  const outcome = `${adjustment >= 0 ? "+" : ""}${adjustment}` as `+${number}`;
  const plan = planReview(ctx.clock.now(), current, outcome, "self-evaluation", { randomizer: ctx.randomizer });
  const row = reviewed(await ctx.stores.memory.repeat(current.user.id, tracker.id, plan));
  return presentMemoryTracker(ctx, current, row);
}

/** Stops recalling the tracker (it still keeps the note out of assimilation). */
export async function removeFromTracking(ctx: AppContext, current: CurrentUser, trackerId: number) {
  const tracker = await ownTracker(ctx, current, trackerId, "look");
  const row = await ctx.stores.memory.removeFromTracking(tracker.id, ctx.clock.now());
  if (!row) throw new NotFoundError("Memory tracker");
  return presentMemoryTracker(ctx, current, row);
}

export async function showTracker(ctx: AppContext, current: CurrentUser, trackerId: number) {
  return presentMemoryTracker(ctx, current, await ownTracker(ctx, current, trackerId, "look"));
}

const RECENT_LIMIT = 100;

/** "Recently Learned": the user's trackers by assimilation time, newest first (removed ones too). */
export async function recentlyLearned(ctx: AppContext, current: CurrentUser) {
  const rows = await ctx.stores.memory.recentTrackers(current.user.id, "assimilated", RECENT_LIMIT);
  return presentMemoryTrackers(ctx, current, rows);
}

/** "Recently Reviewed": by last recall time, newest first. */
export async function recentlyReviewed(ctx: AppContext, current: CurrentUser) {
  const rows = await ctx.stores.memory.recentTrackers(current.user.id, "recalled", RECENT_LIMIT);
  return presentMemoryTrackers(ctx, current, rows);
}

export interface RecallSettingJson {
  level: number;
  rememberSpelling: boolean;
  skipMemoryTracking: boolean;
}

/** NoteInfo (GET /notes/{note}/note-info). */
export interface NoteInfoJson {
  note: NoteRealmJson;
  recallSetting: RecallSettingJson;
  memoryTrackers: MemoryTrackerJson[];
  createdAt: string;
}

/** NoteInfo: the note's realm, its recall setting and the user's active trackers for it. */
export async function noteInfo(ctx: AppContext, current: CurrentUser, noteId: number): Promise<NoteInfoJson> {
  const { note, notebook } = await requireNoteWithNotebook(ctx, noteId);
  await authorizeRead(ctx, current, notebook);
  const trackers = await ctx.stores.memory.activeTrackersOfNote(current.user.id, note.id);
  return {
    note: await noteRealm(ctx, current, note.id),
    recallSetting: { level: note.level, rememberSpelling: note.rememberSpelling, skipMemoryTracking: note.skipMemoryTracking },
    memoryTrackers: await presentMemoryTrackers(ctx, current, trackers),
    createdAt: note.createdAt.toISOString(),
  };
}

/**
 * Changes a note's recall setting. Links follow the level: every link under the note and every
 * link to it gets at least the new level.
 */
export async function updateRecallSetting(ctx: AppContext, current: CurrentUser, noteId: number, input: Partial<RecallSettingJson>) {
  const { note, notebook } = await requireNoteWithNotebook(ctx, noteId);
  await authorizeEdit(ctx, current, notebook);
  const errors: Record<string, string> = {};
  if (input.level !== undefined && (!Number.isInteger(input.level) || input.level < 0 || input.level > 6)) {
    errors.level = "must be from 0 to 6";
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
  await ctx.stores.memory.updateRecallSetting(note.id, {
    level: input.level ?? note.level,
    rememberSpelling: input.rememberSpelling ?? note.rememberSpelling,
    skipMemoryTracking: input.skipMemoryTracking ?? note.skipMemoryTracking,
  });
  return { noteId: note.id };
}
