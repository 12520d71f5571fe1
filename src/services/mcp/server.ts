import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  McpError,
  ReadResourceRequestSchema,
  type ReadResourceResult,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { AppContext } from "../../context";
import { DomainError, NotFoundError, ValidationError } from "../errors";
import { notebooksOfUser } from "../notebooks";
import type { CurrentUser } from "../users";
import { engramTools, humanMessage, noteResourceText, TOOL_CONFIGS } from "./tools";

const INSTRUCTIONS =
  "Engram holds the user's notes, organised in notebooks as trees (each note has a parent, children and links). " +
  "Find notes with find_most_relevant_note, read them with get_note or get_note_graph, write with add_note and update_note. " +
  "get_recall_status tells how many notes are due to recall and to assimilate today.";

const NOTE_URI = /^engram:\/\/note\/([1-9][0-9]{0,14})$/;

/** Each tool's arguments as one object schema, as the SDK reads a tool's inputSchema. */
const ARGUMENTS = Object.fromEntries(Object.entries(TOOL_CONFIGS).map(([name, config]) => [name, z.object(config.inputSchema)]));

/**
 * tools/call as the specification has it: an unknown tool is a protocol error (invalid params),
 * arguments that do not fit the tool's schema a tool error the assistant can correct (the SDK's
 * own handler answers both as tool results).
 */
async function callTool(
  handlers: ReturnType<typeof engramTools>,
  name: string,
  args: Record<string, unknown> | undefined,
): Promise<CallToolResult> {
  const schema = ARGUMENTS[name];
  const handler = handlers[name as keyof typeof handlers];
  if (!schema || !handler) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`, { name });
  const parsed = schema.safeParse(args ?? {});
  if (!parsed.success) {
    const text = `Input validation error: Invalid arguments for tool ${name}: ${z.prettifyError(parsed.error)}`;
    return { content: [{ type: "text", text }], isError: true };
  }
  return handler(parsed.data as never);
}

/**
 * resources/read: a note the user may read. A URI that names no such note (missing, not a note
 * address, or a note the user may not read) is invalid params with the URI in the error's data,
 * as the specification asks; only what was not foreseen is an internal error.
 */
async function readNote(ctx: AppContext, current: CurrentUser, uri: string): Promise<ReadResourceResult> {
  const id = NOTE_URI.exec(uri)?.[1];
  try {
    if (id === undefined) throw new NotFoundError("Resource");
    return { contents: [{ uri, mimeType: "text/markdown", text: await noteResourceText(ctx, current, Number(id)) }] };
  } catch (error) {
    if (error instanceof DomainError || error instanceof ValidationError) {
      throw new McpError(ErrorCode.InvalidParams, humanMessage(ctx, error), { uri });
    }
    throw new McpError(ErrorCode.InternalError, humanMessage(ctx, error));
  }
}

/**
 * An MCP server acting as one user. Built for each request (the Streamable HTTP endpoint is
 * stateless), so nothing of one user's call can leak into another's.
 */
export function engramMcpServer(ctx: AppContext, current: CurrentUser): McpServer {
  const server = new McpServer({ name: "engram", title: "Engram", version: "0.1.0" }, { instructions: INSTRUCTIONS });
  const handlers = engramTools(ctx, current);
  for (const [name, config] of Object.entries(TOOL_CONFIGS)) {
    // Each handler's argument type matches its own inputSchema; the loop only loses that pairing.
    server.registerTool(name, config, handlers[name as keyof typeof TOOL_CONFIGS] as never);
  }
  server.registerResource(
    "note",
    new ResourceTemplate("engram://note/{id}", {
      // The notebooks' head notes; the rest is reached through their children.
      list: async () => ({
        resources: (await notebooksOfUser(ctx, current)).notebooks.map((notebook) => ({
          uri: `engram://note/${notebook.headNoteId}`,
          name: notebook.title,
          description: `The notebook "${notebook.title}"`,
          mimeType: "text/markdown",
        })),
      }),
    }),
    { title: "Engram note", description: "A note: title, parent, details and children, as Markdown", mimeType: "text/markdown" },
    (uri) => readNote(ctx, current, uri.href),
  );
  // The SDK's handlers for these two, replaced once registration has installed them (see above).
  server.server.setRequestHandler(CallToolRequestSchema, (request) => callTool(handlers, request.params.name, request.params.arguments));
  server.server.setRequestHandler(ReadResourceRequestSchema, (request) => readNote(ctx, current, request.params.uri));
  return server;
}
