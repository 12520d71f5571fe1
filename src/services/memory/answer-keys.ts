/**
 * Idempotency keys of answers: the browser names each answer once (a random id) and sends that
 * name with it, online or from its offline queue. The first time a key is seen its outcome is
 * stored with it in the answer's own transaction; any later request with that key (a retry after
 * a lost reply, a second tab, a second sync) finds it and counts nothing again.
 */
import type { AppContext } from "../../context";
import type { AnswerKeyRecord } from "../../store/memory/memory-store";
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

/** An answer applied now, at once, with its key (when the request sent one) and its outcome. */
export function appliedNow(key: string | undefined, now: Date, correct: boolean): AnswerKeyRecord | undefined {
  if (key === undefined) return undefined;
  return { key, answeredAt: now, appliedAt: now, outcome: { status: "applied", correct, reviewedAt: now.toISOString() } };
}

/**
 * For an online answer: a key already applied is refused before anything is looked at (the
 * answer's unit of work checks it again, so two requests at once cannot both count).
 */
export async function refuseRepeatedKey(ctx: AppContext, userId: number, key: string | undefined) {
  if (key !== undefined && (await ctx.stores.memory.storedOutcome(userId, key)) !== undefined) throw new BadRequestError(ALREADY_RECORDED);
}
