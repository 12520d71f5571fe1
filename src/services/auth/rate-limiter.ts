import { and, eq, isNull, lt, or } from "drizzle-orm";
import type { Db } from "../../db/connection";
import { signInLimits } from "../../db/schema";
import { TooManyRequestsError } from "../errors";

const MINUTE = 60_000;

/** How a kind of key is limited. */
export interface LimitRule {
  /** Attempts counted before the key is locked. */
  maxAttempts: number;
  /** The count starts again this long after the first attempt ("first") or after the last one ("last"). */
  windowMs: number;
  windowFrom: "first" | "last";
  /** How long the key is locked after its attempts reach maxAttempts (called with the count). */
  lockMs(attempts: number): number;
}

/** Backoff after the 5th failure: 1 minute, doubling with each further failure, capped at 15 minutes. */
export const accountBackoffMs = (failures: number) => (failures < 5 ? 0 : Math.min(MINUTE * 2 ** (failures - 5), 15 * MINUTE));

export const LIMITS = {
  /** Failed sign-ins of one account name, from every address; forgotten after a day without failures or on a success. */
  account: { maxAttempts: 5, windowMs: 24 * 60 * MINUTE, windowFrom: "last", lockMs: accountBackoffMs },
  /** Failed sign-ins from one client address (unknown usernames included): 100 in 15 minutes locks it for 15 minutes. */
  address: { maxAttempts: 100, windowMs: 15 * MINUTE, windowFrom: "first", lockMs: () => 15 * MINUTE },
  /** Sign-ups from one client address: 10 an hour. */
  signUp: { maxAttempts: 10, windowMs: 60 * MINUTE, windowFrom: "first", lockMs: () => 60 * MINUTE },
  /** Wrong current passwords in a password change, per account: the same backoff as sign-in. */
  passwordChange: { maxAttempts: 5, windowMs: 24 * 60 * MINUTE, windowFrom: "last", lockMs: accountBackoffMs },
} satisfies Record<string, LimitRule>;

/** The message of every lockout. */
export function tooManyAttempts(lockedMs: number) {
  const minutes = Math.max(1, Math.ceil(lockedMs / MINUTE));
  return new TooManyRequestsError(`Too many attempts, try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`);
}

/**
 * Counts attempts per key ("account:<name>", "address:<ip>", "sign-up:<ip>", "password:<id>") in
 * the sign_in_limits table, so limits hold across restarts. Times come from the caller (the clock service).
 */
export class RateLimiter {
  private writes = 0;

  constructor(private readonly db: Db) {}

  /** Milliseconds the key is still locked for, 0 when it may try. */
  lockedFor(key: string, now: number): number {
    const row = this.db.select({ lockedUntil: signInLimits.lockedUntil }).from(signInLimits).where(eq(signInLimits.key, key)).get();
    const until = row?.lockedUntil?.getTime() ?? 0;
    return until > now ? until - now : 0;
  }

  /** Throws the lockout error when any of the keys is locked. */
  check(keys: string[], now: number) {
    const lockedMs = Math.max(0, ...keys.map((key) => this.lockedFor(key, now)));
    if (lockedMs > 0) throw tooManyAttempts(lockedMs);
  }

  /** Counts one attempt for the key; locks it when the rule says so. Answers the lock in ms (0 when not locked). */
  record(key: string, rule: LimitRule, now: number): number {
    const lockMs = this.db.transaction((tx) => {
      const row = tx.select().from(signInLimits).where(eq(signInLimits.key, key)).get();
      const since = row && (rule.windowFrom === "first" ? row.windowStartedAt : row.lastAttemptAt).getTime();
      const fresh = !row || since === undefined || now - since > rule.windowMs;
      const attempts = fresh ? 1 : row.attempts + 1;
      const windowStartedAt = fresh ? new Date(now) : row.windowStartedAt;
      const lock = attempts >= rule.maxAttempts ? rule.lockMs(attempts) : 0;
      const values = { attempts, windowStartedAt, lastAttemptAt: new Date(now), lockedUntil: lock ? new Date(now + lock) : null };
      tx.insert(signInLimits)
        .values({ key, ...values })
        .onConflictDoUpdate({ target: signInLimits.key, set: values })
        .run();
      return lock;
    });
    if (++this.writes % 200 === 0) this.forgetOld(now);
    return lockMs;
  }

  /** Takes back one attempt counted for the key (an attempt that turned out fine), and its lock if it no longer reaches the rule. */
  forgive(key: string, rule: LimitRule) {
    const row = this.db.select().from(signInLimits).where(eq(signInLimits.key, key)).get();
    if (!row) return;
    const attempts = Math.max(0, row.attempts - 1);
    const lockedUntil = attempts >= rule.maxAttempts ? row.lockedUntil : null;
    this.db.update(signInLimits).set({ attempts, lockedUntil }).where(eq(signInLimits.key, key)).run();
  }

  /** Forgets the key (after a successful sign-in or password change). */
  clear(key: string) {
    this.db.delete(signInLimits).where(eq(signInLimits.key, key)).run();
  }

  /** Drops rows that no longer lock anything and whose count has run out (a day without attempts). */
  forgetOld(now: number) {
    this.db
      .delete(signInLimits)
      .where(
        and(
          lt(signInLimits.lastAttemptAt, new Date(now - 24 * 60 * MINUTE)),
          or(isNull(signInLimits.lockedUntil), lt(signInLimits.lockedUntil, new Date(now))),
        ),
      )
      .run();
  }
}
