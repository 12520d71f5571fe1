import { useEffect, useState } from "react";
import { icons } from "../lib/icons";
import { Tabs } from "../lib/ui/Tabs";

export const COPY_FEEDBACK_MS = 1500;
/** Stands for the token in the snippets until one is generated on this visit (tokens are shown once). */
export const TOKEN_PLACEHOLDER = "<your token>";

type SnippetKey = "http" | "claude" | "command";

/** The Streamable HTTP config of VS Code (.vscode/mcp.json); Cursor and others read the same url and headers. */
export function httpSnippet(mcpUrl: string, token: string) {
  return JSON.stringify({ servers: { engram: { type: "http", url: mcpUrl, headers: { Authorization: `Bearer ${token}` } } } }, null, 2);
}

/** Engram's URL without the endpoint's path, as `engram mcp --url` takes it. */
const engramUrl = (mcpUrl: string) => mcpUrl.replace(/\/api\/mcp$/, "");

/** Claude Desktop's claude_desktop_config.json starts local commands: the stdio relay of the engram binary. */
export function claudeDesktopSnippet(mcpUrl: string, token: string) {
  return JSON.stringify(
    { mcpServers: { engram: { command: "engram", args: ["mcp", "--url", engramUrl(mcpUrl), "--token", token] } } },
    null,
    2,
  );
}

export function commandSnippet(mcpUrl: string, token: string) {
  return `engram mcp --url ${engramUrl(mcpUrl)} --token ${token}\n# from a clone of Engram:\nnpm run --silent mcp -- --url ${engramUrl(mcpUrl)} --token ${token}`;
}

function CopyableSnippet({ label, text }: { label: string; text: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPY_FEEDBACK_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
    } catch {
      // Clipboard refused (insecure context): the snippet stays selectable by hand.
    }
  }
  return (
    <div className="mcp-snippet">
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable snippet must be focusable to scroll by keyboard; its label names it. */}
      {/* biome-ignore lint/a11y/useSemanticElements: a pre that keeps its layout; role region gives the focusable scroll area its name. */}
      <pre role="region" aria-label={label} tabIndex={0}>
        <code>{text}</code>
      </pre>
      <button type="button" className="button" onClick={copy}>
        {copied ? (
          <>{icons.check()} Copied!</>
        ) : (
          <>
            {icons.copy()} Copy<span className="visually-hidden"> {label}</span>
          </>
        )}
      </button>
    </div>
  );
}

/** How to connect an assistant: ready-to-copy snippets with this Engram's MCP URL and, right after generating, the new token. */
export function ConnectSnippets({ mcpUrl, token }: { mcpUrl: string; token?: string }) {
  const [selected, setSelected] = useState<SnippetKey>("http");
  const shown = token ?? TOKEN_PLACEHOLDER;
  return (
    <section className="card mcp-connect" aria-labelledby="mcp-connect-heading">
      <h2 id="mcp-connect-heading">Connect your AI assistant</h2>
      <p className="muted">
        MCP endpoint (Streamable HTTP): <code>{mcpUrl}</code>, with the header <code>Authorization: Bearer {shown}</code>.
        {token ? " The snippets below hold your new token." : " Generate a token and put it in place of <your token>."}
      </p>
      <Tabs<SnippetKey>
        label="Connection snippets"
        selected={selected}
        onSelect={setSelected}
        tabs={[
          {
            key: "http",
            label: "VS Code (HTTP)",
            content: () => (
              <>
                <p>
                  In <code>.vscode/mcp.json</code> (Cursor and other Streamable HTTP clients take the same URL and header):
                </p>
                <CopyableSnippet label="VS Code configuration" text={httpSnippet(mcpUrl, shown)} />
              </>
            ),
          },
          {
            key: "claude",
            label: "Claude Desktop",
            content: () => (
              <>
                <p>
                  In <code>claude_desktop_config.json</code> (the <code>engram</code> binary relays over stdio; give its full path if it is
                  not on your PATH):
                </p>
                <CopyableSnippet label="Claude Desktop configuration" text={claudeDesktopSnippet(mcpUrl, shown)} />
              </>
            ),
          },
          {
            key: "command",
            label: "Command line",
            content: () => (
              <>
                <p>For assistants that start a local command (MCP over stdio):</p>
                <CopyableSnippet label="stdio command" text={commandSnippet(mcpUrl, shown)} />
              </>
            ),
          },
        ]}
      />
    </section>
  );
}
