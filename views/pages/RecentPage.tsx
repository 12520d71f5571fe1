import { Island } from "../Island";
import { PageHeading } from "./SimplePages";

/** /d/recent: Recently Added/Updated, Recently Learned, Recently Reviewed. */
export function RecentPage() {
  return (
    <>
      <PageHeading title="Recent" />
      <Island name="recent-notes" />
    </>
  );
}
