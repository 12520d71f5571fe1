/** Reading the recall log (GET /api/recall-log): the user's own rows, newest first. */
import type { AppContext } from "../../context";
import { ValidationError } from "../errors";
import type { CurrentUser } from "../users";
import { ownTracker } from "./trackers";

export const DEFAULT_RECALL_LOG_LIMIT = 100;
export const MAX_RECALL_LOG_LIMIT = 1000;

export interface RecallLogJson {
  id: number;
  memoryTrackerId: number;
  reviewedAt: string;
  kind: string;
  outcome: string;
  thinkingTimeMs: number | null;
  scheduledHours: number | null;
  elapsedHours: number | null;
  stateBefore: unknown;
  stateAfter: unknown;
}

const parse = (text: string | null) => (text === null ? null : JSON.parse(text));

/** One tracker's rows (another user's tracker is 403, a missing one 404), or all the user's rows. */
export async function recallLogRows(
  ctx: AppContext,
  current: CurrentUser,
  trackerId: number | undefined,
  limit = DEFAULT_RECALL_LOG_LIMIT,
): Promise<RecallLogJson[]> {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_RECALL_LOG_LIMIT) {
    throw new ValidationError({ limit: `must be a whole number from 1 to ${MAX_RECALL_LOG_LIMIT}` });
  }
  if (trackerId !== undefined) await ownTracker(ctx, current, trackerId);
  return (await ctx.stores.memory.recallLogRows(current.user.id, trackerId, limit)).map((row) => ({
    id: row.id,
    memoryTrackerId: row.memoryTrackerId,
    reviewedAt: row.reviewedAt.toISOString(),
    kind: row.kind,
    outcome: row.outcome,
    thinkingTimeMs: row.thinkingTimeMs,
    scheduledHours: row.scheduledHours,
    elapsedHours: row.elapsedHours,
    stateBefore: parse(row.stateBefore),
    stateAfter: parse(row.stateAfter),
  }));
}
