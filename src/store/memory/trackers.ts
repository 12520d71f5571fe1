/**
 * A learner's memory: memory trackers, their review log (recall_log, whose aggregates
 * recall_log_buckets and recall_log_tracker_counts follow it by trigger), the idempotency keys of
 * applied answers, and the counts the triggers keep for the lists (user_tracker_counts,
 * tracker_due_buckets, assimilation_candidates). The only writer of those tables.
 *
 * The scheduling rules stay in the services: a review comes in as a `ReviewPlanner`, a pure
 * function from the tracker as the unit of work reads it to its new schedule and log row, so the
 * read and the write are one unit and two reviews at once never lose one.
 */
import { and, desc, eq, gt, inArray, lt, ne } from "drizzle-orm";
import type { appliedAnswers, memoryTrackers, recallLog } from "../../db/schema";
import { all, forUpdate, lockRow, one, run, type Session, type Step } from "../session";

export type MemoryTrackerRow = typeof memoryTrackers.$inferSelect;
export type NewMemoryTracker = typeof memoryTrackers.$inferInsert;
export type RecallLogRow = typeof recallLog.$inferSelect;
export type NewRecallLogRow = typeof recallLog.$inferInsert;
export type AppliedAnswerRow = typeof appliedAnswers.$inferSelect;

/** A tracker's scheduling state. */
export type TrackerSchedule = Pick<
  MemoryTrackerRow,
  "forgettingCurveIndex" | "lastRecalledAt" | "nextRecallAt" | "repetitionCount" | "stability" | "difficulty"
>;

/** What a review changes: the tracker's new schedule and its log row (the tracker and user are added). */
export interface PlannedReview {
  schedule: TrackerSchedule;
  log: Omit<NewRecallLogRow, "memoryTrackerId" | "userId" | "stateAfter"> & { stateAfter: string };
}

/** The scheduler's decision for the tracker as it is in the unit of work. */
export type ReviewPlanner = (tracker: MemoryTrackerRow) => PlannedReview;

/** An answer's idempotency key, stored with the answer's outcome (JSON) in the answer's unit. */
export interface AnswerKeyRecord {
  key: string;
  answeredAt: Date;
  appliedAt: Date;
  outcome: unknown;
}

/** Rows per INSERT statement (SQLite takes up to 32,766 parameters: 10 columns × 500 is well within). */
const LOG_BATCH = 500;

export function* tracker(s: Session, id: number): Step<MemoryTrackerRow | undefined> {
  const m = s.t.memoryTrackers;
  return yield* one(s, s.db.select().from(m).where(eq(m.id, id)));
}

/**
 * The tracker, its row locked until the unit ends (PostgreSQL; a SQLite write unit is the only
 * writer): reviews of one tracker take turns from here, each reading the one before's schedule.
 */
export function* lockedTracker(s: Session, id: number): Step<MemoryTrackerRow | undefined> {
  const m = s.t.memoryTrackers;
  return yield* one(s, forUpdate(s, s.db.select().from(m).where(eq(m.id, id))));
}

/** The user's trackers, newest first by assimilation or by last recall (removed ones too). */
export function* recentTrackers(s: Session, userId: number, by: "assimilated" | "recalled", limit: number): Step<MemoryTrackerRow[]> {
  const m = s.t.memoryTrackers;
  const time = by === "assimilated" ? m.assimilatedAt : m.lastRecalledAt;
  return yield* all(s, s.db.select().from(m).where(eq(m.userId, userId)).orderBy(desc(time), desc(m.id)).limit(limit));
}

/** The user's trackers of a note still in recall, the normal one before the spelling one. */
export function* activeTrackersOfNote(s: Session, userId: number, noteId: number): Step<MemoryTrackerRow[]> {
  const m = s.t.memoryTrackers;
  return yield* all(
    s,
    s.db
      .select()
      .from(m)
      .where(and(eq(m.userId, userId), eq(m.noteId, noteId), eq(m.removedFromTracking, false)))
      .orderBy(m.spelling, m.id),
  );
}

/** Writes a planned review: the tracker's new schedule and its log row. Answers the tracker as saved. */
export function* reviewTracker(s: Session, userId: number, tracker: MemoryTrackerRow, planned: PlannedReview): Step<MemoryTrackerRow> {
  const m = s.t.memoryTrackers;
  const saved = yield* one(s, s.db.update(m).set(planned.schedule).where(eq(m.id, tracker.id)).returning());
  yield* run(s, s.db.insert(s.t.recallLog).values({ ...planned.log, memoryTrackerId: tracker.id, userId }));
  return saved!;
}

