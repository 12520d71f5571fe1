import { describe, expect, test } from "bun:test";
import { parseMcpArgs } from "../../src/mcp-cli";

describe("engram mcp options", () => {
  test("the Engram URL gets /api/mcp; the endpoint itself is kept", () => {
    const options = parseMcpArgs(["--url", "http://localhost:3000", "--token", "engram_x"], {});
    expect(options).toEqual({ endpoint: new URL("http://localhost:3000/api/mcp"), token: "engram_x" });
    const endpoint = parseMcpArgs(["--url=https://engram.example.org/sub/api/mcp", "--token=t"], {});
    expect("endpoint" in endpoint && endpoint.endpoint.href).toBe("https://engram.example.org/sub/api/mcp");
  });

  test("options after a -- separator, as the MCP Inspector and npm pass them, are read the same", () => {
    const expected = { endpoint: new URL("http://localhost:3000/api/mcp"), token: "engram_x" };
    expect(parseMcpArgs(["--", "--url", "http://localhost:3000", "--token", "engram_x"], {})).toEqual(expected);
    expect(parseMcpArgs(["--url", "http://localhost:3000", "--", "--token=engram_x"], {})).toEqual(expected);
    expect(parseMcpArgs(["--"], { ENGRAM_MCP_TOKEN: "engram_x" })).toEqual({ problem: "--url is required." });
  });

  test("the token may come from ENGRAM_MCP_TOKEN", () => {
    const options = parseMcpArgs(["--url", "http://localhost:3000/"], { ENGRAM_MCP_TOKEN: " engram_y " });
    expect(options).toEqual({ endpoint: new URL("http://localhost:3000/api/mcp"), token: "engram_y" });
  });

  test("missing or odd options are named", () => {
    expect(parseMcpArgs([], {})).toEqual({ problem: "--url is required." });
    expect(parseMcpArgs(["--url", "http://x"], {})).toEqual({ problem: "--token (or ENGRAM_MCP_TOKEN) is required." });
    expect(parseMcpArgs(["--url"], {})).toEqual({ problem: "--url needs a value." });
    expect(parseMcpArgs(["--port", "1"], {})).toEqual({ problem: 'Unknown option "--port".' });
    expect(parseMcpArgs(["--url", "ftp://x", "--token", "t"], {})).toEqual({ problem: "--url must start with http:// or https://." });
    expect(parseMcpArgs(["--url", "not a url", "--token", "t"], {})).toEqual({ problem: '--url "not a url" is not a URL.' });
  });
});
