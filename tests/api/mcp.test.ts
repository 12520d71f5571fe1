/**
 * Engram's MCP server, through the SDK's own client: Streamable HTTP on /api/mcp with
 * a token from Manage MCP Tokens, and `engram mcp` (src/mcp-cli.ts) over stdio relaying to it.
 */
import { beforeEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { sql } from "drizzle-orm";
import { childTitles, injectNotes } from "../support/notes";
import { type HttpClient, useTestServer } from "../support/server";
import { sqlRun } from "../support/test-database";

const root = join(import.meta.dir, "../..");

async function connectOverHttp(url: string, token: string) {
  const client = new Client({ name: "engram-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${url}/api/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

/** The text of a tool's answer (and whether it is an error). */
async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content.map((part) => (part.type === "text" ? part.text : "")).join("\n");
  return { text, isError: result.isError === true };
}

describe("MCP server", () => {
  const server = useTestServer();
  let learner: HttpClient;
  let token: string;
  let ids: Record<string, number>;
  let mcp: Client;

  beforeEach(async () => {
    learner = await server.client().loginAs("old_learner");
    token = (await learner.post("/api/user/generate-token", { label: "Claude" })).body.token;
    ids = await injectNotes(learner, [
      { Title: "Books I read" },
      { Title: "Lord of the Rings", "Parent Title": "Books I read", Details: "Tolkien's epic" },
      { Title: "Harry Potter", "Parent Title": "Books I read" },
      { Title: "Programming Concepts" },
      { Title: "Object Oriented", "Parent Title": "Programming Concepts", Details: "Objects with state and behaviour" },
      { Title: "Classes", "Parent Title": "Object Oriented" },
      { Title: "Inheritance", "Parent Title": "Object Oriented" },
      { Title: "Functional", "Parent Title": "Programming Concepts" },
    ]);
    mcp = await connectOverHttp(server.url, token);
  });

  test("lists the tools with their input schemas", async () => {
    const { tools } = await mcp.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      "add_note",
      "find_most_relevant_note",
      "get_note",
      "get_note_graph",
      "get_recall_status",
      "list_notebooks",
      "update_note",
    ]);
    const find = tools.find((tool) => tool.name === "find_most_relevant_note")!;
    expect(find.description).toContain("No relevant note found.");
    expect(find.inputSchema).toMatchObject({ type: "object", properties: { query: { type: "string" } }, required: ["query"] });
    await mcp.close();
  });

  test("add_note under a parent named by its title creates exactly one more child", async () => {
    const added = await call(mcp, "add_note", { parentTitle: "Books I read", newTitle: "Art of War", details: "Sun Tzu" });
    expect(added.isError).toBe(false);
    expect(added.text).toMatch(/^Added "Art of War" \(note id \d+\) under "Books I read"/);
    expect(await childTitles(learner, ids["Books I read"]!)).toEqual(["Lord of the Rings", "Harry Potter", "Art of War"]);
    const artOfWar = (await learner.get(`/api/notes/${ids["Books I read"]}`)).body.children[2];
    // A realm lists its children without their full details: read the child's own realm.
    expect((await learner.get(`/api/notes/${artOfWar.id}`)).body.note.details).toBe("Sun Tzu");
    // By id too.
    expect((await call(mcp, "add_note", { parentNoteId: ids["Harry Potter"], newTitle: "Philosopher's Stone" })).isError).toBe(false);
    expect(await childTitles(learner, ids["Harry Potter"]!)).toEqual(["Philosopher's Stone"]);
    await mcp.close();
  });

  test("add_note with a title several notes have is an error naming them, and nothing is created", async () => {
    await injectNotes(learner, [{ Title: "Reading" }, { Title: "Books I read", "Parent Title": "Reading" }]);
    const added = await call(mcp, "add_note", { parentTitle: "books i read", newTitle: "Dune" });
    expect(added.isError).toBe(true);
    expect(added.text).toContain(`2 notes are titled "books i read"`);
    expect(added.text).toContain(`(id ${ids["Books I read"]}, in notebook "Books I read")`);
    expect(added.text).toContain(`in notebook "Reading"`);
    expect(await childTitles(learner, ids["Books I read"]!)).toEqual(["Lord of the Rings", "Harry Potter"]);
    const unknown = await call(mcp, "add_note", { parentTitle: "Books I never read", newTitle: "Dune" });
    expect(unknown).toEqual({ isError: true, text: `No note titled "Books I never read" found among the notes you may edit` });
    await mcp.close();
  });

  test("find_most_relevant_note finds by title and says when nothing matches", async () => {
    const lord = await call(mcp, "find_most_relevant_note", { query: "Lord" });
    expect(JSON.parse(lord.text)).toEqual([
      { noteId: ids["Lord of the Rings"], title: "Lord of the Rings", snippet: "Tolkien's epic", notebook: "Books I read" },
    ]);
    const harry = JSON.parse((await call(mcp, "find_most_relevant_note", { query: "Harry" })).text);
    expect(harry.map((found: { title: string }) => found.title)).toEqual(["Harry Potter"]);
    expect(await call(mcp, "find_most_relevant_note", { query: "Fiona" })).toEqual({ isError: false, text: "No relevant note found." });
    await mcp.close();
  });

  test("find_most_relevant_note's snippet is the details' text as written, without front matter", async () => {
    await injectNotes(learner, [
      { Title: "Dunder methods", "Parent Title": "Programming Concepts", Details: "call my_var_name and __init__ then 2*3*4" },
      { Title: "Imported", "Parent Title": "Programming Concepts", Details: "---\nsource: anki\n---\n# Heading\n\nBody text" },
    ]);
    const dunder = JSON.parse((await call(mcp, "find_most_relevant_note", { query: "Dunder methods" })).text);
    expect(dunder[0]).toMatchObject({ title: "Dunder methods", snippet: "call my_var_name and __init__ then 2*3*4" });
    const imported = JSON.parse((await call(mcp, "find_most_relevant_note", { query: "Imported" })).text);
    expect(imported[0]).toMatchObject({ title: "Imported", snippet: "Heading Body text" });
    await mcp.close();
  });

  test("get_note_graph names each related note with its relation, as the export does", async () => {
    const graph = await call(mcp, "get_note_graph", { noteId: ids["Object Oriented"] });
    expect(graph.isError).toBe(false);
    const { focusNote, relatedNotes } = JSON.parse(graph.text);
    expect(focusNote).toMatchObject({ title: "Object Oriented", details: "Objects with state and behaviour", relationToFocusNote: "Self" });
    const relations = Object.fromEntries(
      relatedNotes.map((note: { title: string; relationToFocusNote: string }) => [note.title, note.relationToFocusNote]),
    );
    expect(relations).toEqual({ "Programming Concepts": "Parent", Classes: "Child", Inheritance: "Child", Functional: "YoungerSibling" });
    const exported = await learner.get(`/api/notes/${ids["Object Oriented"]}/graph?tokenLimit=5000`);
    expect(JSON.parse(graph.text)).toEqual(exported.body);
    const tooSmall = await mcp.callTool({ name: "get_note_graph", arguments: { noteId: ids["Object Oriented"], tokenLimit: 0 } });
    expect(tooSmall.isError).toBe(true);
    await mcp.close();
  });

  test("update_note changes the title and replaces or appends to the details", async () => {
    const id = ids["Harry Potter"]!;
    expect((await call(mcp, "update_note", { noteId: id, details: "A boy wizard" })).text).toBe(`Updated "Harry Potter" (note id ${id}).`);
    await call(mcp, "update_note", { noteId: id, appendDetails: "Seven books." });
    await call(mcp, "update_note", { noteId: id, newTitle: "Harry Potter series" });
    const note = JSON.parse((await call(mcp, "get_note", { noteId: id })).text);
    expect(note).toMatchObject({
      id,
      title: "Harry Potter series",
      details: "A boy wizard\n\nSeven books.",
      notebook: "Books I read",
      parent: { id: ids["Books I read"], title: "Books I read" },
      children: [],
    });
    const both = await call(mcp, "update_note", { noteId: id, details: "x", appendDetails: "y" });
    expect(both.isError).toBe(true);
    const nothing = await call(mcp, "update_note", { noteId: id });
    expect(nothing).toEqual({ isError: true, text: "newTitle: give newTitle, details or appendDetails" });
    await mcp.close();
  });

  test("list_notebooks, get_note, get_recall_status and the note resource", async () => {
    const notebooks = JSON.parse((await call(mcp, "list_notebooks")).text);
    expect(notebooks.map((n: { title: string }) => n.title).sort()).toEqual(["Books I read", "Programming Concepts"]);
    const note = JSON.parse((await call(mcp, "get_note", { noteId: ids["Object Oriented"] })).text);
    expect(note.children).toEqual([
      { id: ids.Classes, title: "Classes" },
      { id: ids.Inheritance, title: "Inheritance" },
    ]);
    expect(note.parent).toEqual({ id: ids["Programming Concepts"], title: "Programming Concepts" });
    const status = await call(mcp, "get_recall_status", { timeZone: "Europe/Paris" });
    expect(status.text).toMatch(/^You have 0 notes to recall and \d+ notes? to assimilate today\./);
    const { resources } = await mcp.listResources();
    expect(resources.map((r) => r.uri).sort()).toEqual(
      [`engram://note/${ids["Books I read"]}`, `engram://note/${ids["Programming Concepts"]}`].sort(),
    );
    const read = await mcp.readResource({ uri: `engram://note/${ids["Books I read"]}` });
    expect((read.contents[0] as { text: string }).text).toContain("# Books I read");
    expect((read.contents[0] as { text: string }).text).toContain(`- Lord of the Rings (engram://note/${ids["Lord of the Rings"]})`);
    await mcp.close();
  });

  test("each call records the token's last use", async () => {
    await sqlRun(server, sql`UPDATE user_tokens SET last_used_at = NULL`);
    await call(mcp, "list_notebooks");
    const [listed] = (await learner.get("/api/user/get-tokens")).body;
    expect(listed.lastUsedAt).not.toBeNull();
    await mcp.close();
  });

  test("refuses another user's note without telling its title, and never writes to it", async () => {
    const other = await server.client().loginAs("another_old_learner");
    const theirs = await injectNotes(other, [{ Title: "Secret diary" }, { Title: "Day one", "Parent Title": "Secret diary" }]);
    for (const [name, args] of [
      ["get_note", { noteId: theirs["Day one"] }],
      ["get_note_graph", { noteId: theirs["Day one"] }],
      ["update_note", { noteId: theirs["Day one"], details: "mine now" }],
      ["add_note", { parentNoteId: theirs["Secret diary"], newTitle: "Day two" }],
    ] as const) {
      const answer = await call(mcp, name, args);
      expect(answer.isError).toBe(true);
      expect(answer.text).toBe("You are not allowed to access this notebook");
    }
    expect((await call(mcp, "add_note", { parentTitle: "Secret diary", newTitle: "Day two" })).text).toContain(
      'No note titled "Secret diary"',
    );
    expect((await call(mcp, "find_most_relevant_note", { query: "diary" })).text).toBe("No relevant note found.");
    expect(await childTitles(other, theirs["Secret diary"]!)).toEqual(["Day one"]);
    expect((await other.get(`/api/notes/${theirs["Day one"]}`)).body.note.details).toBe("");
    const missing = await call(mcp, "get_note", { noteId: 999999 });
    expect(missing).toEqual({ isError: true, text: "Note not found" });
    await mcp.close();
  });

  test("bad arguments are schema errors", async () => {
    const answer = await call(mcp, "get_note", { noteId: "seven" });
    expect(answer.isError).toBe(true);
    expect(answer.text).toContain("Input validation error");
    await mcp.close();
  });

  describe("refusals before any MCP exchange", () => {
    const initialize = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "curl", version: "1" } },
    };
    const post = (headers: Record<string, string>) =>
      fetch(`${server.url}/api/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
        body: JSON.stringify(initialize),
      });

    test("without a token, with a wrong one or a deleted one: 401", async () => {
      await mcp.close();
      expect((await post({})).status).toBe(401);
      expect((await post({ authorization: "Bearer engram_wrong" })).status).toBe(401);
      const [listed] = (await learner.get("/api/user/get-tokens")).body;
      expect((await learner.delete(`/api/user/token/${listed.id}`)).status).toBe(204);
      const deleted = await post({ authorization: `Bearer ${token}` });
      expect(deleted.status).toBe(401);
      expect(await deleted.text()).not.toContain("serverInfo");
      await expect(connectOverHttp(server.url, token)).rejects.toThrow();
    });

    test("a browser session does not open the MCP endpoint", async () => {
      await mcp.close();
      const cookie = `engram_session=${learner.sessionCookie}`;
      const refused = await post({ cookie });
      expect(refused.status).toBe(401);
      expect(refused.headers.get("www-authenticate")).toBe('Bearer realm="engram"');
    });

    test("a valid token answers initialize over the plain HTTP exchange (JSON-RPC in, SSE or JSON out)", async () => {
      await mcp.close();
      const response = await post({ authorization: `Bearer ${token}` });
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('"serverInfo":{"name":"engram"');
      const get = await fetch(`${server.url}/api/mcp`, { headers: { authorization: `Bearer ${token}`, accept: "text/event-stream" } });
      expect(get.status).toBe(405);
    });
  });

  test("bodies that are not MCP requests never get a 5xx", async () => {
    await mcp.close();
    const headers = { authorization: `Bearer ${token}`, accept: "application/json, text/event-stream" };
    const bodies: [string, string][] = [
      ["application/json", "{not json"],
      ["application/json", "[]"],
      ["application/json", "42"],
      ["application/json", JSON.stringify({ hello: "world" })],
      ["application/json", "[".repeat(100) + "]".repeat(100)],
      ["text/plain", "hello"],
      ["application/octet-stream", "\u0000\u0001"],
    ];
    for (const [type, body] of bodies) {
      const response = await fetch(`${server.url}/api/mcp`, { method: "POST", headers: { ...headers, "content-type": type }, body });
      const answered = { body, status: response.status, refused: response.status >= 400 && response.status < 500 };
      // An empty batch holds no request: the SDK accepts it (202) with nothing to answer.
      expect(answered).toEqual(body === "[]" ? { body, status: 202, refused: false } : { body, status: response.status, refused: true });
    }
    // Stateless: a call without initialize is answered, here with the schema error of the missing noteId.
    const call = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_note", arguments: {} } });
    const answered = await fetch(`${server.url}/api/mcp`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: call,
    });
    expect(answered.status).toBe(200);
    expect(await answered.text()).toContain("Input validation error");
    const big = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping", params: { pad: "x".repeat(3 * 1024 * 1024) } });
    expect(
      (await fetch(`${server.url}/api/mcp`, { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: big }))
        .status,
    ).toBe(413);
  });

  describe("POST /api/mcp/notes/create", () => {
    test("creates a note under the parent named by its title: NoteCreationResult", async () => {
      await mcp.close();
      const tool = server.client().withBearer(token);
      const created = await tool.post("/api/mcp/notes/create", { parentNote: "Books I read", noteCreationDTO: { newTitle: "Art of War" } });
      expect(created.status).toBe(200);
      expect(created.body.created.note.noteTopology.titleOrPredicate).toBe("Art of War");
      expect(created.body.parent.id).toBe(ids["Books I read"]);
      expect(await childTitles(learner, ids["Books I read"]!)).toEqual(["Lord of the Rings", "Harry Potter", "Art of War"]);
    });

    test("no match is 404, several are 400 naming them, nobody is 401, a bad body is 400", async () => {
      await mcp.close();
      const tool = server.client().withBearer(token);
      const none = await tool.post("/api/mcp/notes/create", { parentNote: "Nothing", noteCreationDTO: { newTitle: "X" } });
      expect(none.status).toBe(404);
      await injectNotes(learner, [{ Title: "Harry Potter" }]);
      const several = await tool.post("/api/mcp/notes/create", { parentNote: "Harry Potter", noteCreationDTO: { newTitle: "X" } });
      expect(several.status).toBe(400);
      expect(several.body.errors.parentNote).toContain(`(id ${ids["Harry Potter"]}, in notebook "Books I read")`);
      const nobody = await server.client().post("/api/mcp/notes/create", { nonsense: true });
      expect(nobody.status).toBe(401);
      const bad = await tool.post("/api/mcp/notes/create", { parentNote: "Books I read", noteCreationDTO: { newTitle: "" } });
      expect(bad.status).toBe(400);
      expect(bad.body.errors).toEqual({ newTitle: "size must be between 1 and 150" });
    });
  });

  test("engram mcp relays the same tools over stdio", async () => {
    await mcp.close();
    const client = new Client({ name: "engram-stdio-test", version: "1.0.0" });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ["src/mcp-cli.ts", "--url", server.url, "--token", token],
      cwd: root,
      stderr: "pipe",
    });
    await client.connect(transport);
    try {
      expect((await client.listTools()).tools).toHaveLength(7);
      const added = await call(client, "add_note", { parentTitle: "Books I read", newTitle: "Art of War" });
      expect(added.isError).toBe(false);
      expect(await childTitles(learner, ids["Books I read"]!)).toEqual(["Lord of the Rings", "Harry Potter", "Art of War"]);
      expect(JSON.parse((await call(client, "find_most_relevant_note", { query: "Art of" })).text)[0].title).toBe("Art of War");
    } finally {
      await client.close();
    }
  });

  test("engram mcp says so when Engram cannot be reached", async () => {
    await mcp.close();
    const closed = Bun.serve({ port: 0, fetch: () => new Response() });
    const url = `http://127.0.0.1:${closed.port}`;
    closed.stop(true);
    const client = new Client({ name: "engram-stdio-test", version: "1.0.0" });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ["src/mcp-cli.ts", "--url", url, "--token", token],
      cwd: root,
      stderr: "pipe",
    });
    await expect(client.connect(transport)).rejects.toThrow(`Cannot reach Engram at ${url}/api/mcp`);
    await client.close();
  });

  test("engram mcp with a deleted token answers each request with the refusal", async () => {
    await mcp.close();
    const client = new Client({ name: "engram-stdio-test", version: "1.0.0" });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ["src/mcp-cli.ts", "--url", `${server.url}/api/mcp`, "--token", "engram_not_a_token"],
      cwd: root,
      stderr: "pipe",
    });
    await expect(client.connect(transport)).rejects.toThrow("Engram refused the token");
    await client.close();
  });
});
