/**
 * The scheduler settings of a user and the one-time conversion of their trackers when
 * they switch between the classic forgetting curve and FSRS (rules in scheduling/fsrs.ts).
 */
import type { TrackerConversion } from "../../store/memory/memory-store";
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
 * How each active tracker is converted when the scheduler changes: to FSRS, it gets a stability
 * and difficulty (from its logged recalls); back, the index of its FSRS interval and no FSRS
 * state. The times stay, so nothing becomes due by switching.
 */
export function trackerConversion(after: UserRow): { to: "fsrs" | "forgetting-curve"; convert: TrackerConversion } {
  const settings = fsrsSettingsOf(after);
  if (schedulerOf(after) === "fsrs") return { to: "fsrs", convert: (tracker, history) => toFsrs(tracker, settings, history) };
  return {
    to: "forgetting-curve",
    convert: (tracker) => ({
      forgettingCurveIndex: toForgettingCurve(tracker, settings).forgettingCurveIndex,
      stability: null,
      difficulty: null,
    }),
  };
}
