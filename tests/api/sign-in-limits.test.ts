import { beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { readConfig } from "../../src/config";
import { createContext } from "../../src/context";
import { createApp } from "../../src/server";
import { LIMITS } from "../../src/services/auth/rate-limiter";
import { freshPostgresDatabase, postgresTestUrl } from "../support/database-under-test";
import { clearSignInLimits, HttpClient, useTestServer } from "../support/server";
import { sqlRows } from "../support/test-database";

const MINUTE = 60_000;

/** Sign-in through the form, from a client address given to the trusted proxy (127.0.0.1) in X-Forwarded-For. */
function signInFrom(client: HttpClient, address: string, username: string, password: string) {
  return client.request("POST", "/users/sign-in", { form: { username, password }, headers: { "x-forwarded-for": address } });
}
function signUpFrom(client: HttpClient, address: string, username: string, password: string) {
  return client.request("POST", "/users/sign-up", { form: { username, password }, headers: { "x-forwarded-for": address } });
}

describe("sign-in limits behind a trusted proxy (production mode)", () => {
  const server = useTestServer({ ENGRAM_MODE: "production", ENGRAM_TRUSTED_PROXIES: "127.0.0.1, ::1" }, { resetBeforeEach: false });
  let now = Date.parse("2030-01-01T12:00:00Z");
  const travel = (ms: number) => {
    now += ms;
    return server.ctx.clock.travelTo(new Date(now));
  };
  beforeEach(async () => {
    await clearSignInLimits(server);
    travel(0);
  });

  test("one user's failures do not lock out another user from the same address; the account is locked from every address", async () => {
    await signUpFrom(server.client(), "192.0.2.1", "alice", "alice password");
    await signUpFrom(server.client(), "192.0.2.1", "bob", "bob password");
    const attacker = server.client();
    for (let i = 0; i < 5; i++) expect((await signInFrom(attacker, "198.51.100.1", "alice", `guess ${i}`)).status).toBe(400);

    // Bob, behind the same proxy address as the attacker, signs in.
    const bob = server.client();
    expect((await signInFrom(bob, "198.51.100.1", "bob", "bob password")).status).toBe(303);
    expect(bob.sessionCookie).toBeDefined();

    // Alice's account waits a minute, from the attacker's address and from her own, even with the right password.
    for (const address of ["198.51.100.1", "203.0.113.5"]) {
      const alice = server.client();
      const locked = await signInFrom(alice, address, "alice", "alice password");
      expect(locked.status).toBe(429);
      expect(locked.text).toContain("Too many attempts, try again in 1 minute.");
      expect(alice.sessionCookie).toBeUndefined();
    }
    travel(MINUTE + 1);
    expect((await signInFrom(server.client(), "203.0.113.5", "alice", "alice password")).status).toBe(303);
  });

  test("the account backoff doubles after each further failure and stops at 15 minutes; a success clears it", async () => {
    await signUpFrom(server.client(), "192.0.2.2", "carol", "carol password");
    const attacker = server.client();
    for (let i = 0; i < 5; i++) await signInFrom(attacker, "198.51.100.2", "carol", `guess ${i}`);
    const waits: string[] = [];
    for (const minutes of [1, 2, 4, 8, 15, 15]) {
      const locked = await signInFrom(attacker, "198.51.100.2", "carol", "another guess");
      expect(locked.status).toBe(429);
      waits.push(locked.text.match(/try again in (\d+ minutes?)/)![1]!);
      travel(minutes * MINUTE - 1);
      expect((await signInFrom(attacker, "198.51.100.2", "carol", "too early")).status).toBe(429);
      travel(1);
      expect((await signInFrom(attacker, "198.51.100.2", "carol", "one more guess")).status).toBe(400);
    }
    expect(waits).toEqual(["1 minute", "2 minutes", "4 minutes", "8 minutes", "15 minutes", "15 minutes"]);

    travel(15 * MINUTE);
    expect((await signInFrom(server.client(), "192.0.2.2", "carol", "carol password")).status).toBe(303);
    // The success forgot the failures: the next wrong password is only a wrong password.
    expect((await signInFrom(attacker, "198.51.100.2", "carol", "guess again")).status).toBe(400);
  });

  test("unknown usernames count toward the per-address limit of 100 failures in 15 minutes", async () => {
    await signUpFrom(server.client(), "192.0.2.3", "dave", "dave password");
    const nowMs = server.ctx.clock.now().getTime();
    // 98 failures already counted from this address, then two more with usernames nobody has.
    for (let i = 0; i < 98; i++) await server.ctx.signInLimiter.record("address:198.51.100.3", LIMITS.address, nowMs);
    const attacker = server.client();
    expect((await signInFrom(attacker, "198.51.100.3", "nobody-1", "whatever1")).status).toBe(400);
    expect((await signInFrom(attacker, "198.51.100.3", "nobody-2", "whatever2")).status).toBe(400);

    const fromThere = await signInFrom(server.client(), "198.51.100.3", "dave", "dave password");
    expect(fromThere.status).toBe(429);
    expect(fromThere.text).toContain("Too many attempts, try again in 15 minutes.");
    expect((await signInFrom(server.client(), "198.51.100.4", "dave", "dave password")).status).toBe(303);
    travel(15 * MINUTE + 1);
    expect((await signInFrom(server.client(), "198.51.100.3", "dave", "dave password")).status).toBe(303);
  });

  test("X-Forwarded-For from a trusted proxy names the client: the right-most untrusted address", async () => {
    await signInFrom(server.client(), "6.6.6.6, 198.51.100.9", "nobody", "whatever1");
    const keys = await sqlRows<{ key: string }>(server, sql`SELECT key FROM sign_in_limits WHERE key LIKE 'address:%'`);
    expect(keys.map((k) => k.key)).toEqual(["address:198.51.100.9"]);
  });

  test("sign-ups are limited per address: 10 an hour", async () => {
    for (let i = 0; i < 10; i++)
      expect((await signUpFrom(server.client(), "198.51.100.5", `newcomer${i}`, "password123")).status).toBe(303);
    const refused = await signUpFrom(server.client(), "198.51.100.5", "newcomer10", "password123");
    expect(refused.status).toBe(429);
    expect(refused.text).toContain("Too many attempts, try again in 60 minutes.");
    expect((await signUpFrom(server.client(), "198.51.100.6", "newcomer11", "password123")).status).toBe(303);
    travel(60 * MINUTE + 1);
    expect((await signUpFrom(server.client(), "198.51.100.5", "newcomer12", "password123")).status).toBe(303);
  });
});

describe("sign-in limits without a trusted proxy", () => {
  const server = useTestServer({ ENGRAM_MODE: "production" }, { resetBeforeEach: false });

  test("X-Forwarded-For is ignored when the socket's address is not a trusted proxy", async () => {
    await signInFrom(server.client(), "198.51.100.9", "nobody", "whatever1");
    const keys = await sqlRows<{ key: string }>(server, sql`SELECT key FROM sign_in_limits WHERE key LIKE 'address:%'`);
    expect(keys.map((k) => k.key)).toEqual(["address:127.0.0.1"]);
  });
});

describe("sign-in limits survive a restart", () => {
  test("an account locked before the restart is still locked after it (same database)", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "engram-limits-"));
    const postgres = postgresTestUrl() ? await freshPostgresDatabase(postgresTestUrl()!) : undefined;
    const start = async () => {
      const database = postgres ? { ENGRAM_DATABASE_URL: postgres.url, ENGRAM_DATABASE_POOL_SIZE: "2" } : {};
      const ctx = await createContext(readConfig({ ENGRAM_MODE: "production", ENGRAM_DATA_DIR: dataDir, PORT: "0", ...database }));
      const app = createApp(ctx).listen({ port: 0, hostname: "127.0.0.1" });
      return { ctx, app, client: () => new HttpClient(`http://127.0.0.1:${app.server!.port}`) };
    };
    try {
      const first = await start();
      await first.client().signUp("erin", "erin password");
      for (let i = 0; i < 5; i++) await first.client().signIn("erin", `guess ${i}`);
      await first.app.stop(true);
      await first.ctx.database.close();

      const second = await start();
      const locked = await second.client().signIn("erin", "erin password");
      expect(locked.status).toBe(429);
      expect(locked.text).toContain("Too many attempts, try again in 1 minute.");
      await second.app.stop(true);
      await second.ctx.database.close();
    } finally {
      await postgres?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
