import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useState } from "react";
import type { UserTokenJson } from "../../src/services/user-tokens";
import { ApiError, api, call } from "../lib/api";
import { useHydrated, useLocalDateText } from "../lib/dates";
import { TextField } from "../lib/forms";
import { icons } from "../lib/icons";
import { userTokensQuery } from "../lib/queries";
import { confirmPopup } from "../lib/ui-store";
import { COPY_FEEDBACK_MS, ConnectSnippets } from "./connect-snippets";

export { COPY_FEEDBACK_MS };

/** The lifetimes offered when generating a token (days; null never expires). The first is the default. */
export const TOKEN_LIFETIMES: { label: string; days: number | null }[] = [
  { label: "90 days", days: 90 },
  { label: "30 days", days: 30 },
  { label: "7 days", days: 7 },
  { label: "1 year", days: 365 },
  { label: "Never", days: null },
];

const mediumDate = (date: Date) => date.toLocaleDateString(undefined, { dateStyle: "medium" });

/** When a token stops working, as the list shows it: a date (its time in the tooltip), or Never. */
function Expiry({ token }: { token: UserTokenJson }) {
  const text = useLocalDateText(token.expiresAt ?? "", mediumDate);
  const hydrated = useHydrated();
  if (token.expiresAt === null) return <>Never</>;
  return (
    <time dateTime={token.expiresAt} title={hydrated ? new Date(token.expiresAt).toLocaleString() : undefined}>
      {text}
    </time>
  );
}

/**
 * The /d/generate-token page: list, generate (shown once, with copy), delete, and how to connect
 * an assistant to `mcpUrl` (the new token is in the snippets until the page is left).
 */
export default function TokensManager({ mcpUrl }: { mcpUrl: string }) {
  const queryClient = useQueryClient();
  const { data: tokens = [], isPending } = useQuery(userTokensQuery());
  const [label, setLabel] = useState("");
  const [lifetime, setLifetime] = useState(0);
  const [labelError, setLabelError] = useState<string>();
  const [newToken, setNewToken] = useState<UserTokenJson>();
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPY_FEEDBACK_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const generate = useMutation({
    mutationFn: (tokenLabel: string) =>
      call(api.user["generate-token"].post({ label: tokenLabel, expiresInDays: TOKEN_LIFETIMES[lifetime]!.days })),
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
        <div className="field">
          <label htmlFor="token-lifetime">Expires after</label>
          <select id="token-lifetime" name="expiresInDays" value={lifetime} onChange={(event) => setLifetime(Number(event.target.value))}>
            {TOKEN_LIFETIMES.map((option, index) => (
              <option key={option.label} value={index}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
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
        <table className="table tokens-table">
          <thead>
            <tr>
              <th>Label</th>
              <th className="token-last-used">Last used</th>
              <th>Expires</th>
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
                <td className="token-last-used">{token.lastUsedAt ? new Date(token.lastUsedAt).toLocaleString() : "Never"}</td>
                <td className="token-expires">
                  <Expiry token={token} />
                </td>
                <td className={token.status === "expired" ? "token-expired" : undefined}>{token.status}</td>
                <td>
                  <button
                    type="button"
                    className="button danger"
                    aria-label={`Delete token ${token.label}`}
                    disabled={remove.isPending}
                    onClick={async () => (await confirmPopup(`Delete the token "${token.label}"?`)) && remove.mutate(token.id)}
                  >
                    {icons.trash()} <span className="button-text">Delete</span>
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
