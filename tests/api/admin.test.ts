/**
 * The admin area over real HTTP: every admin call as admin (works), as a user (403) and signed out
 * (401); failure reports (scrubbed of secrets, listed, shown with an issue link, deleted); users
 * (admin rights with at least one admin kept, disabling, one-time password-reset links).
 */
import { beforeEach, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { recordFailure } from "../../src/services/failure-reports";
import { clearSignInLimits, type HttpClient, useTestServer } from "../support/server";
import { sqlRows } from "../support/test-database";

const SECRET_KEY = "sk-test-0123456789abcdefSECRET";

describe("admin", () => {
  const server = useTestServer({ OPENAI_API_KEY: SECRET_KEY, ENGRAM_ISSUE_TRACKER_URL: "https://github.com/example/engram/issues/new" });
  let admin: HttpClient;
  let learner: HttpClient;
  beforeEach(async () => {
    admin = await server.client().loginAs("admin");
    learner = await server.client().loginAs("old_learner");
    await clearSignInLimits(server);
  });

  const ADMIN_CALLS: [method: string, path: string, body?: unknown][] = [
    ["GET", "/api/failure-reports"],
    ["GET", "/api/failure-reports/1"],
    ["DELETE", "/api/failure-reports/delete", { ids: [1] }],
    ["GET", "/api/data_upgrade"],
    ["GET", "/api/admin/users"],
    ["PATCH", "/api/admin/users/1", { admin: true }],
    ["POST", "/api/admin/users/1/password-reset"],
    ["GET", "/api/notebook_certificate_approvals/get-all-pending-request"],
    ["POST", "/api/bazaar/1/remove"],
  ];
  test("every admin call: 401 signed out, 403 for a user (without doing anything), not refused for an admin", async () => {
    await server.client().post("/api/testability/trigger_exception");
    for (const [method, path, body] of ADMIN_CALLS) {
      const options = body === undefined ? {} : { json: body };
      expect(`${method} ${path} ${(await server.client().request(method, path, options)).status}`).toBe(`${method} ${path} 401`);
      expect(`${method} ${path} ${(await learner.request(method, path, options)).status}`).toBe(`${method} ${path} 403`);
    }
    expect((await admin.get("/api/failure-reports")).body).toHaveLength(1);
    for (const [method, path, body] of ADMIN_CALLS) {
      const status = (await admin.request(method, path, body === undefined ? {} : { json: body })).status;
      expect(`${method} ${path} ${[401, 403].includes(status)}`).toBe(`${method} ${path} false`);
    }
  });

  test("a failure report keeps no secret: not the AI key, a bearer token, a cookie or a password", async () => {
    const error = new Error(
      `call failed with key ${SECRET_KEY}, Authorization: Bearer abcdefghijkl123, Cookie: engram_session=zzzz9999; password=hunter22`,
    );
    error.stack = `${error.message}\n    at somewhere (file.ts:1:1) token=tok_123456`;
    const row = (await recordFailure(server.ctx, error))!;
    const shown = (await admin.get(`/api/failure-reports/${row.id}`)).body;
    for (const secret of [SECRET_KEY, "abcdefghijkl123", "zzzz9999", "hunter22", "tok_123456"])
      expect(shown.failureReport.errorDetail).not.toContain(secret);
    expect(shown.failureReport.errorDetail).toContain("call failed with key");
    expect(shown.failureReport.errorDetail).toContain("[redacted]");
  });

  test("failure reports: newest first, shown with a prefilled issue link, deleted by id", async () => {
    for (let i = 0; i < 2; i++) await server.client().post("/api/testability/trigger_exception");
    const list = (await admin.get("/api/failure-reports")).body;
    expect(list).toHaveLength(2);
    expect(list[0].errorName).toContain("RuntimeException");
    expect(list[0].id).toBeGreaterThan(list[1].id);
    const shown = (await admin.get(`/api/failure-reports/${list[0].id}`)).body;
    expect(shown.failureReport.errorDetail).toContain("for failure report");
    const issue = new URL(shown.githubIssueUrl);
    expect(issue.origin + issue.pathname).toBe("https://github.com/example/engram/issues/new");
    expect(issue.searchParams.get("title")).toContain("RuntimeException");
    expect((await admin.request("DELETE", "/api/failure-reports/delete", { json: { ids: "all" } })).status).toBe(400);
    expect((await admin.request("DELETE", "/api/failure-reports/delete", { json: { ids: [list[0].id] } })).body).toEqual({ deleted: 1 });
    expect((await admin.get("/api/failure-reports")).body.map((r: { id: number }) => r.id)).toEqual([list[1].id]);
    const page = await admin.get(`/d/failure-report-list/show/${list[1].id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain("Open an issue about this failure");
    const refused = await learner.get(`/d/failure-report-list/show/${list[1].id}`);
    expect(refused.status).toBe(403);
    expect(refused.text).toContain("It seems you cannot access this page.");
    expect((await learner.get("/d/admin-dashboard")).status).toBe(403);
    expect((await server.client().get("/d/admin-dashboard")).status).toBe(302);
    expect((await admin.get("/d/admin-dashboard/users")).status).toBe(200);
    expect((await admin.get("/d/admin-dashboard/no-such-tab")).status).toBe(404);
  });

  test("users: grant and revoke admin, never the last one; a disabled account is signed out and cannot sign in", async () => {
    const users = (await admin.get("/api/admin/users")).body;
    const adminAccount = users.find((u: { login: string }) => u.login === "admin");
    const learnerAccount = users.find((u: { login: string }) => u.login === "old_learner");
    expect(learnerAccount).toMatchObject({ name: "Old Learner", admin: false, disabled: false });
    expect(learnerAccount.lastSeenAt).toBeString();
    const lastAdmin = await admin.patch(`/api/admin/users/${adminAccount.id}`, { admin: false });
    expect(lastAdmin.status).toBe(400);
    expect(lastAdmin.body.message).toContain("at least one administrator");
    expect((await admin.patch(`/api/admin/users/${learnerAccount.id}`, { admin: "yes" })).status).toBe(400);
    expect((await admin.patch(`/api/admin/users/${learnerAccount.id}`, { admin: true })).body.admin).toBe(true);
    expect((await learner.get("/api/failure-reports")).status).toBe(200);
    expect((await learner.patch(`/api/admin/users/${adminAccount.id}`, { admin: false })).body.admin).toBe(false);
    expect((await admin.get("/api/failure-reports")).status).toBe(403);
    const seenBefore = (await learner.get("/api/admin/users")).body.find((u: { login: string }) => u.login === "admin").lastSeenAt;
    expect(seenBefore).toBeString();
    const disabled = await learner.patch(`/api/admin/users/${adminAccount.id}`, { disabled: true });
    expect(disabled.body.disabled).toBe(true);
    expect(disabled.body.lastSeenAt).toBe(seenBefore); // its sessions end; when it was last seen stays
    expect((await admin.get("/api/user")).status).toBe(401); // signed out at once
    expect((await learner.patch(`/api/admin/users/${learnerAccount.id}`, { disabled: true })).status).toBe(400); // the last admin
  });

  test("a one-time password-reset link sets a new password once and ends the account's sessions", async () => {
    const person = server.client();
    expect((await person.signUp("forgetful", "first password")).status).toBe(303);
    await person.post("/api/user", { name: "Forgetful" });
    const account = (await admin.get("/api/admin/users")).body.find((u: { login: string }) => u.login === "forgetful");
    const { path } = (await admin.post(`/api/admin/users/${account.id}/password-reset`)).body;
    expect(path).toMatch(/^\/users\/reset-password\/[a-z2-7]{32}$/);
    expect(JSON.stringify(await sqlRows(server, sql`SELECT * FROM password_resets`))).not.toContain(path.split("/").pop());
    const form = await server.client().get(path);
    expect(form.text).toContain("forgetful");
    const tooShort = await server.client().request("POST", path, { form: { newPassword: "short" } });
    expect(tooShort.status).toBe(400);
    const done = await server.client().request("POST", path, { form: { newPassword: "second password" } });
    expect(done.status).toBe(303);
    expect((await person.get("/api/user")).status).toBe(401);
    expect((await server.client().request("POST", path, { form: { newPassword: "third password" } })).status).toBe(400);
    const signIn = await server
      .client()
      .request("POST", "/users/sign-in", { form: { username: "forgetful", password: "second password" } });
    expect(signIn.status).toBe(303);
    await admin.patch(`/api/admin/users/${account.id}`, { disabled: true });
    const refused = await server
      .client()
      .request("POST", "/users/sign-in", { form: { username: "forgetful", password: "second password" } });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain("This account is disabled");
  });
});
