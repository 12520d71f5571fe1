/**
 * The MCP conformance suite's server scenarios that apply to Engram's tools and resources, as
 * tests against the real Streamable HTTP endpoint and the real stdio command (src/mcp-cli.ts):
 * initialize, ping, tools/list, tools/call (a result and a tool error), an unknown tool, invalid
 * arguments, resources/list, resources/templates/list, resources/read (found and not found) and
 * DNS-rebinding protection.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { request as httpRequest } from "node:http";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { type CallToolResult, McpError } from "@modelcontextprotocol/sdk/types.js";
import { injectNotes } from "../support/notes";
import { type HttpClient, type TestServer, useTestServer } from "../support/server";

const root = join(import.meta.dir, "../..");
const TOOL_NAME = /^[A-Za-z0-9_./-]{1,64}$/;

async function overHttp(server: TestServer, token: string) {
  const client = new Client({ name: "conformance", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

async function overStdio(server: TestServer, token: string) {
  const client = new Client({ name: "conformance", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ["src/mcp-cli.ts", "--", "--url", server.url, "--token", token],
      cwd: root,
      stderr: "pipe",
    }),
  );
  return client;
}

/** The JSON-RPC error a request ends with (undefined when it succeeds). */
async function rpcError(promise: Promise<unknown>): Promise<McpError | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    if (error instanceof McpError) return error;
    throw error;
  }
}

const textOf = (result: CallToolResult) => result.content.map((part) => (part.type === "text" ? part.text : "")).join("\n");

