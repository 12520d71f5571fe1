import { useQuery } from "@tanstack/react-query";
import { useCallback, useRef, useState } from "react";
import { icons } from "../lib/icons";
import { useDismiss } from "../lib/use-dismiss";
import { useElementId } from "../lib/island-id";
import { currentUserInfoQuery } from "../lib/queries";
import { UserSettingsDialog } from "./UserSettingsDialog";

/** The Account dropdown of the main menu. */
export default function AccountMenu() {
  const { data } = useQuery(currentUserInfoQuery());
  const user = data?.user;
  const [open, setOpen] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const containerRef = useRef<HTMLDivElement>(null);
  const menuId = useElementId("account-menu");

  const closeMenu = useCallback(() => setOpen(false), []);
  useDismiss(open, closeMenu, containerRef);

  if (!user) return null;
  return (
    <div className="account-menu" ref={containerRef}>
      <button type="button" className="menu-item" aria-haspopup="menu" aria-expanded={open} aria-controls={menuId}
        onClick={() => setOpen((o) => !o)}>
        {icons.account()}
        <span className="menu-label">Account</span>
      </button>
      {open && (
        <div className="dropdown" role="menu" id={menuId} aria-label="Account">
          {user.admin && <a role="menuitem" href="/d/admin-dashboard">Admin Dashboard</a>}
          <a role="menuitem" href="/d/recent">Recent...</a>
          <button type="button" role="menuitem" onClick={() => { setOpen(false); setSettingsOpen(true); }}>
            Settings for {user.name}
          </button>
          <a role="menuitem" href="/d/assessmentAndCertificateHistory">My Assessments and Certificates</a>
          <a role="menuitem" href="/d/generate-token">Manage MCP Tokens</a>
          <form method="post" action="/logout" className="menu-form">
            <button type="submit" role="menuitem">Logout</button>
          </form>
        </div>
      )}
      {settingsOpen && <UserSettingsDialog user={user} onClose={() => setSettingsOpen(false)} />}
    </div>
  );
}
