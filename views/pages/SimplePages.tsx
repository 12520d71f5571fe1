import type { ReactNode } from "react";
import { Island } from "../Island";

export function PageHeading({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="page-heading">
      <h1>{title}</h1>
      {children}
    </div>
  );
}

export function NotFoundPage() {
  return (
    <div className="card narrow-form">
      <h1>Page not found</h1>
      <p>There is nothing at this address. It may have moved, or the link may be wrong.</p>
      <p>
        <a href="/">Go to the home page</a>
      </p>
    </div>
  );
}

export function ErrorPage({ message }: { message: string }) {
  return (
    <div className="card narrow-form">
      <h1>Something went wrong</h1>
      <p>{message}</p>
      <p>
        <a href="/">Go to the home page</a>
      </p>
    </div>
  );
}

export function NewUserPage() {
  return <Island name="new-user-form" />;
}

/** `mcpUrl`: this Engram's MCP endpoint, as assistants reach it (the public URL when one is configured). */
export function TokensPage({ mcpUrl }: { mcpUrl: string }) {
  return (
    <>
      <PageHeading title="Manage MCP Tokens" />
      <p className="muted">
        Tokens let outside tools (MCP clients such as AI assistants) act as you. Send one as{" "}
        <code>Authorization: Bearer &lt;token&gt;</code>.
      </p>
      <Island name="tokens-manager" props={{ mcpUrl }} />
    </>
  );
}

/** A route of the spec whose feature is still to come: its place in the shell, with an honest empty state. */
export function SectionPage({ title, lead, empty }: { title: string; lead?: string; empty: string }) {
  return (
    <>
      <PageHeading title={title} />
      {lead && <p className="lead">{lead}</p>}
      <p className="empty-state">{empty}</p>
    </>
  );
}
