import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { AppContext } from "../../context";
import { NotFoundError } from "../errors";
import { notebooksOfUser } from "../notebooks";
import type { CurrentUser } from "../users";
import { engramTools, humanMessage, noteResourceText, TOOL_CONFIGS } from "./tools";

const INSTRUCTIONS =
  "Engram holds the user's notes, organised in notebooks as trees (each note has a parent, children and links). " +
  "Find notes with find_most_relevant_note, read them with get_note or get_note_graph, write with add_note and update_note. " +
  "get_recall_status tells how many notes are due to recall and to assimilate today.";

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
      list: () => ({
        resources: notebooksOfUser(ctx, current).notebooks.map((notebook) => ({
          uri: `engram://note/${notebook.headNoteId}`,
          name: notebook.title,
          description: `The notebook "${notebook.title}"`,
          mimeType: "text/markdown",
        })),
      }),
    }),
    { title: "Engram note", description: "A note: title, parent, details and children, as Markdown", mimeType: "text/markdown" },
    (uri, variables) => {
      try {
        const id = /^[1-9][0-9]{0,14}$/.test(String(variables.id)) ? Number(variables.id) : undefined;
        if (id === undefined) throw new NotFoundError("Note");
        return { contents: [{ uri: uri.href, mimeType: "text/markdown", text: noteResourceText(ctx, current, id) }] };
      } catch (error) {
        // The SDK answers a JSON-RPC error with this message.
        throw new Error(humanMessage(ctx, error));
      }
    },
  );
  return server;
}
