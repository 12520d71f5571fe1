/** Reading the recall log (GET /api/recall-log): the user's own rows, newest first. */
import { and, desc, eq } from "drizzle-orm";
import type { AppContext } from "../../context";
import { recallLog } from "../../db/schema";
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
export function recallLogRows(
  ctx: AppContext,
  current: CurrentUser,
  trackerId: number | undefined,
  limit = DEFAULT_RECALL_LOG_LIMIT,
): RecallLogJson[] {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_RECALL_LOG_LIMIT) {
    throw new ValidationError({ limit: `must be a whole number from 1 to ${MAX_RECALL_LOG_LIMIT}` });
  }
  if (trackerId !== undefined) ownTracker(ctx, current, trackerId);
  const where =
    trackerId === undefined
      ? eq(recallLog.userId, current.user.id)
      : and(eq(recallLog.userId, current.user.id), eq(recallLog.memoryTrackerId, trackerId));
  return ctx.db
    .select()
    .from(recallLog)
    .where(where)
    .orderBy(desc(recallLog.reviewedAt), desc(recallLog.id))
    .limit(limit)
    .all()
    .map((row) => ({
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
