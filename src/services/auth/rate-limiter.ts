import type { LimitRule, SignInLimitsStore } from "../../store/sign-in-limits/sign-in-limits-store";
import { TooManyRequestsError } from "../errors";

export type { LimitRule } from "../../store/sign-in-limits/sign-in-limits-store";

const MINUTE = 60_000;

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
 * the database (the sign-in limits store), so limits hold across restarts and processes. Times come
 * from the caller (the clock service).
 */
export class RateLimiter {
  private writes = 0;

  constructor(private readonly store: SignInLimitsStore) {}

  /** Milliseconds the key is still locked for, 0 when it may try. */
  lockedFor(key: string, now: number): Promise<number> {
    return this.store.lockedFor([key], now);
  }

  /** Throws the lockout error when any of the keys is locked. */
  async check(keys: string[], now: number) {
    const lockedMs = await this.store.lockedFor(keys, now);
    if (lockedMs > 0) throw tooManyAttempts(lockedMs);
  }

  /**
   * One attempt, checked and counted at once: throws the lockout error when any of the `check`
   * keys is locked (counting nothing), otherwise counts an attempt for each key of `records`.
   */
  async attempt(check: string[], records: [key: string, rule: LimitRule][], now: number) {
    const lockedMs = await this.store.attempt(
      check,
      records.map(([key, rule]) => ({ key, rule })),
      now,
    );
    if (lockedMs > 0) throw tooManyAttempts(lockedMs);
    await this.tidy(now);
  }

  /** Counts one attempt for the key; locks it when the rule says so. Answers the lock in ms (0 when not locked). */
  async record(key: string, rule: LimitRule, now: number): Promise<number> {
    const lockMs = await this.store.record(key, rule, now);
    await this.tidy(now);
    return lockMs;
  }

  /** Takes back one attempt counted for the key (an attempt that turned out fine), and its lock if it no longer reaches the rule. */
  forgive(key: string, rule: LimitRule) {
    return this.store.forgive(key, rule);
  }

  /** Forgets the key (after a successful sign-in or password change). */
  clear(key: string) {
    return this.store.clear(key);
  }

  /** Drops rows that no longer lock anything and whose count has run out (a day without attempts). */
  forgetOld(now: number) {
    return this.store.forgetOld(now);
  }

  private async tidy(now: number) {
    if (++this.writes % 200 === 0) await this.store.forgetOld(now);
  }
}
