import { useQuery } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { icons } from "../lib/icons";
import { lazyComponent } from "../lib/lazy";
import { forgetDevice, hasWaitingAnswers } from "../lib/offline/waiting-flag";
import { currentUserInfoQuery } from "../lib/queries";
import { Menu, MenuItem, MenuLink, MenuSeparator } from "../lib/ui/Menu";

/** The settings dialog, fetched when it first opens. */
const UserSettingsDialog = lazyComponent(() => import("./UserSettingsDialog").then((m) => m.UserSettingsDialog));

/** The Account menu of the main menu. */
export default function AccountMenu() {
  const { data } = useQuery(currentUserInfoQuery());
  const user = data?.user;
  const [settingsOpen, setSettingsOpen] = useState(false);
  const logoutForm = useRef<HTMLFormElement>(null);

  if (!user) return null;
  // What this device kept for offline recall goes with the session. Answers given offline and
  // not synced yet are sent first, or the learner is asked (that code is fetched only then).
  function signOut() {
    const owner = String(user!.id);
    if (!hasWaitingAnswers(owner)) {
      forgetDevice(owner);
      logoutForm.current?.requestSubmit();
      return;
    }
    void import("../lib/offline/device-data")
      .then(({ clearDeviceData }) => clearDeviceData(owner))
      .catch(() => true)
      .then((clear) => {
        if (clear) logoutForm.current?.requestSubmit();
      });
  }

  return (
    <div className="account-menu">
      <Menu
        label="Account"
        triggerClassName="menu-item"
        side="right"
        align="end"
        trigger={
          <>
            {icons.account()}
            <span className="menu-label">Account</span>
          </>
        }
      >
        {user.admin && <MenuLink href="/d/admin-dashboard">Admin Dashboard</MenuLink>}
        <MenuLink href="/d/recent">Recent...</MenuLink>
        <MenuLink href="/d/stats">Statistics</MenuLink>
        <MenuItem onSelect={() => setSettingsOpen(true)}>Settings for {user.name}</MenuItem>
        <MenuLink href="/d/assessmentAndCertificateHistory">My Assessments and Certificates</MenuLink>
        <MenuLink href="/d/generate-token">Manage MCP Tokens</MenuLink>
        <MenuSeparator />
        <MenuItem onSelect={signOut}>Logout</MenuItem>
      </Menu>
      {/* Logout is a form post (it changes state); the menu item submits it. */}
      <form ref={logoutForm} method="post" action="/logout" hidden />
      {settingsOpen && <UserSettingsDialog user={user} onClose={() => setSettingsOpen(false)} />}
    </div>
  );
}