describe("MCP conformance scenarios", () => {
  const server = useTestServer();
  let learner: HttpClient;
  let token: string;
  let ids: Record<string, number>;

  beforeEach(async () => {
    learner = await server.client().loginAs("old_learner");
    token = (await learner.post("/api/user/generate-token", { label: "Inspector" })).body.token;
    ids = await injectNotes(learner, [
      { Title: "Books I read" },
      { Title: "Lord of the Rings", "Parent Title": "Books I read", Details: "Tolkien's epic" },
    ]);
  });

  for (const [transport, connect] of [
    ["Streamable HTTP", overHttp],
    ["stdio", overStdio],
  ] as const) {
    describe(transport, () => {
      let client: Client;
      beforeEach(async () => {
        client = await connect(server, token);
      });
      afterEach(() => client.close());

      test("server-initialize and ping", async () => {
        expect(client.getServerVersion()).toMatchObject({ name: "engram" });
        expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {} });
        expect(await client.ping()).toEqual({});
      });

      test("tools-list: names in the allowed form, each with a description and an object input schema", async () => {
        const { tools } = await client.listTools();
        expect(tools.length).toBeGreaterThan(0);
        for (const tool of tools) {
          expect(tool.name).toMatch(TOOL_NAME);
          expect(tool.description).toBeTruthy();
          expect(tool.inputSchema.type).toBe("object");
        }
      });

      test("tools-call: a text result, and a failure inside the tool as a tool error", async () => {
        const listed = (await client.callTool({ name: "list_notebooks", arguments: {} })) as CallToolResult;
        expect(listed.isError).toBeFalsy();
        expect(JSON.parse(textOf(listed))[0]).toMatchObject({ title: "Books I read", headNoteId: ids["Books I read"] });
        const missing = (await client.callTool({ name: "get_note", arguments: { noteId: 999999 } })) as CallToolResult;
        expect({ isError: missing.isError, text: textOf(missing) }).toEqual({ isError: true, text: "Note not found" });
      });

      test("an unknown tool is a JSON-RPC error (invalid params), not a tool result", async () => {
        const error = await rpcError(client.callTool({ name: "no_such_tool", arguments: {} }));
        expect(error?.code).toBe(-32602);
        expect(error?.message).toContain("Unknown tool: no_such_tool");
      });

      test("invalid arguments, an id given as a string among them, are input validation errors", async () => {
        const id = ids["Lord of the Rings"]!;
        for (const args of [{ noteId: String(id) }, { noteId: "seven" }, { noteId: -1 }, { noteId: 1.5 }, {}]) {
          const result = (await client.callTool({ name: "get_note", arguments: args })) as CallToolResult;
          expect({ args, isError: result.isError }).toEqual({ args, isError: true });
          expect(textOf(result)).toContain("Input validation error");
        }
        const found = (await client.callTool({ name: "get_note", arguments: { noteId: id } })) as CallToolResult;
        expect(JSON.parse(textOf(found)).title).toBe("Lord of the Rings");
      });

      test("resources-list, resources-templates and resources-read-text", async () => {
        const { resources } = await client.listResources();
        expect(resources).toEqual([expect.objectContaining({ uri: `engram://note/${ids["Books I read"]}`, name: "Books I read" })]);
        const { resourceTemplates } = await client.listResourceTemplates();
        expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual(["engram://note/{id}"]);
        const uri = `engram://note/${ids["Lord of the Rings"]}`;
        const read = await client.readResource({ uri });
        expect(read.contents).toEqual([{ uri, mimeType: "text/markdown", text: expect.stringContaining("# Lord of the Rings") }]);
      });

      test("resources/read of a note that is missing, not a note or not the reader's: invalid params with the uri", async () => {
        const other = await server.client().loginAs("another_old_learner");
        const theirs = await injectNotes(other, [{ Title: "Secret diary" }]);
        for (const uri of [
          "engram://note/999999",
          "engram://note/seven",
          `engram://note/${theirs["Secret diary"]}`,
          "engram://elsewhere/1",
        ]) {
          const error = await rpcError(client.readResource({ uri }));
          expect({ uri, code: error?.code, data: error?.data }).toEqual({ uri, code: -32602, data: { uri } });
          expect(error?.message).not.toContain("Secret diary");
        }
      });
    });
  }

  describe("DNS-rebinding protection", () => {
    /** POST initialize with this Host header (fetch would not send a Host of our choosing). */
    const initializeWithHost = (host: string, headers: Record<string, string> = {}) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const url = new URL(`${server.url}/api/mcp`);
        const body = JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "rebinding", version: "1" } },
        });
        const req = httpRequest(
          {
            host: url.hostname,
            port: url.port,
            path: url.pathname,
            method: "POST",
            headers: {
              host,
              "content-type": "application/json",
              accept: "application/json, text/event-stream",
              "content-length": Buffer.byteLength(body),
              ...headers,
            },
          },
          (res) => {
            let text = "";
            res.on("data", (chunk) => {
              text += chunk;
            });
            res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
          },
        );
        req.on("error", reject);
        req.end(body);
      });

    test("a request reaching the server on this machine under another host name is refused (403)", async () => {
      const port = new URL(server.url).port;
      const auth = { authorization: `Bearer ${token}` };
      for (const host of ["evil.example.com", `evil.example.com:${port}`, `192.168.1.20:${port}`]) {
        const refused = await initializeWithHost(host, auth);
        expect({ host, status: refused.status }).toEqual({ host, status: 403 });
        expect(refused.body).not.toContain("serverInfo");
      }
      // Before the token is looked at: the conformance suite sends none.
      expect((await initializeWithHost("evil.example.com")).status).toBe(403);
      for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, "localhost", `[::1]:${port}`]) {
        const accepted = await initializeWithHost(host, auth);
        expect({ host, status: accepted.status }).toEqual({ host, status: 200 });
        expect(accepted.body).toContain('"serverInfo":{"name":"engram"');
      }
    });
  });
});

describe("MCP DNS-rebinding protection behind a public URL", () => {
  const server = useTestServer({ ENGRAM_PUBLIC_URL: "https://engram.example.org" });

  test("the public URL's host is accepted; other names are not", async () => {
    const learner = await server.client().loginAs("old_learner");
    const token = (await learner.post("/api/user/generate-token", { label: "Proxy" })).body.token;
    const post = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const url = new URL(`${server.url}/api/mcp`);
        const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
        const req = httpRequest(
          {
            host: url.hostname,
            port: url.port,
            path: url.pathname,
            method: "POST",
            headers: {
              host,
              authorization: `Bearer ${token}`,
              "content-type": "application/json",
              accept: "application/json, text/event-stream",
              "content-length": Buffer.byteLength(body),
            },
          },
          (res) => {
            res.resume();
            res.on("end", () => resolve(res.statusCode ?? 0));
          },
        );
        req.on("error", reject);
        req.end(body);
      });
    expect(await post("engram.example.org")).toBe(200);
    expect(await post("attacker.example.net")).toBe(403);
  });
});
