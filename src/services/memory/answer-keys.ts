/**
 * Idempotency keys of answers: the browser names each answer once (a random id) and sends that
 * name with it, online or from its offline queue. The first time a key is seen its outcome is
 * stored with it in the answer's own transaction; any later request with that key (a retry after
 * a lost reply, a second tab, a second sync) finds it and counts nothing again.
 */
import { and, eq, lt } from "drizzle-orm";
import type { DbHandle } from "../../db/connection";
import { appliedAnswers } from "../../db/schema";
import { BadRequestError, ValidationError } from "../errors";

/** Random ids as browsers make them (crypto.randomUUID) or any URL-safe id of 8 to 64 characters. */
const KEY_PATTERN = /^[A-Za-z0-9_-]{8,64}$/;
export const KEY_MESSAGE = "must be 8 to 64 letters, digits, - or _";

/** Keys are kept this long; answers older than the sync's age limit are refused anyway, so an older retry cannot count. */
export const ANSWER_KEY_RETENTION_MS = 60 * 86_400_000;

export const ALREADY_RECORDED = "This answer has already been recorded";

/** The key of a request (undefined when none was sent); a malformed one is a 400. */
export function answerKey(value: unknown, field = "idempotencyKey"): string | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value !== "string" || !KEY_PATTERN.test(value)) throw new ValidationError({ [field]: KEY_MESSAGE });
  return value;
}

/** The outcome stored for a key (JSON text), or undefined when it was never applied. */
export function storedOutcome(tx: DbHandle, userId: number, key: string): string | undefined {
  return tx
    .select({ outcome: appliedAnswers.outcome })
    .from(appliedAnswers)
    .where(and(eq(appliedAnswers.userId, userId), eq(appliedAnswers.idempotencyKey, key)))
    .get()?.outcome;
}

/** For an online answer: a key already applied is refused before anything changes. */
export function refuseRepeatedKey(tx: DbHandle, userId: number, key: string | undefined) {
  if (key !== undefined && storedOutcome(tx, userId, key) !== undefined) throw new BadRequestError(ALREADY_RECORDED);
}

export function recordAnswerKey(
  tx: DbHandle,
  row: { userId: number; key: string; memoryTrackerId: number; answeredAt: Date; appliedAt: Date; outcome: unknown },
) {
  tx.insert(appliedAnswers)
    .values({
      userId: row.userId,
      idempotencyKey: row.key,
      memoryTrackerId: row.memoryTrackerId,
      answeredAt: row.answeredAt,
      appliedAt: row.appliedAt,
      outcome: JSON.stringify(row.outcome),
    })
    .run();
}

/** Forgets keys past their retention (cheap: the applied_at index). */
export function pruneAnswerKeys(tx: DbHandle, now: Date) {
  tx.delete(appliedAnswers)
    .where(lt(appliedAnswers.appliedAt, new Date(now.getTime() - ANSWER_KEY_RETENTION_MS)))
    .run();
}
