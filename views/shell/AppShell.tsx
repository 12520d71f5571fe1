import type { ReactNode } from "react";
import { icons } from "../../islands/lib/icons";
import type { OperationJson } from "../../src/operations";
import type { UserJson } from "../../src/services/users";
import { Island } from "../Island";

export type MenuSection = "note" | "assimilate" | "recall" | "circles" | "bazaar" | "messages" | undefined;

export interface ShellProps {
  user: UserJson | undefined;
  signedIn: boolean;
  loginPath: string;
  currentPath: string;
  active: MenuSection;
  testability: boolean;
  /** The user's long work still to show (running, or finished and not dismissed); usually none. */
  operations?: OperationJson[];
  children: ReactNode;
}

function MenuLink({
  href,
  label,
  icon,
  active,
  badge,
}: {
  href: string;
  label: string;
  icon: ReactNode;
  active: boolean;
  badge?: "assimilate" | "recall" | "messages";
}) {
  return (
    <a href={href} className={`menu-item${active ? " active" : ""}`} aria-current={active ? "page" : undefined}>
      {icon}
      <span className="menu-label">{label}</span>
      {badge && <Island name="menu-badge" props={{ kind: badge }} />}
    </a>
  );
}

/**
 * The app shell of spec 2: the main menu (upper: Note, Assimilate, Recall; lower: Circles,
 * Bazaar, Messages; the Account dropdown, or a login icon when signed out), the top bar, and the
 * overlays (loading bar, toasts, popups).
 */
export function AppShell({ user, signedIn, loginPath, currentPath, active, testability, operations, children }: ShellProps) {
  const from = encodeURIComponent(currentPath);
  return (
    <div className="app">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <nav className="main-menu" id="main-menu" aria-label="Main menu">
        <a href="/" className="brand" aria-label="Engram home">
          {icons.brand()}
          <span className="menu-label">Engram</span>
        </a>
        {user && (
          <>
            <Island name="menu-drawer" />
            <div className="menu-groups" id="main-menu-items">
              <div className="menu-group upper">
                <MenuLink href="/d/notebooks" label="Note" icon={icons.note()} active={active === "note"} />
                <MenuLink
                  href="/d/assimilate"
                  label="Assimilate"
                  icon={icons.assimilate()}
                  active={active === "assimilate"}
                  badge="assimilate"
                />
                <MenuLink href="/d/recall" label="Recall" icon={icons.recall()} active={active === "recall"} badge="recall" />
              </div>
              <div className="menu-group lower">
                <MenuLink href="/d/circles" label="Circles" icon={icons.circles()} active={active === "circles"} />
                <MenuLink href="/d/bazaar" label="Bazaar" icon={icons.bazaar()} active={active === "bazaar"} />
                <MenuLink
                  href="/d/message-center"
                  label="Messages"
                  icon={icons.messages()}
                  active={active === "messages"}
                  badge="messages"
                />
                <Island name="account-menu" />
              </div>
            </div>
          </>
        )}
        {!user && signedIn && (
          <div className="menu-group lower">
            <form method="post" action="/logout" className="menu-form">
              <button type="submit" className="menu-item">
                {icons.login()}
                <span className="menu-label">Logout</span>
              </button>
            </form>
          </div>
        )}
        {!signedIn && (
          <div className="menu-group lower">
            <a href={`${loginPath}?from=${from}`} className="menu-item" aria-label="Login" title="Login">
              {icons.login()}
              <span className="menu-label">Login</span>
            </a>
          </div>
        )}
      </nav>
      <div className="app-body">
        <header className="top-bar">
          <div className="top-bar-slot" id="top-bar-search">
            {user && <Island name="search-note" />}
          </div>
          <div className="top-bar-slot" id="top-bar-undo">
            {user && <Island name="undo-button" />}
          </div>
        </header>
        <main className="content" id="main" tabIndex={-1}>
          {children}
        </main>
        {operations && operations.length > 0 && <Island name="operations-status" props={{ operations }} />}
      </div>
      <Island name="shell-overlays" />
      {testability && <Island name="testability-panel" />}
    </div>
  );
}
