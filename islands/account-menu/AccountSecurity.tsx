import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { ApiError, api, call } from "../lib/api";
import { LocalTime } from "../lib/dates";
import { CheckboxField, TextField } from "../lib/forms";
import { showToast } from "../lib/ui-store";

const sessionsQuery = () => ({
  queryKey: ["user", "sessions"] as const,
  queryFn: () => call(api.user.sessions.get()),
  // Sessions start and end elsewhere: read them afresh each time the settings open.
  staleTime: 0,
  refetchOnMount: "always" as const,
});

/**
 * The "Sign-in and sessions" part of the settings dialog: the account's active sessions (when each
 * started, was last used, and the browser), "Sign out other sessions", and a password change that
 * needs the current password and ends every other session.
 */
export function AccountSecurity() {
  const queryClient = useQueryClient();
  const sessions = useQuery(sessionsQuery());
  const [signingOut, setSigningOut] = useState(false);
  const others = (sessions.data ?? []).filter((s) => !s.current).length;

  async function signOutOthers() {
    setSigningOut(true);
    try {
      const { signedOut } = await call(api.user.sessions["sign-out-others"].post());
      showToast(signedOut === 1 ? "Signed out 1 other session" : `Signed out ${signedOut} other sessions`, "success");
      await queryClient.invalidateQueries({ queryKey: sessionsQuery().queryKey });
    } catch {
      // the toast says why
    } finally {
      setSigningOut(false);
    }
  }

  return (
    <section className="account-security" aria-labelledby="account-sessions-heading">
      <h3 id="account-sessions-heading">Sessions</h3>
      {sessions.isPending ? (
        <p className="muted">Loading sessions…</p>
      ) : (
        <ul className="session-list" aria-label="Active sessions">
          {[...(sessions.data ?? [])]
            .sort((a, b) => Number(b.current) - Number(a.current))
            .map((session, index) => (
              <li
                // biome-ignore lint/suspicious/noArrayIndexKey: the server gives sessions no id; the list is replaced whole when refetched.
                key={index}
                className="session-row"
              >
                <div className="session-browser">
                  {session.browser}
                  {session.current && <span className="session-current"> (this session)</span>}
                </div>
                <div className="session-times muted">
                  {session.createdAt && (
                    <span>
                      Signed in <LocalTime iso={session.createdAt} />
                    </span>
                  )}
                  {session.lastUsedAt && (
                    <span>
                      Last used <LocalTime iso={session.lastUsedAt} />
                    </span>
                  )}
                </div>
              </li>
            ))}
        </ul>
      )}
      <button type="button" className="button" onClick={signOutOthers} disabled={signingOut || others === 0}>
        Sign out other sessions
      </button>
      <ChangePasswordForm onChanged={() => queryClient.invalidateQueries({ queryKey: sessionsQuery().queryKey })} />
    </section>
  );
}

function ChangePasswordForm({ onChanged }: { onChanged: () => void }) {
  const [form, setForm] = useState({ currentPassword: "", newPassword: "" });
  const [revokeTokens, setRevokeTokens] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string>();
  const [saving, setSaving] = useState(false);
  const set = (field: keyof typeof form) => (event: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [field]: event.target.value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (saving) return;
    setSaving(true);
    setErrors({});
    setMessage(undefined);
    try {
      const { revokedTokens } = await call(api.user.password.post({ ...form, revokeTokens }), { silent: true });
      setForm({ currentPassword: "", newPassword: "" });
      setRevokeTokens(false);
      const tokens =
        revokedTokens === 1 ? " 1 MCP token is revoked." : revokedTokens > 1 ? ` ${revokedTokens} MCP tokens are revoked.` : "";
      showToast(`Password changed. Every other session is signed out.${tokens}`, "success");
      onChanged();
    } catch (e) {
      if (e instanceof ApiError && Object.keys(e.errors).length) setErrors(e.errors);
      else if (e instanceof ApiError) setMessage(e.message);
    } finally {
      setSaving(false);
    }
  }

  return (
    <form className="change-password" onSubmit={submit} noValidate aria-labelledby="change-password-heading">
      <h3 id="change-password-heading">Change password</h3>
      <TextField
        label="Current password"
        name="currentPassword"
        type="password"
        autoComplete="current-password"
        value={form.currentPassword}
        error={errors.currentPassword}
        onChange={set("currentPassword")}
      />
      <TextField
        label="New password"
        name="newPassword"
        type="password"
        autoComplete="new-password"
        minLength={8}
        value={form.newPassword}
        error={errors.newPassword}
        onChange={set("newPassword")}
      />
      <p className="field-hint">At least 8 characters. Changing it signs out every other session.</p>
      <CheckboxField label="Also revoke my MCP tokens" name="revokeTokens" checked={revokeTokens} onChange={setRevokeTokens} />
      {message && (
        <div className="field-error" role="alert">
          {message}
        </div>
      )}
      <button type="submit" className="button primary" disabled={saving}>
        Change password
      </button>
    </form>
  );
}
