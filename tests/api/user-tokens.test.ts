import { describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { useTestServer } from "../support/server";
import { sqlRows } from "../support/test-database";

describe("MCP tokens", () => {
  const server = useTestServer();

  test("a generated token is shown once, stored hashed and listed without its text", async () => {
    const client = await server.client().loginAs("old_learner");
    const created = await client.post("/api/user/generate-token", { label: "My MCP client" });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ label: "My MCP client", lastUsedAt: null, status: "active" });
    expect(created.body.token.length).toBeGreaterThan(40);
    const stored = await sqlRows<{ token_hash: string }>(server, sql`SELECT token_hash FROM user_tokens`);
    expect(stored.map((s) => s.token_hash)).not.toContain(created.body.token);
    const list = await client.get("/api/user/get-tokens");
    expect(list.body).toHaveLength(1);
    expect(list.body[0]).toMatchObject({ id: created.body.id, label: "My MCP client", token: "" });
  });

  test("a bearer token authenticates API calls and records its last use", async () => {
    const client = await server.client().loginAs("old_learner");
    const { token } = (await client.post("/api/user/generate-token", { label: "cli" })).body;
    const tool = server.client().withBearer(token);
    const me = await tool.get("/api/user");
    expect(me.status).toBe(200);
    expect(me.body.name).toBe("Old Learner");
    const [listed] = (await client.get("/api/user/get-tokens")).body;
    expect(listed.lastUsedAt).not.toBeNull();
    expect((await server.client().withBearer("engram_not_a_token").get("/api/user")).status).toBe(401);
  });

  test("a deleted token no longer authenticates", async () => {
    const client = await server.client().loginAs("old_learner");
    const created = (await client.post("/api/user/generate-token", { label: "temp" })).body;
    expect((await client.delete(`/api/user/token/${created.id}`)).status).toBe(204);
    expect((await client.get("/api/user/get-tokens")).body).toEqual([]);
    expect((await server.client().withBearer(created.token).get("/api/user")).status).toBe(401);
  });

  test("a label is required", async () => {
    const client = await server.client().loginAs("old_learner");
    const result = await client.post("/api/user/generate-token", { label: "  " });
    expect(result.status).toBe(400);
    expect(result.body.errors.label).toBe("size must be between 1 and 100");
  });

  test("nobody lists or deletes another user's tokens", async () => {
    const owner = await server.client().loginAs("old_learner");
    const created = (await owner.post("/api/user/generate-token", { label: "mine" })).body;
    const other = await server.client().loginAs("another_old_learner");
    expect((await other.get("/api/user/get-tokens")).body).toEqual([]);
    expect((await other.delete(`/api/user/token/${created.id}`)).status).toBe(404);
    expect((await owner.get("/api/user/get-tokens")).body).toHaveLength(1);
    expect((await server.client().get("/api/user/get-tokens")).status).toBe(401);
  });
});
