/**
 * Smaller holes: an admin user update with nothing to change is a field error (400), not a 500;
 * /api/mcp takes an Origin only when it is the public URL's or a loopback one, whatever the Host
 * header says; the bazaar names an author by their display name, never their login; images in
 * rendered details are fetched without the reader's referrer.
 */
import { describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { renderMarkdownSafely as renderInBrowser } from "../../islands/lib/markdown";
import { renderMarkdownSafely } from "../../src/services/notes/markdown";
import { type HttpClient, useTestServer } from "../support/server";
import { sqlRows } from "../support/test-database";

describe("an admin user update with nothing to change", () => {
  const server = useTestServer();

  test("is 400 with a field error, and writes no failure report", async () => {
    const admin = await server.client().loginAs("admin");
    const account = (await admin.get("/api/admin/users")).body.find((a: { login: string }) => a.login === "old_learner");
    for (const body of [{}, [], { unknown: true }]) {
      const result = await admin.patch(`/api/admin/users/${account.id}`, body);
      expect(result.status).toBe(400);
      expect(result.body.errors).toEqual({ admin: "give admin or disabled (true or false)" });
    }
    expect(await sqlRows(server, sql`SELECT * FROM failure_reports`)).toEqual([]);
    expect((await admin.patch(`/api/admin/users/${account.id}`, { disabled: true })).status).toBe(200);
  });
});

describe("the MCP endpoint's Origin check", () => {
  const server = useTestServer({ ENGRAM_PUBLIC_URL: "https://engram.example.org" });

  async function tokenClient(): Promise<{ token: string; client: HttpClient }> {
    const learner = await server.client().loginAs("old_learner");
    const { token } = (await learner.post("/api/user/generate-token", { label: "assistant" })).body;
    return { token, client: server.client().withBearer(token) };
  }

  const initialize = (client: HttpClient, headers: Record<string, string>) =>
    client.request("POST", "/api/mcp", {
      headers: { accept: "application/json, text/event-stream", ...headers },
      json: {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "test", version: "1" } },
      },
    });

  test("a foreign Origin is refused (403), even with a Host header forged to match it", async () => {
    const { client } = await tokenClient();
    const forged: Record<string, string>[] = [
      { origin: "http://evil.example" },
      { origin: "http://evil.example", host: "evil.example" },
      { origin: "https://engram.example.org.evil.example" },
      { origin: "null" },
    ];
    for (const headers of forged) {
      const refused = await initialize(client, headers);
      expect(`${JSON.stringify(headers)} ${refused.status}`).toBe(`${JSON.stringify(headers)} 403`);
    }
    const forgedGet = await client.request("GET", "/api/mcp", { headers: { origin: "http://evil.example", host: "evil.example" } });
    expect(forgedGet.status).toBe(403);
  });

  test("no Origin (a CLI client), the public URL's origin and loopback origins are served", async () => {
    const { client } = await tokenClient();
    const served: Record<string, string>[] = [
      {},
      { origin: "https://engram.example.org" },
      { origin: "http://localhost:6274" },
      { origin: "http://127.0.0.1:3000" },
      { origin: "http://[::1]:8080" },
    ];
    for (const headers of served) {
      const answer = await initialize(client, headers);
      expect(`${JSON.stringify(headers)} ${answer.status}`).toBe(`${JSON.stringify(headers)} 200`);
    }
  });
});

describe("authors in the bazaar", () => {
  const server = useTestServer();

  test("are named by their display name; the login is given to nobody but the creator", async () => {
    const ids = (
      await server.client().post("/api/testability/inject_notes", {
        externalIdentifier: "old_learner",
        circleName: null,
        noteTestData: [{ Title: "Shared" }, { Title: "Leaf", "Parent Title": "Shared" }],
      })
    ).body;
    await server.client().post("/api/testability/share_to_bazaar", { noteTopology: "Shared" });
    const stranger = await server.client().loginAs("non_admin"); // a login that does not contain the author's
    for (const client of [server.client(), stranger]) {
      for (const path of [
        "/api/bazaar",
        "/d/bazaar",
        `/api/notes/${ids.Leaf}`,
        `/n${ids.Leaf}`,
        `/api/notebooks/${(await stranger.get(`/api/notes/${ids.Leaf}`)).body.notebook.id}`,
      ]) {
        const answer = await client.get(path);
        expect(answer.status).toBe(200);
        expect(`${path}: ${answer.text.includes("old_learner")}`).toBe(`${path}: false`);
      }
    }
    const [entry] = (await server.client().get("/api/bazaar")).body;
    expect(entry.notebook.creatorName).toBe("Old Learner");
    expect(entry.notebook.creatorId).toBeUndefined();
    expect((await server.client().get("/d/bazaar")).text).toContain("Old Learner");
    const owner = await server.client().loginAs("old_learner");
    expect((await owner.get(`/api/notes/${ids.Leaf}`)).body.notebook.creatorId).toBe("old_learner");
  });
});

describe("images in rendered details", () => {
  test("carry referrerpolicy=no-referrer, on the server and in the browser", () => {
    for (const render of [renderMarkdownSafely, renderInBrowser]) {
      const html = render("![a cat](https://images.example/cat.png)");
      expect(html).toContain('src="https://images.example/cat.png"');
      expect(html).toMatch(/<img [^>]*referrerpolicy="no-referrer"/);
    }
    expect(renderMarkdownSafely('<img src="https://images.example/x.png" referrerpolicy="unsafe-url">')).toMatch(
      /referrerpolicy="no-referrer"/,
    );
  });
});
