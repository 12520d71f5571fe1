import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { AccountForAdminJson } from "../../src/services/admin/users";
import { api, call } from "../lib/api";
import { currentUserInfoQuery } from "../lib/queries";
import { Modal } from "../lib/ui/Dialog";
import { confirmPopup } from "../lib/ui-store";
import { dateTimeText } from "./format";

const usersQuery = { queryKey: ["admin", "users"], queryFn: () => call(api.admin.users.get()) };

function ResetLinkDialog({ link, expiresAt, login, onClose }: { link: string; expiresAt: string; login: string; onClose: () => void }) {
  return (
    <Modal title="Password-reset link" onClose={onClose}>
      <p>
        Give this link to <strong dir="auto">{login}</strong>. It works once, until {dateTimeText(expiresAt)}, and is not shown again.
      </p>
      <div className="copy-field">
        <input type="text" readOnly value={link} aria-label="Password-reset link" onFocus={(event) => event.currentTarget.select()} />
        <button type="button" className="button" onClick={() => void navigator.clipboard?.writeText(link)}>
          Copy
        </button>
      </div>
      <div className="dialog-actions">
        <button type="button" className="button primary" onClick={onClose}>
          Done
        </button>
      </div>
    </Modal>
  );
}

/** "Users": the instance's accounts, admin rights, disabling, and one-time password-reset links. */
export function UsersTab() {
  const queryClient = useQueryClient();
  const { data: accounts, isPending } = useQuery(usersQuery);
  const { data: me } = useQuery(currentUserInfoQuery());
  const [reset, setReset] = useState<{ link: string; expiresAt: string; login: string }>();

  async function change(account: AccountForAdminJson, change: { admin?: boolean; disabled?: boolean }, question: string) {
    if (!(await confirmPopup(question))) return;
    await call(api.admin.users({ account: account.id }).patch(change));
    await queryClient.invalidateQueries({ queryKey: usersQuery.queryKey });
  }
  async function makeResetLink(account: AccountForAdminJson) {
    const made = await call(api.admin.users({ account: account.id })["password-reset"].post());
    setReset({ link: `${window.location.origin}${made.path}`, expiresAt: made.expiresAt, login: account.login });
  }

  if (isPending) return <p className="muted">Loading users...</p>;
  return (
    <>
      <div className="table-scroll">
        <table className="history-table admin-users">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Login</th>
              <th scope="col">Created</th>
              <th scope="col">Last seen</th>
              <th scope="col">Role</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {(accounts ?? []).map((account) => {
              const self = account.login === me?.externalIdentifier;
              return (
                <tr key={account.id}>
                  <td data-label="Name" dir="auto">
                    {account.name ?? <span className="muted">(no profile)</span>}
                  </td>
                  <td data-label="Login" dir="auto">
                    {account.login}
                  </td>
                  <td data-label="Created">{dateTimeText(account.createdAt)}</td>
                  <td data-label="Last seen">
                    {account.lastSeenAt ? dateTimeText(account.lastSeenAt) : <span className="muted">never</span>}
                  </td>
                  <td data-label="Role">{account.disabled ? "Disabled" : account.admin ? "Admin" : "User"}</td>
                  <td data-label="Actions" className="admin-user-actions">
                    {account.admin ? (
                      <button
                        type="button"
                        className="button small"
                        disabled={self}
                        onClick={() => void change(account, { admin: false }, `Revoke admin from ${account.login}?`)}
                      >
                        Revoke admin
                      </button>
                    ) : (
                      <button
                        type="button"
                        className="button small"
                        onClick={() => void change(account, { admin: true }, `Make ${account.login} an admin?`)}
                      >
                        Grant admin
                      </button>
                    )}
                    {account.disabled ? (
                      <button
                        type="button"
                        className="button small"
                        onClick={() => void change(account, { disabled: false }, `Enable ${account.login}?`)}
                      >
                        Enable
                      </button>
                    ) : (
                      <button
                        type="button"
                        className="button small danger"
                        disabled={self}
                        onClick={() =>
                          void change(account, { disabled: true }, `Disable ${account.login}? They are signed out and cannot sign in.`)
                        }
                      >
                        Disable
                      </button>
                    )}
                    <button type="button" className="button small" onClick={() => void makeResetLink(account)}>
                      Password-reset link
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {reset && <ResetLinkDialog {...reset} onClose={() => setReset(undefined)} />}
    </>
  );
}
