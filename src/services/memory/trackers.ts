import { and, desc, eq, inArray, isNotNull, or } from "drizzle-orm";
import type { AppContext } from "../../context";
import type { DbHandle } from "../../db/connection";
import { memoryTrackers, notes } from "../../db/schema";
import { NotFoundError, ValidationError } from "../errors";
import { type NoteJson, NotePresenter, type NoteRealmJson, presentNoteRealm } from "../notes/presenters";
import { ancestorsOf, getNote, getNotebook, notesByIds } from "../notes/rows";
import { authorizeEdit, authorizeOwnRecord, authorizeRead, authorizeRecall } from "../policies";
import type { Randomizer } from "../randomizer";
import { parseSpaceIntervals } from "../scheduling/forgetting-curve";
import type { CurrentUser } from "../users";
import { recordAnswerKey, refuseRepeatedKey } from "./answer-keys";
import { type ReviewKind, reviewTracker, thinkingTime } from "./reviews";

export type MemoryTrackerRow = typeof memoryTrackers.$inferSelect;

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
export function presentMemoryTrackers(ctx: AppContext, reader: CurrentUser, rows: MemoryTrackerRow[]): MemoryTrackerJson[] {
  const noteRows = notesByIds(ctx, [...new Set(rows.map((r) => r.noteId))]);
  const presenter = new NotePresenter(ctx, reader).preload(noteRows);
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

export const presentMemoryTracker = (ctx: AppContext, reader: CurrentUser, row: MemoryTrackerRow) =>
  presentMemoryTrackers(ctx, reader, [row])[0]!;

/**
 * The user's own tracker: 404 when there is none, 403 when it is someone else's. To be recalled
 * (asked, answered, repeated, nudged) its note must also still be the user's to recall: an
 * unsubscribed notebook's trackers stay in history but are not recalled.
 */
export function ownTracker(
  ctx: AppContext,
  current: CurrentUser,
  trackerId: number,
  purpose: "recall" | "look" = "recall",
): MemoryTrackerRow {
  const row = ctx.db.select().from(memoryTrackers).where(eq(memoryTrackers.id, trackerId)).get();
  if (!row) throw new NotFoundError("Memory tracker");
  authorizeOwnRecord(current, row.userId, "memory tracker");
  if (purpose === "recall") authorizeRecall(ctx, current, getNotebook(ctx, getNote(ctx, row.noteId).notebookId));
  return row;
}

export const intervalsOf = (current: CurrentUser) => parseSpaceIntervals(current.user.spaceIntervals);

/**
 * Repeats a tracker (success or failure) with the user's scheduler, as recalled at `now`, and logs
 * the review (src/services/memory/reviews.ts) in the caller's transaction.
 */
export function repeatTracker(
  tx: DbHandle,
  now: Date,
  current: CurrentUser,
  tracker: MemoryTrackerRow,
  successful: boolean,
  kind: ReviewKind = "self-review",
  randomizer?: Randomizer,
  thinkingTimeMs: number | null = null,
): MemoryTrackerRow {
  return reviewTracker(tx, now, current, tracker, successful ? "success" : "failure", kind, { randomizer, thinkingTimeMs });
}

export function markTrackerAsRepeated(
  ctx: AppContext,
  current: CurrentUser,
  trackerId: number,
  successful: boolean,
  thinkingTimeMs?: unknown,
  idempotencyKey?: string,
) {
  const thinking = thinkingTime(thinkingTimeMs);
  const row = ctx.db.transaction((tx) => {
    refuseRepeatedKey(tx, current.user.id, idempotencyKey);
    const now = ctx.clock.now();
    const repeated = repeatTracker(
      tx,
      now,
      current,
      ownTracker(ctx, current, trackerId),
      successful,
      "self-review",
      ctx.randomizer,
      thinking,
    );
    if (idempotencyKey !== undefined) {
      recordAnswerKey(tx, {
        userId: current.user.id,
        key: idempotencyKey,
        memoryTrackerId: repeated.id,
        answeredAt: now,
        appliedAt: now,
        outcome: { status: "applied", correct: successful, reviewedAt: now.toISOString() },
      });
    }
    return repeated;
  });
  return presentMemoryTracker(ctx, current, row);
}

/** "Sad" (−5) or "happy" (+5): a nudge to the interval without counting a repetition. */
export function selfEvaluate(ctx: AppContext, current: CurrentUser, trackerId: number, adjustment: number) {
  if (!Number.isInteger(adjustment) || Math.abs(adjustment) > 100) {
    throw new ValidationError({ adjustment: "must be a whole number from -100 to 100" });
  }
  const row = ctx.db.transaction((tx) => {
    const tracker = ownTracker(ctx, current, trackerId);
    const outcome = `${adjustment >= 0 ? "+" : ""}${adjustment}` as `+${number}`;
    return reviewTracker(tx, ctx.clock.now(), current, tracker, outcome, "self-evaluation", { randomizer: ctx.randomizer });
  });
  return presentMemoryTracker(ctx, current, row);
}

/** Stops recalling the tracker (it still keeps the note out of assimilation). */
export function removeFromTracking(ctx: AppContext, current: CurrentUser, trackerId: number) {
  const tracker = ownTracker(ctx, current, trackerId, "look");
  const row = ctx.db
    .update(memoryTrackers)
    .set({ removedFromTracking: true, lastRecalledAt: ctx.clock.now() })
    .where(eq(memoryTrackers.id, tracker.id))
    .returning()
    .get()!;
  return presentMemoryTracker(ctx, current, row);
}

export function showTracker(ctx: AppContext, current: CurrentUser, trackerId: number) {
  return presentMemoryTracker(ctx, current, ownTracker(ctx, current, trackerId, "look"));
}

const RECENT_LIMIT = 100;

/** "Recently Learned": the user's trackers by assimilation time, newest first (removed ones too). */
export function recentlyLearned(ctx: AppContext, current: CurrentUser) {
  const rows = ctx.db
    .select()
    .from(memoryTrackers)
    .where(eq(memoryTrackers.userId, current.user.id))
    .orderBy(desc(memoryTrackers.assimilatedAt), desc(memoryTrackers.id))
    .limit(RECENT_LIMIT)
    .all();
  return presentMemoryTrackers(ctx, current, rows);
}

/** "Recently Reviewed": by last recall time, newest first. */
export function recentlyReviewed(ctx: AppContext, current: CurrentUser) {
  const rows = ctx.db
    .select()
    .from(memoryTrackers)
    .where(eq(memoryTrackers.userId, current.user.id))
    .orderBy(desc(memoryTrackers.lastRecalledAt), desc(memoryTrackers.id))
    .limit(RECENT_LIMIT)
    .all();
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
export function noteInfo(ctx: AppContext, current: CurrentUser, noteId: number): NoteInfoJson {
  const note = getNote(ctx, noteId);
  const notebook = getNotebook(ctx, note.notebookId);
  authorizeRead(ctx, current, notebook);
  const trackers = ctx.db
    .select()
    .from(memoryTrackers)
    .where(
      and(eq(memoryTrackers.userId, current.user.id), eq(memoryTrackers.noteId, note.id), eq(memoryTrackers.removedFromTracking, false)),
    )
    .orderBy(memoryTrackers.spelling, memoryTrackers.id)
    .all();
  return {
    note: presentNoteRealm(ctx, current, note, notebook, ancestorsOf(ctx, note)),
    recallSetting: { level: note.level, rememberSpelling: note.rememberSpelling, skipMemoryTracking: note.skipMemoryTracking },
    memoryTrackers: presentMemoryTrackers(ctx, current, trackers),
    createdAt: note.createdAt.toISOString(),
  };
}

/**
 * Changes a note's recall setting. Links follow the level: every link under the note and every
 * link to it gets at least the new level.
 */
export function updateRecallSetting(ctx: AppContext, current: CurrentUser, noteId: number, input: Partial<RecallSettingJson>) {
  const note = getNote(ctx, noteId);
  authorizeEdit(ctx, current, getNotebook(ctx, note.notebookId));
  const errors: Record<string, string> = {};
  if (input.level !== undefined && (!Number.isInteger(input.level) || input.level < 0 || input.level > 6)) {
    errors.level = "must be from 0 to 6";
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
  const level = input.level ?? note.level;
  ctx.db.transaction((tx) => {
    tx.update(notes)
      .set({
        level,
        rememberSpelling: input.rememberSpelling ?? note.rememberSpelling,
        skipMemoryTracking: input.skipMemoryTracking ?? note.skipMemoryTracking,
      })
      .where(eq(notes.id, note.id))
      .run();
    const linkIds = tx
      .select({ id: notes.id, level: notes.level })
      .from(notes)
      .where(and(isNotNull(notes.targetNoteId), or(eq(notes.parentId, note.id), eq(notes.targetNoteId, note.id))))
      .all()
      .filter((link) => link.level < level)
      .map((link) => link.id);
    if (linkIds.length) tx.update(notes).set({ level }).where(inArray(notes.id, linkIds)).run();
  });
  return { noteId: note.id };
}
