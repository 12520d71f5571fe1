/**
 * The scheduler settings of a user and the one-time conversion of their trackers when
 * they switch between the classic forgetting curve and FSRS (rules in scheduling/fsrs.ts).
 */
import { and, eq } from "drizzle-orm";
import type { DbHandle } from "../../db/connection";
import { memoryTrackers, recallLogTrackerCounts } from "../../db/schema";
import {
  DEFAULT_MAXIMUM_INTERVAL_DAYS,
  MAX_DESIRED_RETENTION,
  MIN_DESIRED_RETENTION,
  SCHEDULERS,
  type SchedulerName,
  toForgettingCurve,
  toFsrs,
} from "../scheduling/fsrs";
import type { UserRow } from "../user-rows";
import { fsrsSettingsOf, schedulerOf } from "./reviews";

export interface SchedulerSettingsInput {
  scheduler?: unknown;
  desiredRetention?: unknown;
  maximumIntervalDays?: unknown;
}

export const SCHEDULER_MESSAGE = 'must be "forgetting-curve" or "fsrs"';
export const RETENTION_MESSAGE = `must be a number from ${MIN_DESIRED_RETENTION} to ${MAX_DESIRED_RETENTION}`;
export const MAXIMUM_INTERVAL_MESSAGE = `must be a whole number of days from 1 to ${DEFAULT_MAXIMUM_INTERVAL_DAYS}`;

/** The user's scheduler settings as GET /api/user answers them. */
export function presentSchedulerSettings(user: UserRow) {
  return { scheduler: schedulerOf(user), desiredRetention: user.desiredRetention, maximumIntervalDays: user.maximumIntervalDays };
}

/** Checks the scheduler fields of a PATCH; adds field errors, answers the changes. */
export function schedulerChanges(input: SchedulerSettingsInput, errors: Record<string, string>): Partial<UserRow> {
  const changes: Partial<UserRow> = {};
  if (input.scheduler !== undefined) {
    if (typeof input.scheduler !== "string" || !SCHEDULERS.includes(input.scheduler as SchedulerName)) errors.scheduler = SCHEDULER_MESSAGE;
    else changes.scheduler = input.scheduler;
  }
  if (input.desiredRetention !== undefined) {
    const value = input.desiredRetention;
    if (typeof value !== "number" || !Number.isFinite(value) || value < MIN_DESIRED_RETENTION || value > MAX_DESIRED_RETENTION)
      errors.desiredRetention = RETENTION_MESSAGE;
    else changes.desiredRetention = value;
  }
  if (input.maximumIntervalDays !== undefined) {
    const value = input.maximumIntervalDays;
    if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > DEFAULT_MAXIMUM_INTERVAL_DAYS)
      errors.maximumIntervalDays = MAXIMUM_INTERVAL_MESSAGE;
    else changes.maximumIntervalDays = value;
  }
  return changes;
}

/**
 * Converts the user's trackers once when the scheduler changed (in the settings' transaction):
 * to FSRS, each active tracker gets a stability and difficulty; back, each gets the index of its
 * FSRS interval and loses its FSRS state. The times stay, so nothing becomes due by switching.
 */
export function convertTrackersOnSwitch(tx: DbHandle, before: UserRow, after: UserRow): number {
  const [from, to] = [schedulerOf(before), schedulerOf(after)];
  if (from === to) return 0;
  const settings = fsrsSettingsOf(after);
  const active = tx
    .select()
    .from(memoryTrackers)
    .where(and(eq(memoryTrackers.userId, after.id), eq(memoryTrackers.removedFromTracking, false)))
    .all();
  if (to === "fsrs") {
    // Logged recalls per tracker (recall_log_tracker_counts, kept by a trigger on the log).
    const history = new Map(
      tx
        .select()
        .from(recallLogTrackerCounts)
        .where(eq(recallLogTrackerCounts.userId, after.id))
        .all()
        .map((row) => [row.memoryTrackerId, { successes: row.successes, failures: row.failures }]),
    );
    for (const tracker of active) {
      const { stability, difficulty } = toFsrs(tracker, settings, history.get(tracker.id));
      tx.update(memoryTrackers).set({ stability, difficulty }).where(eq(memoryTrackers.id, tracker.id)).run();
    }
  } else {
    for (const tracker of active) {
      const { forgettingCurveIndex } = toForgettingCurve(tracker, settings);
      tx.update(memoryTrackers)
        .set({ forgettingCurveIndex, stability: null, difficulty: null })
        .where(eq(memoryTrackers.id, tracker.id))
        .run();
    }
    // Trackers removed while on FSRS keep no FSRS state either.
    tx.update(memoryTrackers).set({ stability: null, difficulty: null }).where(eq(memoryTrackers.userId, after.id)).run();
  }
  return active.length;
}