/** The outcome (JSON text) stored under an answer's key, or undefined when it was never applied. */
export function* storedOutcome(s: Session, userId: number, key: string): Step<string | undefined> {
  const a = s.t.appliedAnswers;
  const row = yield* one(
    s,
    s.db
      .select({ outcome: a.outcome })
      .from(a)
      .where(and(eq(a.userId, userId), eq(a.idempotencyKey, key))),
  );
  return row?.outcome;
}

export function* recordAnswerKey(s: Session, userId: number, trackerId: number, record: AnswerKeyRecord): Step<void> {
  yield* run(
    s,
    s.db.insert(s.t.appliedAnswers).values({
      userId,
      idempotencyKey: record.key,
      memoryTrackerId: trackerId,
      answeredAt: record.answeredAt,
      appliedAt: record.appliedAt,
      outcome: JSON.stringify(record.outcome),
    }),
  );
}

/** Forgets the keys applied before `before` (cheap: the applied_at index). */
export function* pruneAnswerKeys(s: Session, before: Date): Step<void> {
  const a = s.t.appliedAnswers;
  yield* run(s, s.db.delete(a).where(lt(a.appliedAt, before)));
}

export type RepeatResult =
  | { status: "already-recorded" }
  | { status: "not-found" }
  | { status: "reviewed"; before: MemoryTrackerRow; tracker: MemoryTrackerRow };

/**
 * One review of the user's tracker in one unit: a key already applied changes nothing; otherwise
 * the tracker is read, reviewed as the planner says, and the key (when given) stored with it.
 */
export function* repeat(s: Session, userId: number, trackerId: number, plan: ReviewPlanner, key?: AnswerKeyRecord): Step<RepeatResult> {
  // Locked first, so that a second request with the same key waits here and then finds the key.
  const before = yield* lockedTracker(s, trackerId);
  if (key && (yield* storedOutcome(s, userId, key.key)) !== undefined) return { status: "already-recorded" };
  if (!before || before.userId !== userId) return { status: "not-found" };
  const saved = yield* reviewTracker(s, userId, before, plan(before));
  if (key) yield* recordAnswerKey(s, userId, saved.id, key);
  return { status: "reviewed", before, tracker: saved };
}

/** Stops recalling the tracker (it still keeps the note out of assimilation). */
export function* removeFromTracking(s: Session, trackerId: number, now: Date): Step<MemoryTrackerRow | undefined> {
  const m = s.t.memoryTrackers;
  return yield* one(s, s.db.update(m).set({ removedFromTracking: true, lastRecalledAt: now }).where(eq(m.id, trackerId)).returning());
}

/**
 * Logs the assimilation of freshly inserted trackers (the first row of their history); skipped
 * notes are not learned, so not logged. `stateOf` is the tracker's state as the log shows it.
 */
export function* logAssimilation(
  s: Session,
  userId: number,
  rows: MemoryTrackerRow[],
  stateOf: (row: MemoryTrackerRow) => string,
): Step<void> {
  const values = rows
    .filter((row) => !row.removedFromTracking)
    .map((row) => ({
      memoryTrackerId: row.id,
      userId,
      reviewedAt: row.assimilatedAt,
      kind: "assimilation",
      outcome: "success",
      stateAfter: stateOf(row),
    }));
  yield* insertLogRows(s, values);
}

/** Log rows as given, many at once (an import's reviews made in another app), one statement per batch. */
export function* insertLogRows(s: Session, values: NewRecallLogRow[]): Step<void> {
  for (let i = 0; i < values.length; i += LOG_BATCH) yield* run(s, s.db.insert(s.t.recallLog).values(values.slice(i, i + LOG_BATCH)));
}

/**
 * Assimilates a note: its new trackers and their first log rows in one unit. Null when the user
 * already has a tracker for the note (nothing is written: a retried request never counts twice).
 */
export function* assimilate(
  s: Session,
  userId: number,
  noteId: number,
  trackers: NewMemoryTracker[],
  stateOf: (row: MemoryTrackerRow) => string,
): Step<MemoryTrackerRow[] | null> {
  const { memoryTrackers: m, notes } = s.t;
  // Assimilations of one note take turns from here: the second finds the first's trackers.
  yield* lockRow(s, notes, noteId);
  const existing = yield* one(
    s,
    s.db
      .select({ id: m.id })
      .from(m)
      .where(and(eq(m.userId, userId), eq(m.noteId, noteId)))
      .limit(1),
  );
  if (existing) return null;
  const rows: MemoryTrackerRow[] = [];
  for (const values of trackers) rows.push((yield* one(s, s.db.insert(m).values(values).returning()))!);
  yield* logAssimilation(s, userId, rows, stateOf);
  return rows;
}

