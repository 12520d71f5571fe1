/**
 * How long an MCP (bearer) token lives: 90 days unless chosen otherwise when it is generated
 * (or never), refused (401) once expired; gone after an admin's password reset (account recovery,
 * from the Users tab or `engram admin reset-password`), and, when the user asks, after their own
 * password change.
 */
import { beforeEach, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { runAdminCommand } from "../../src/admin-cli";
import { type HttpClient, useTestServer } from "../support/server";
import { sqlRow, sqlRows } from "../support/test-database";

const DAY_MS = 86_400_000;

describe("token lifetime", () => {
  const server = useTestServer();
  let learner: HttpClient;
  let admin: HttpClient;

  const generate = (body: Record<string, unknown>) => learner.post("/api/user/generate-token", { label: "assistant", ...body });
  /** Whether the token still opens the MCP endpoint (405 for GET with a good token, 401 otherwise). */
  const works = async (token: string) => (await server.client().withBearer(token).get("/api/user")).status === 200;
  const travelDays = (days: number) =>
    server.client().post("/api/testability/time_travel", { travel_to: JSON.stringify(new Date(Date.now() + days * DAY_MS).toISOString()) });
  const learnerAccountId = async () =>
    (await sqlRow<{ id: number }>(server, sql`SELECT id FROM accounts WHERE external_identifier = 'old_learner'`))!.id;

  beforeEach(async () => {
    await travelDays(0);
    learner = await server.client().loginAs("old_learner");
    admin = await server.client().loginAs("admin");
  });

  test("a token expires after 90 days by default, and is then refused and shown as expired", async () => {
    const created = await generate({});
    expect(created.status).toBe(200);
    const expiresAt = Date.parse(created.body.expiresAt);
    expect(Math.round((expiresAt - Date.now()) / DAY_MS)).toBe(90);
    expect(await works(created.body.token)).toBe(true);
    await travelDays(89);
    expect(await works(created.body.token)).toBe(true);
    await travelDays(91);
    expect(await works(created.body.token)).toBe(false);
    expect((await server.client().withBearer(created.body.token).get("/api/mcp")).status).toBe(401);
    expect((await learner.get("/api/user/get-tokens")).body[0]).toMatchObject({ id: created.body.id, status: "expired" });
  });

  test("the expiry is chosen when generating: a number of days, or never", async () => {
    const week = await generate({ expiresInDays: 7 });
    expect(Math.round((Date.parse(week.body.expiresAt) - Date.now()) / DAY_MS)).toBe(7);
    const forever = await generate({ expiresInDays: null });
    expect(forever.body.expiresAt).toBeNull();
    await travelDays(3650);
    expect(await works(week.body.token)).toBe(false);
    expect(await works(forever.body.token)).toBe(true);
    const listed = (await learner.get("/api/user/get-tokens")).body;
    expect(listed.map((t: { status: string; expiresAt: string | null }) => [t.status, t.expiresAt === null])).toEqual([
      ["active", true],
      ["expired", false],
    ]);
    for (const bad of [0, -1, 3651, 1.5, "soon"]) {
      const refused = await generate({ expiresInDays: bad });
      expect(refused.status).toBe(400);
      expect(refused.body.errors.expiresInDays).toBe("must be a whole number of days from 1 to 3650, or null for never");
    }
  });

  test("an admin's password reset revokes the account's tokens once the new password is set", async () => {
    const { token } = (await generate({})).body;
    const reset = await admin.post(`/api/admin/users/${await learnerAccountId()}/password-reset`);
    expect(reset.status).toBe(200);
    expect(await works(token)).toBe(true);
    const used = await server.client().request("POST", reset.body.path, { form: { newPassword: "a new password" } });
    expect(used.status).toBe(303);
    expect(await works(token)).toBe(false);
    expect(await sqlRows(server, sql`SELECT * FROM user_tokens`)).toEqual([]);
  });

  test("engram admin reset-password revokes them too", async () => {
    const { token } = (await generate({ expiresInDays: null })).body;
    const lines: string[] = [];
    const code = await runAdminCommand(
      ["reset-password", "old_learner"],
      { ENGRAM_MODE: "test", ENGRAM_DATA_DIR: server.ctx.config.dataDir, ENGRAM_DATABASE_URL: server.ctx.config.databaseUrl },
      {
        log: (line) => lines.push(line),
        error: (line) => lines.push(line),
      },
    );
    expect(code).toBe(0);
    const path = new URL(lines[0]!.slice(lines[0]!.lastIndexOf("http"))).pathname;
    expect((await server.client().request("POST", path, { form: { newPassword: "a new password" } })).status).toBe(303);
    expect(await works(token)).toBe(false);
  });

  test("a user's own password change revokes their tokens when they ask", async () => {
    // The test identity gets a password through a reset link first.
    const reset = await admin.post(`/api/admin/users/${await learnerAccountId()}/password-reset`);
    await server.client().request("POST", reset.body.path, { form: { newPassword: "first password" } });
    learner = await server.client().loginAs("old_learner"); // the reset ended every session
    const kept = (await generate({})).body.token;
    const changed = await learner.post("/api/user/password", { currentPassword: "first password", newPassword: "second password" });
    expect(changed.status).toBe(200);
    expect(changed.body.revokedTokens).toBe(0);
    expect(await works(kept)).toBe(true);
    const revoked = await learner.post("/api/user/password", {
      currentPassword: "second password",
      newPassword: "third password",
      revokeTokens: true,
    });
    expect(revoked.status).toBe(200);
    expect(revoked.body.revokedTokens).toBe(1);
    expect(await works(kept)).toBe(false);
  });
});
