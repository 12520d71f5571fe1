/**
 * `engram mcp --url <Engram URL> --token <token>` / `npm run --silent mcp -- --url ... --token ...`:
 * Engram's MCP tools over stdio, for assistants that only start local commands. It relays each
 * JSON-RPC message from stdin to a running Engram's Streamable HTTP endpoint (/api/mcp) with the
 * token, and each answer back to stdout. stdout carries only MCP messages; notes go to stderr.
 * The token may also come from ENGRAM_MCP_TOKEN (so it is not seen in the process list).
 */
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { isJSONRPCRequest, isJSONRPCResultResponse, type JSONRPCMessage, type RequestId } from "@modelcontextprotocol/sdk/types.js";

export const MCP_USAGE = "Usage: engram mcp --url <Engram URL, e.g. http://localhost:3000> --token <token from Manage MCP Tokens>";

export interface McpRelayOptions {
  endpoint: URL;
  token: string;
}

/** The options from the command line (and ENGRAM_MCP_TOKEN), or the problem with them. */
export function parseMcpArgs(args: string[], env: Record<string, string | undefined> = process.env): McpRelayOptions | { problem: string } {
  const values: Record<string, string> = {};
  // MCP clients and the Inspector may pass the options after a "--" (as `npm run mcp -- ...` is typed): it only separates.
  args = args.filter((arg) => arg !== "--");
  for (let i = 0; i < args.length; i++) {
    const [flag, inline] = args[i]!.split(/=(.*)/s, 2);
    if (flag !== "--url" && flag !== "--token") return { problem: `Unknown option "${args[i]}".` };
    const value = inline ?? args[++i];
    if (!value) return { problem: `${flag} needs a value.` };
    values[flag.slice(2)] = value;
  }
  const token = values.token ?? env.ENGRAM_MCP_TOKEN?.trim();
  if (!values.url) return { problem: "--url is required." };
  if (!token) return { problem: "--token (or ENGRAM_MCP_TOKEN) is required." };
  let endpoint: URL;
  try {
    endpoint = new URL(values.url);
  } catch {
    return { problem: `--url "${values.url}" is not a URL.` };
  }
  if (endpoint.protocol !== "http:" && endpoint.protocol !== "https:") return { problem: "--url must start with http:// or https://." };
  // The Engram URL or the endpoint itself.
  if (!/\/api\/mcp\/?$/.test(endpoint.pathname)) endpoint.pathname = `${endpoint.pathname.replace(/\/$/, "")}/api/mcp`;
  return { endpoint, token };
}

/** A human sentence for a failed relay to Engram. */
function relayProblem(endpoint: URL, error: unknown): string {
  if (error instanceof StreamableHTTPError && error.code === 401) {
    return "Engram refused the token (missing, wrong or deleted): generate one under Manage MCP Tokens.";
  }
  if (error instanceof StreamableHTTPError) return `Engram answered ${error.code}: ${error.message}`;
  return `Cannot reach Engram at ${endpoint.href}: ${error instanceof Error ? error.message : String(error)}`;
}

/**
 * Relays between stdin/stdout and Engram until stdin closes; resolves with the exit code.
 * A request Engram cannot answer gets a JSON-RPC error reply, so the assistant shows why.
 */
export async function runMcpRelay(options: McpRelayOptions, stdin = process.stdin, stdout = process.stdout): Promise<number> {
  const local = new StdioServerTransport(stdin, stdout);
  const remote = new StreamableHTTPClientTransport(options.endpoint, {
    requestInit: { headers: { authorization: `Bearer ${options.token}` } },
  });
  const initializeIds = new Set<RequestId>();

  remote.onmessage = (message) => {
    // After initialize the protocol version goes with every request, as the SDK's own client does.
    if (isJSONRPCResultResponse(message) && initializeIds.delete(message.id)) {
      const version = (message.result as { protocolVersion?: unknown }).protocolVersion;
      if (typeof version === "string") remote.setProtocolVersion(version);
    }
    void local.send(message);
  };
  remote.onerror = (error) => console.error(`engram mcp: ${relayProblem(options.endpoint, error)}`);
  local.onmessage = (message: JSONRPCMessage) => {
    if (isJSONRPCRequest(message) && message.method === "initialize") initializeIds.add(message.id);
    remote.send(message).catch((error) => {
      if (!isJSONRPCRequest(message)) return;
      void local.send({ jsonrpc: "2.0", id: message.id, error: { code: -32000, message: relayProblem(options.endpoint, error) } });
    });
  };
  local.onerror = (error) => console.error(`engram mcp: ${error.message}`);

  const closed = new Promise<void>((resolve) => {
    stdin.once("end", resolve);
    stdin.once("close", resolve);
  });
  await remote.start();
  await local.start();
  console.error(`engram mcp: relaying to ${options.endpoint.href}`);
  await closed;
  await remote.close().catch(() => undefined);
  return 0;
}

/** `engram mcp ...`: checks the options, then relays; answers the exit code. */
export async function runMcpCommand(args: string[], env: Record<string, string | undefined> = process.env): Promise<number> {
  const options = parseMcpArgs(args, env);
  if ("problem" in options) {
    console.error(`engram mcp: ${options.problem}\n${MCP_USAGE}`);
    return 2;
  }
  return runMcpRelay(options);
}

if (import.meta.main) process.exit(await runMcpCommand(process.argv.slice(2)));