/** The user's log rows, or one tracker's, newest first. */
export function* recallLogRows(s: Session, userId: number, trackerId: number | undefined, limit: number): Step<RecallLogRow[]> {
  const l = s.t.recallLog;
  const where = trackerId === undefined ? eq(l.userId, userId) : and(eq(l.userId, userId), eq(l.memoryTrackerId, trackerId));
  return yield* all(s, s.db.select().from(l).where(where).orderBy(desc(l.reviewedAt), desc(l.id)).limit(limit));
}

/** The user's newest `limit` log rows, by tracker then time: what FSRS fitting reads. */
export function* reviewHistoryRows(
  s: Session,
  userId: number,
  limit: number,
): Step<{ trackerId: number; at: Date; kind: string; outcome: string }[]> {
  const l = s.t.recallLog;
  const newest = s.db.select({ id: l.id }).from(l).where(eq(l.userId, userId)).orderBy(desc(l.id)).limit(limit);
  return yield* all(
    s,
    s.db
      .select({ trackerId: l.memoryTrackerId, at: l.reviewedAt, kind: l.kind, outcome: l.outcome })
      .from(l)
      .where(inArray(l.id, newest))
      .orderBy(l.memoryTrackerId, l.reviewedAt, l.id),
  );
}

/**
 * Whether anything moved the tracker's schedule after `at`: a review logged after it (its
 * assimilation aside), or one of its questions answered after it.
 */
export function* reviewedAfter(s: Session, trackerId: number, at: Date): Step<boolean> {
  const { recallLog: l, recallPrompts: p } = s.t;
  const later = yield* one(
    s,
    s.db
      .select({ id: l.id })
      .from(l)
      .where(and(eq(l.memoryTrackerId, trackerId), gt(l.reviewedAt, at), ne(l.kind, "assimilation")))
      .limit(1),
  );
  if (later) return true;
  const answered = yield* one(
    s,
    s.db
      .select({ id: p.id })
      .from(p)
      .where(and(eq(p.memoryTrackerId, trackerId), gt(p.answeredAt, at)))
      .limit(1),
  );
  return !!answered;
}

/** What converting a tracker to another scheduler changes, from the tracker and its logged recalls. */
export type TrackerConversion = (
  tracker: MemoryTrackerRow,
  history: { successes: number; failures: number } | undefined,
) => Partial<TrackerSchedule>;

/**
 * The user's trackers a conversion to `to` writes (the active ones; leaving FSRS, the removed ones
 * too, whose FSRS state goes), locked in id order until the unit ends (PostgreSQL; a SQLite write
 * unit is the only writer). Lock them before the unit writes anything: a review meanwhile waits,
 * rather than have its schedule overwritten by the conversion of the row before it, and one that
 * holds a tracker written later never waits for a version the conversion raised before.
 */
export function* lockTrackersToConvert(s: Session, userId: number, to: "fsrs" | "forgetting-curve"): Step<MemoryTrackerRow[]> {
  const m = s.t.memoryTrackers;
  const which = to === "fsrs" ? and(eq(m.userId, userId), eq(m.removedFromTracking, false)) : eq(m.userId, userId);
  return yield* all(s, forUpdate(s, s.db.select().from(m).where(which).orderBy(m.id)));
}

/**
 * Converts the user's trackers, locked by lockTrackersToConvert, to another scheduler (in the
 * settings' unit): the active ones as `convert` says; leaving FSRS, the removed ones lose their
 * FSRS state too. Answers how many trackers were converted.
 */
export function* convertTrackers(
  s: Session,
  userId: number,
  locked: MemoryTrackerRow[],
  to: "fsrs" | "forgetting-curve",
  convert: TrackerConversion,
): Step<number> {
  const { memoryTrackers: m, recallLogTrackerCounts: c } = s.t;
  const active = locked.filter((row) => !row.removedFromTracking);
  // Logged recalls per tracker (recall_log_tracker_counts, kept by a trigger on the log).
  const counts = to === "fsrs" ? yield* all(s, s.db.select().from(c).where(eq(c.userId, userId))) : [];
  const history = new Map(counts.map((row) => [row.memoryTrackerId, { successes: row.successes, failures: row.failures }]));
  for (const row of active)
    yield* run(
      s,
      s.db
        .update(m)
        .set(convert(row, history.get(row.id)))
        .where(eq(m.id, row.id)),
    );
  if (to !== "fsrs") yield* run(s, s.db.update(m).set({ stability: null, difficulty: null }).where(eq(m.userId, userId)));
  return active.length;
}
