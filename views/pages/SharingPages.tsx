import { Island } from "../Island";
import { PageHeading } from "./SimplePages";

/** /d/bazaar: the shared notebooks, open to everyone. */
export function BazaarPage() {
  return (
    <>
      <PageHeading title="Welcome To The Bazaar" />
      <p className="lead">These are shared notes from users of Engram.</p>
      <Island name="bazaar" />
    </>
  );
}

/** /d/circles: my circles, "Create a new circle" and the join box. */
export function CirclesPage() {
  return (
    <>
      <PageHeading title="My Circles" />
      <Island name="circles" />
    </>
  );
}

/** /d/circles/{id}: the circle's notebooks, members and invitation link (the notebooks island in its circle mode). */
export function CirclePage({ circleId, joinLinkBase }: { circleId: number; joinLinkBase: string }) {
  return <Island name="notebooks" props={{ circleId, joinLinkBase }} />;
}

/** /d/circles/join/{code}: the invitation and "Join". */
export function JoinCirclePage({ invitationCode, invitedTo }: { invitationCode: string; invitedTo?: string }) {
  return (
    <>
      <PageHeading title="Join a circle" />
      <Island name="circles" props={{ invitationCode, ...(invitedTo ? { invitedTo } : {}) }} />
    </>
  );
}
