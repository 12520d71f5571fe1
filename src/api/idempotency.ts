import { answerKey } from "../services/memory/answer-keys";

/** The standard `Idempotency-Key` request header of an answer (memory/answer-keys.ts), or undefined. */
export const idempotencyKeyOf = (headers: Record<string, string | undefined>) => answerKey(headers["idempotency-key"], "Idempotency-Key");
