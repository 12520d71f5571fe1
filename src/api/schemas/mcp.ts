import { t } from "elysia";
import { Integer } from "./integer";

/**
 * The MCP endpoint's answers. They are the MCP SDK's own (Streamable HTTP, stateless): JSON-RPC
 * messages, which these schemas describe for the OpenAPI document; nothing here checks them.
 */

const JsonRpcId = t.Union([t.String(), Integer(), t.Null()]);

const JsonRpcError = t.Object({
  jsonrpc: t.Literal("2.0"),
  id: JsonRpcId,
  error: t.Object({ code: Integer(), message: t.String(), data: t.Optional(t.Unknown()) }),
});

const JsonRpcResult = t.Object({ jsonrpc: t.Literal("2.0"), id: JsonRpcId, result: t.Record(t.String(), t.Unknown()) });

/** One JSON-RPC answer, or a batch of them. */
export const McpAnswer = t.Union([JsonRpcResult, JsonRpcError, t.Array(t.Union([JsonRpcResult, JsonRpcError]))], {
  description:
    "JSON-RPC answers (MCP over Streamable HTTP). A client that accepts text/event-stream may get them as server-sent events instead; a notification alone is answered 202 without a body.",
});

/** What a refused call answers: a JSON-RPC error outside any exchange. */
export const McpRefusal = JsonRpcError;
