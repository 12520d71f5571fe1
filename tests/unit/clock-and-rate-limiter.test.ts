import { describe, expect, test } from "bun:test";
import { openDatabase } from "../../src/db/connection";
import { accountBackoffMs, LIMITS, type LimitRule, RateLimiter } from "../../src/services/auth/rate-limiter";
import { Clock } from "../../src/services/clock";
import { SqliteDatabase } from "../../src/store/database";
import { signInLimitsStore } from "../../src/store/sign-in-limits/sign-in-limits-store";

describe("clock", () => {
  test("travels to an instant, relative to now, and back to real time", () => {
    const clock = new Clock();
    clock.travelTo(new Date("1976-06-02T08:00:00Z"));
    expect(clock.now().toISOString()).toBe("1976-06-02T08:00:00.000Z");
    clock.travelRelativeToNow(24);
    expect(Math.abs(clock.now().getTime() - (Date.now() + 86_400_000))).toBeLessThan(1000);
    clock.reset();
    expect(Math.abs(clock.now().getTime() - Date.now())).toBeLessThan(1000);
  });
});

describe("sign-in rate limiter (in the database)", () => {
  const rule: LimitRule = { maxAttempts: 3, windowMs: 60_000, windowFrom: "first", lockMs: () => 300_000 };
  const limiterOn = ({ sqlite, db }: ReturnType<typeof openDatabase>) => new RateLimiter(signInLimitsStore(new SqliteDatabase(sqlite, db)));
  const newLimiter = () => limiterOn(openDatabase(":memory:"));

  test("locks a key after too many attempts and unlocks after the lock time", async () => {
    const limiter = newLimiter();
    for (let i = 0; i < 2; i++) expect(await limiter.record("user:a", rule, 1000)).toBe(0);
    expect(await limiter.lockedFor("user:a", 1000)).toBe(0);
    expect(await limiter.record("user:a", rule, 1000)).toBe(300_000);
    expect(await limiter.lockedFor("user:a", 1000)).toBe(300_000);
    expect(await limiter.lockedFor("user:a", 301_000)).toBe(0);
    expect(await limiter.lockedFor("user:b", 1000)).toBe(0);
    await expect(limiter.check(["user:b", "user:a"], 1000)).rejects.toThrow("Too many attempts, try again in 5 minutes.");
    await expect(limiter.check(["user:a"], 241_000)).rejects.toThrow("Too many attempts, try again in 1 minute.");
  });

  test("attempts outside the window start a new count; clear and forgive take attempts back", async () => {
    const limiter = newLimiter();
    await limiter.record("k", rule, 0);
    await limiter.record("k", rule, 1);
    await limiter.record("k", rule, 70_000);
    expect(await limiter.lockedFor("k", 70_000)).toBe(0);
    await limiter.record("k", rule, 70_001);
    await limiter.clear("k");
    await limiter.record("k", rule, 70_002);
    expect(await limiter.lockedFor("k", 70_002)).toBe(0);
    await limiter.record("k", rule, 70_003);
    await limiter.record("k", rule, 70_004);
    expect(await limiter.lockedFor("k", 70_004)).toBeGreaterThan(0);
    await limiter.forgive("k", rule);
    expect(await limiter.lockedFor("k", 70_004)).toBe(0);
  });

  test("an attempt checks and counts at once: refused while a key is locked, counting nothing then", async () => {
    const opened = openDatabase(":memory:");
    const limiter = limiterOn(opened);
    const attempts = () =>
      opened.sqlite.query<{ key: string; attempts: number }, []>("SELECT key, attempts FROM sign_in_limits ORDER BY key").all();
    for (let i = 0; i < 3; i++)
      await limiter.attempt(
        ["name", "address"],
        [
          ["name", rule],
          ["address", { ...rule, maxAttempts: 10 }],
        ],
        1000,
      );
    expect(attempts()).toEqual([
      { key: "address", attempts: 3 },
      { key: "name", attempts: 3 },
    ]);
    await expect(limiter.attempt(["name", "address"], [["address", rule]], 2000)).rejects.toThrow(
      "Too many attempts, try again in 5 minutes.",
    );
    expect(attempts()).toEqual([
      { key: "address", attempts: 3 },
      { key: "name", attempts: 3 },
    ]);
  });

  test("the account backoff: 1 minute after the 5th failure, doubling, capped at 15 minutes", async () => {
    expect([4, 5, 6, 7, 8, 9, 10, 20].map(accountBackoffMs)).toEqual([0, 1, 2, 4, 8, 15, 15, 15].map((m) => m * 60_000));
    const limiter = newLimiter();
    let now = 0;
    const locks: number[] = [];
    for (let i = 0; i < 9; i++) {
      now += await limiter.lockedFor("account:a", now); // wait out each lock, then fail again
      locks.push((await limiter.record("account:a", LIMITS.account, now)) / 60_000);
    }
    expect(locks).toEqual([0, 0, 0, 0, 1, 2, 4, 8, 15]);
  });

  test("old rows that lock nothing are forgotten", async () => {
    const opened = openDatabase(":memory:");
    const { sqlite } = opened;
    const limiter = limiterOn(opened);
    await limiter.record("old", rule, 0);
    for (let i = 0; i < 3; i++) await limiter.record("old but locked", { ...rule, lockMs: () => 2 * 86_400_000 }, 0);
    await limiter.record("recent", rule, 86_400_000);
    await limiter.forgetOld(86_400_000 + 60_001);
    const keys = sqlite
      .query<{ key: string }, []>("SELECT key FROM sign_in_limits ORDER BY key")
      .all()
      .map((r) => r.key);
    expect(keys).toEqual(["old but locked", "recent"]);
  });
});
