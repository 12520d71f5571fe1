import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { Elysia, t } from "elysia";
import type { AppContext } from "../context";
import { editableNoteTitled } from "../services/mcp/notes-by-title";
import { engramMcpServer } from "../services/mcp/server";
import { addNote } from "../services/notes/note-service";
import type { CurrentUser } from "../services/users";
import { publicOrigin } from "../web/public-url";
import type { Auth } from "./authentication";
import { requireUser } from "./authentication";
import { core } from "./core";
import { newNoteBody } from "./notebooks";
import { McpAnswer, McpRefusal } from "./schemas/mcp";
import { NoContent } from "./schemas/media";
import { NoteCreationResult } from "./schemas/notes";

/** The MCP endpoint as assistants reach it: on the public URL when one is configured (behind a proxy), else as this request came. */
export function mcpEndpointUrl(ctx: AppContext, request: Request): string {
  return `${publicOrigin(ctx, request)}/api/mcp`;
}

/** JSON-RPC error answers outside any MCP exchange (the SDK's own shape for them). */
function jsonRpcError(status: number, message: string, headers: Record<string, string> = {}) {
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

/** Only an MCP token opens the MCP endpoint (a browser session does not): 401 otherwise, before any MCP exchange. */
function tokenUser(auth: Auth): CurrentUser | Response {
  if (auth.via !== "bearer" || !auth.user || !auth.account) {
    return jsonRpcError(401, "Unauthorized: send a token from Manage MCP Tokens as Authorization: Bearer <token>", {
      "www-authenticate": 'Bearer realm="engram"',
    });
  }
  return requireUser(auth);
}

/**
 * /api/mcp: Engram's MCP server over Streamable HTTP (stateless: a server and a transport per
 * request, JSON or SSE answers as the SDK gives them), and POST /api/mcp/notes/create of the
 * reference (a note under a parent named by its title).
 */
export function mcpApi(ctx: AppContext) {
  return (
    new Elysia({ prefix: "/api/mcp" })
      .use(core(ctx))
      .post(
        "",
        async ({ auth, request, body }) => {
          const current = tokenUser(auth);
          if (current instanceof Response) return current;
          const server = engramMcpServer(ctx, current);
          const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
          await server.connect(transport);
          // A client that goes away mid-call ends its stream (and the keep-alive timer) with it.
          request.signal.addEventListener("abort", () => void server.close(), { once: true });
          // The body was already read within the route's limits (api/request-limits.ts): hand it over parsed.
          return transport.handleRequest(request, { parsedBody: body });
        },
        { access: "signed-in", response: { 200: McpAnswer, 202: NoContent, 401: McpRefusal } },
      )
      // Stateless: no server-sent stream to resume and no session to end.
      .get(
        "",
        ({ auth }) => {
          const current = tokenUser(auth);
          return current instanceof Response ? current : jsonRpcError(405, "Method not allowed.", { allow: "POST" });
        },
        { access: "signed-in", response: { 401: McpRefusal, 405: McpRefusal } },
      )
      .delete(
        "",
        ({ auth }) => {
          const current = tokenUser(auth);
          return current instanceof Response ? current : jsonRpcError(405, "Method not allowed.", { allow: "POST" });
        },
        { access: "signed-in", response: { 401: McpRefusal, 405: McpRefusal } },
      )
      .post(
        "/notes/create",
        async ({ auth, body }) => {
          const current = requireUser(auth);
          const parent = await editableNoteTitled(ctx, current, body.parentNote);
          const input = body.noteCreationDTO;
          return addNote(ctx, current, { under: parent.id }, { newTitle: input.newTitle, wikidataId: input.wikidataId ?? undefined });
        },
        {
          access: "signed-in",
          response: NoteCreationResult,
          // Signed out is 401 before the body is looked at.
          transform: ({ auth }) => void requireUser(auth),
          body: t.Object(
            {
              parentNote: t.String({ minLength: 1, maxLength: 150, error: "size must be between 1 and 150" }),
              noteCreationDTO: newNoteBody,
            },
            { additionalProperties: true },
          ),
        },
      )
  );
}
