import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useState } from "react";
import type { UserTokenJson } from "../../src/services/user-tokens";
import { ApiError, api, call } from "../lib/api";
import { TextField } from "../lib/forms";
import { icons } from "../lib/icons";
import { userTokensQuery } from "../lib/queries";
import { confirmPopup } from "../lib/ui-store";
import { COPY_FEEDBACK_MS, ConnectSnippets } from "./connect-snippets";

export { COPY_FEEDBACK_MS };

/**
 * The /d/generate-token page: list, generate (shown once, with copy), delete, and how to connect
 * an assistant to `mcpUrl` (the new token is in the snippets until the page is left).
 */
export default function TokensManager({ mcpUrl }: { mcpUrl: string }) {
  const queryClient = useQueryClient();
  const { data: tokens = [], isPending } = useQuery(userTokensQuery());
  const [label, setLabel] = useState("");
  const [labelError, setLabelError] = useState<string>();
  const [newToken, setNewToken] = useState<UserTokenJson>();
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPY_FEEDBACK_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const generate = useMutation({
    mutationFn: (tokenLabel: string) => call(api.user["generate-token"].post({ label: tokenLabel })),
    onSuccess: (token) => {
      setNewToken(token);
      setCopied(false);
      setLabel("");
      setLabelError(undefined);
      return queryClient.invalidateQueries({ queryKey: userTokensQuery().queryKey });
    },
    onError: (error) => error instanceof ApiError && setLabelError(error.errors.label),
  });

  const remove = useMutation({
    mutationFn: (id: number) => call(api.user.token({ tokenId: id }).delete()),
    onSuccess: (_, id) => {
      if (newToken?.id === id) setNewToken(undefined);
      return queryClient.invalidateQueries({ queryKey: userTokensQuery().queryKey });
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!label.trim()) {
      setLabelError("Please enter a label");
      return;
    }
    if (!generate.isPending) generate.mutate(label.trim());
  }

  async function copy(token: string) {
    try {
      await navigator.clipboard.writeText(token);
    } catch {
      // Clipboard refused (insecure context): select the text so the user can copy it by hand.
      document.getElementById("new-token-value")?.focus();
    }
    setCopied(true);
  }

  return (
    <div className="tokens-manager">
      <form className="card inline-form" onSubmit={submit} noValidate>
        <TextField
          label="Token label"
          name="label"
          value={label}
          error={labelError}
          maxLength={100}
          placeholder="e.g. My MCP client"
          onChange={(event) => setLabel(event.target.value)}
        />
        <button type="submit" className="button primary" disabled={generate.isPending}>
          Generate Token
        </button>
      </form>

      {newToken && (
        <section className="card new-token" aria-label="New token">
          <p>Copy this token now: it will not be shown again.</p>
          <div className="token-row">
            <input
              id="new-token-value"
              readOnly
              value={newToken.token}
              aria-label="New token value"
              onFocus={(event) => event.target.select()}
            />
            <button type="button" className="button" onClick={() => copy(newToken.token)}>
              {copied ? <>{icons.check()} Copied!</> : <>{icons.copy()} Copy</>}
            </button>
          </div>
        </section>
      )}

      {isPending ? (
        <p className="muted">Loading...</p>
      ) : tokens.length === 0 ? (
        <p className="empty-state">No tokens yet</p>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th>Label</th>
              <th>Last used</th>
              <th>Status</th>
              <th>
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {tokens.map((token) => (
              <tr key={token.id}>
                <td>{token.label}</td>
                <td>{token.lastUsedAt ? new Date(token.lastUsedAt).toLocaleString() : "Never"}</td>
                <td>{token.status}</td>
                <td>
                  <button
                    type="button"
                    className="button danger"
                    aria-label={`Delete token ${token.label}`}
                    disabled={remove.isPending}
                    onClick={async () => (await confirmPopup(`Delete the token "${token.label}"?`)) && remove.mutate(token.id)}
                  >
                    {icons.trash()} Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}

      <ConnectSnippets mcpUrl={mcpUrl} token={newToken?.token} />
    </div>
  );
}
