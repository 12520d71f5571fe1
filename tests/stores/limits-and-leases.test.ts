import { describe, expect, test } from "bun:test";
import { leasesStore } from "../../src/store/leases/leases-store";
import { requestResultsStore } from "../../src/store/request-results/request-results-store";
import { type LimitRule, signInLimitsStore } from "../../src/store/sign-in-limits/sign-in-limits-store";
import { databaseUnderTestOfFile } from "../support/database-under-test";

const under = databaseUnderTestOfFile();

const three: LimitRule = { maxAttempts: 3, windowMs: 60_000, windowFrom: "first", lockMs: () => 30_000 };

describe("sign-in limits store", () => {
  test("attempts count per key, lock at the limit, and are forgiven and cleared", async () => {
    const { signInLimits } = under.stores;
    for (let i = 0; i < 2; i++) expect(await signInLimits.record("account:ann", three, 1000 + i)).toBe(0);
    expect(await signInLimits.record("account:ann", three, 1002)).toBe(30_000);
    expect(await signInLimits.lockedFor(["account:ann", "address:x"], 2002)).toBe(29_000);
    await signInLimits.forgive("account:ann", three);
    expect(await signInLimits.lockedFor(["account:ann"], 2002)).toBe(0);
    await signInLimits.clear("account:ann");
    // The window starts again after a clear.
    expect(await signInLimits.record("account:ann", three, 5000)).toBe(0);
    await signInLimits.forgetOld(5000 + 25 * 3_600_000);
    expect(await signInLimits.record("account:ann", three, 5000 + 25 * 3_600_000)).toBe(0);
  });

  test("six parallel attempts against a limit of three, through two databases: exactly three get through", async () => {
    const other = signInLimitsStore(await under.another());
    const stores = [under.stores.signInLimits, other];
    // The key's row exists already (an earlier attempt, counted under a limit of four): the race is
    // on an existing row, which nothing but the unit's lock orders.
    const four = { ...three, maxAttempts: 4 };
    await under.stores.signInLimits.record("account:bob", four, 9_000);
    const outcomes = await Promise.all(
      Array.from({ length: 6 }, (_, i) => stores[i % 2]!.attempt(["account:bob"], [{ key: "account:bob", rule: four }], 10_000)),
    );
    expect(outcomes.filter((locked) => locked === 0).length).toBe(3);
    expect(outcomes.filter((locked) => locked > 0).length).toBe(3);
  });
});

describe("leases store", () => {
  test("one holder at a time: the other takes it only once it expired; the holder renews it", async () => {
    const { leases } = under.stores;
    expect(await leases.take("work", "a", 1000, 0)).toBe(true);
    expect(await leases.take("work", "b", 1000, 500)).toBe(false);
    expect(await leases.take("work", "a", 1000, 900)).toBe(true);
    expect(await leases.take("work", "b", 1000, 1500)).toBe(false);
    expect(await leases.take("work", "b", 1000, 1900)).toBe(true);
    await leases.release("work", "a");
    expect(await leases.take("work", "a", 1000, 2000)).toBe(false);
    await leases.release("work", "b");
    expect(await leases.take("work", "a", 1000, 2000)).toBe(true);
  });

  test("eight processes asking for a free lease at once: exactly one holds it", async () => {
    const other = leasesStore(await under.another());
    const stores = [under.stores.leases, other];
    const taken = await Promise.all(Array.from({ length: 8 }, (_, i) => stores[i % 2]!.take("backup", `p${i}`, 60_000, 0)));
    expect(taken.filter(Boolean).length).toBe(1);
  });
});

describe("request results store", () => {
  const key = { scope: "create-notebook", userId: 7, requestId: "r-1" };

  test("the first claims, a repeat sees it working, then gets its answer; a failed one frees the id", async () => {
    const { requestResults } = under.stores;
    expect(await requestResults.claim(key, 0, 60_000, 10_000)).toEqual({ state: "claimed" });
    expect(await requestResults.claim(key, 5, 60_000, 10_000)).toEqual({ state: "working" });
    expect(await requestResults.answer(key)).toBeNull();
    await requestResults.finish(key, '{"id":1}');
    expect(await requestResults.claim(key, 10, 60_000, 10_000)).toEqual({ state: "done", result: '{"id":1}' });
    const other = { ...key, requestId: "r-2" };
    expect(await requestResults.claim(other, 10, 60_000, 10_000)).toEqual({ state: "claimed" });
    await requestResults.forget(other);
    expect(await requestResults.answer(other)).toBeUndefined();
    // Too old to matter: claimed afresh.
    expect(await requestResults.claim(key, 70_000, 60_000, 10_000)).toEqual({ state: "claimed" });
  });

  test("the same request id sent to two processes at once is claimed by one", async () => {
    const other = requestResultsStore(await under.another());
    const stores = [under.stores.requestResults, other];
    const fresh = { ...key, requestId: "r-3" };
    const claims = await Promise.all(Array.from({ length: 6 }, (_, i) => stores[i % 2]!.claim(fresh, 100, 60_000, 10_000)));
    expect(claims.filter((c) => c.state === "claimed").length).toBe(1);
  });
});
