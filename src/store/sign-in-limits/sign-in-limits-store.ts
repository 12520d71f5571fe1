/**
 * The sign-in, sign-up and password-change limits: attempts counted per key in sign_in_limits, so
 * limits hold across restarts and across every process on the database. Counting is one atomic
 * upsert (the count grows in the database, never from a value read before), and `attempt` checks
 * the locks and counts in one write unit, so parallel guesses on several processes cannot all slip
 * past a limit. Times are milliseconds from the caller's clock.
 */
import { and, eq, inArray, isNull, lt, or, sql } from "drizzle-orm";
import { defineStore, read, type StoreOf, write } from "../define";
import { all, forUpdate, run, type Session, type Step } from "../session";

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

function* longestLock(s: Session, keys: string[], now: number, toWrite: boolean): Step<number> {
  if (keys.length === 0) return 0;
  const limits = s.t.signInLimits;
  if (toWrite && s.dialect !== "sqlite") {
    // PostgreSQL locks rows, not their absence: every key gets a row (no attempts yet) to lock,
    // in one order whoever asks (two attempts inserting the same new keys in opposite orders would deadlock).
    const empty = { attempts: 0, windowStartedAt: new Date(now), lastAttemptAt: new Date(now), lockedUntil: null };
    yield* run(
      s,
      s.db
        .insert(limits)
        .values([...keys].sort().map((key) => ({ key, ...empty })))
        .onConflictDoNothing(),
    );
  }
  const query = s.db.select({ lockedUntil: limits.lockedUntil }).from(limits).where(inArray(limits.key, keys));
  const rows = yield* all(s, toWrite ? forUpdate(s, query) : query);
  return Math.max(0, ...rows.map((row) => (row.lockedUntil?.getTime() ?? 0) - now));
}

/** Milliseconds the most locked of the keys is still locked for; 0 when all may try. */
export function* lockedFor(s: Session, keys: string[], now: number): Step<number> {
  return yield* longestLock(s, keys, now, false);
}

/** Counts one attempt for the key, locking it when the rule says so; answers the lock in ms (0: not locked). */
export function* record(s: Session, key: string, rule: LimitRule, now: number): Step<number> {
  const limits = s.t.signInLimits;
  const since = rule.windowFrom === "first" ? limits.windowStartedAt : limits.lastAttemptAt;
  const expired = lt(since, new Date(now - rule.windowMs));
  const [counted] = yield* all(
    s,
    s.db
      .insert(limits)
      .values({ key, attempts: 1, windowStartedAt: new Date(now), lastAttemptAt: new Date(now), lockedUntil: null })
      .onConflictDoUpdate({
        target: limits.key,
        set: {
          attempts: sql`CASE WHEN ${expired} THEN 1 ELSE ${limits.attempts} + 1 END`,
          windowStartedAt: sql`CASE WHEN ${expired} THEN ${sql.param(new Date(now), limits.windowStartedAt)} ELSE ${limits.windowStartedAt} END`,
          lastAttemptAt: new Date(now),
          lockedUntil: null,
        },
      })
      .returning({ attempts: limits.attempts }),
  );
  const attempts = counted!.attempts;
  const lock = attempts >= rule.maxAttempts ? rule.lockMs(attempts) : 0;
  if (lock > 0)
    yield* run(
      s,
      s.db
        .update(limits)
        .set({ lockedUntil: new Date(now + lock) })
        .where(eq(limits.key, key)),
    );
  return lock;
}

/**
 * One attempt: when any of the `check` keys is locked, answers how long (ms) and counts nothing;
 * otherwise counts an attempt for each of `records` and answers 0. Checking and counting are one
 * unit, so two processes cannot both pass the last free attempt.
 */
export function* attempt(s: Session, check: string[], records: { key: string; rule: LimitRule }[], now: number): Step<number> {
  const locked = yield* longestLock(s, check, now, true);
  if (locked > 0) return locked;
  for (const { key, rule } of records) yield* record(s, key, rule, now);
  return 0;
}

/** Takes back one attempt counted for the key (it turned out fine), and its lock if the count no longer reaches the rule. */
export function* forgive(s: Session, key: string, rule: LimitRule): Step<void> {
  const limits = s.t.signInLimits;
  const remaining = sql`CASE WHEN ${limits.attempts} > 0 THEN ${limits.attempts} - 1 ELSE 0 END`;
  yield* run(
    s,
    s.db
      .update(limits)
      .set({
        attempts: remaining,
        lockedUntil: sql`CASE WHEN ${remaining} >= ${rule.maxAttempts} THEN ${limits.lockedUntil} ELSE NULL END`,
      })
      .where(eq(limits.key, key)),
  );
}

/** Forgets the key (after a successful sign-in or password change). */
export function* clear(s: Session, key: string): Step<void> {
  yield* run(s, s.db.delete(s.t.signInLimits).where(eq(s.t.signInLimits.key, key)));
}

/** Drops rows that no longer lock anything and whose count has run out (a day without attempts). */
export function* forgetOld(s: Session, now: number): Step<void> {
  const limits = s.t.signInLimits;
  yield* run(
    s,
    s.db
      .delete(limits)
      .where(
        and(
          lt(limits.lastAttemptAt, new Date(now - 24 * 3_600_000)),
          or(isNull(limits.lockedUntil), lt(limits.lockedUntil, new Date(now))),
        ),
      ),
  );
}

export const signInLimitsStore = defineStore({
  lockedFor: read(lockedFor),
  record: write(record),
  attempt: write(attempt),
  forgive: write(forgive),
  clear: write(clear),
  forgetOld: write(forgetOld),
});
export type SignInLimitsStore = StoreOf<typeof signInLimitsStore>;
