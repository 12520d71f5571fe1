import { beforeEach, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { clearSignInLimits, useTestServer } from "../support/server";
import { sqlRows } from "../support/test-database";

describe("accounts and sessions (production mode)", () => {
  const server = useTestServer({ ENGRAM_MODE: "production" }, { resetBeforeEach: false });
  // Every client here comes from 127.0.0.1: start each test without the sign-up and sign-in counts of the others.
  beforeEach(() => clearSignInLimits(server));

  test("the first account to sign up is an admin, later ones are not", async () => {
    const first = server.client();
    const signUp = await first.signUp("founder", "correct horse");
    expect(signUp.status).toBe(303);
    expect(signUp.headers.get("location")).toBe("/");
    const cookie = signUp.headers.getSetCookie()[0]!;
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Lax");
    expect((await first.post("/api/user", { name: "Founder" })).body.admin).toBe(true);

    const second = server.client();
    await second.signUp("learner", "another password");
    const profile = await second.post("/api/user", { name: "Learner" });
    expect(profile.status).toBe(200);
    expect(profile.body).toMatchObject({ name: "Learner", externalIdentifier: "learner", admin: false });
  });

  test("only the SHA-256 of the session token is stored", async () => {
    const client = server.client();
    await client.signUp("hashcheck", "password123");
    const token = client.sessionCookie!;
    const rows = await sqlRows<{ id: string }>(server, sql`SELECT id FROM sessions`);
    expect(rows.some((r) => r.id === token)).toBe(false);
    const expected = new Bun.CryptoHasher("sha256").update(token).digest("hex");
    expect(rows.some((r) => r.id === expected)).toBe(true);
  });

  test("sign-up refuses short passwords, bad usernames and taken usernames with field errors", async () => {
    const client = server.client();
    const short = await client.signUp("shorty", "1234567");
    expect(short.status).toBe(400);
    expect(short.text).toContain("The password must be at least 8 characters long");
    const spaces = await client.signUp("has space", "long enough");
    expect(spaces.text).toContain("Use 3 to 50 letters");
    await server.client().signUp("taken", "password123");
    const taken = await client.signUp("taken", "password456");
    expect(taken.status).toBe(400);
    expect(taken.text).toContain("This username is already taken");
    expect(client.sessionCookie).toBeUndefined();
  });

  test("sign-in with the right password starts a session, the wrong one does not", async () => {
    await server.client().signUp("returning", "my password");
    const client = server.client();
    const wrong = await client.signIn("returning", "not my password");
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain("Wrong username or password");
    expect(client.sessionCookie).toBeUndefined();
    const right = await client.request("POST", "/users/sign-in?from=%2Fd%2Frecall", {
      form: { username: "returning", password: "my password" },
    });
    expect(right.status).toBe(303);
    expect(right.headers.get("location")).toBe("/d/recall");
    expect((await client.get("/api/user/current-user-info")).body).toEqual({ externalIdentifier: "returning" });
  });

  test("sign-in never redirects to another site", async () => {
    await server.client().signUp("redirected", "password123");
    const result = await server.client().request("POST", "/users/sign-in?from=%2F%2Fevil.example", {
      form: { username: "redirected", password: "password123" },
    });
    expect(result.headers.get("location")).toBe("/");
  });

  test("repeated failed sign-ins lock the account, even with the right password, but not other accounts", async () => {
    await server.client().signUp("target", "the password");
    await server.client().signUp("bystander", "bystander password");
    const attacker = server.client();
    for (let i = 0; i < 5; i++) expect((await attacker.signIn("target", `guess ${i}`)).status).toBe(400);
    const locked = await attacker.signIn("target", "the password");
    expect(locked.status).toBe(429);
    expect(locked.text).toContain("Too many attempts, try again in 1 minute.");
    expect((await server.client().signIn("bystander", "bystander password")).status).toBe(303);
  });

  test("logout deletes the session and browsers land on the bazaar", async () => {
    const client = server.client();
    await client.signUp("leaving", "password123");
    await client.post("/api/user", { name: "Leaving" });
    const token = client.sessionCookie!;
    const logout = await client.request("POST", "/logout", { headers: { accept: "text/html" } });
    expect(logout.status).toBe(303);
    expect(logout.headers.get("location")).toBe("/d/bazaar");
    const again = server.client();
    const reuse = await again.get("/api/user", { cookie: `engram_session=${token}` });
    expect(reuse.status).toBe(401);
    expect((await client.request("POST", "/logout")).status).toBe(204);
  });

  test("production has no test login: healthcheck with basic auth creates no session", async () => {
    const client = server.client();
    const result = await client.get("/api/healthcheck", { authorization: `Basic ${btoa("admin:password")}` });
    expect(result.status).toBe(200);
    expect(client.sessionCookie).toBeUndefined();
    expect((await client.get("/users/identify")).status).toBe(404);
  });

  test("every testability endpoint answers 404 in production", async () => {
    const client = server.client();
    for (const path of [
      "clean_db_and_reset_testability_settings",
      "time_travel",
      "time_travel_relative_to_now",
      "randomizer",
      "feature_toggle",
      "replace_service_url",
      "trigger_exception",
      "update_current_user",
    ]) {
      expect((await client.post(`/api/testability/${path}`, {})).status).toBe(404);
    }
    expect((await client.get("/api/testability/feature_toggle")).status).toBe(404);
  });
});
