import { describe, expect, test } from "bun:test";
import { RateLimiter } from "../../src/services/auth/rate-limiter";
import { Clock } from "../../src/services/clock";

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

describe("sign-in rate limiter", () => {
  const rules = { maxFailures: 3, windowMs: 60_000, lockMs: 300_000 };

  test("locks a key after too many failures and unlocks after the lock time", () => {
    const limiter = new RateLimiter(rules);
    for (let i = 0; i < 2; i++) limiter.recordFailure("user:a", 1000);
    expect(limiter.lockedFor("user:a", 1000)).toBe(0);
    limiter.recordFailure("user:a", 1000);
    expect(limiter.lockedFor("user:a", 1000)).toBe(300_000);
    expect(limiter.lockedFor("user:a", 301_000)).toBe(0);
    expect(limiter.lockedFor("user:b", 1000)).toBe(0);
  });

  test("failures outside the window start a new count, and a success clears the key", () => {
    const limiter = new RateLimiter(rules);
    limiter.recordFailure("k", 0);
    limiter.recordFailure("k", 1);
    limiter.recordFailure("k", 70_000);
    expect(limiter.lockedFor("k", 70_000)).toBe(0);
    limiter.recordFailure("k", 70_001);
    limiter.recordSuccess("k");
    limiter.recordFailure("k", 70_002);
    expect(limiter.lockedFor("k", 70_002)).toBe(0);
  });
});
