import type { ReactNode } from "react";
import { ScrollingStrip, useStripRef } from "../lib/ui/ScrollingStrip";
import { AssistantTab } from "./AssistantTab";
import { BazaarTab } from "./BazaarTab";
import { CertificationTab } from "./CertificationTab";
import { FailureReportsTab } from "./FailureReportsTab";
import { FineTuningTab } from "./FineTuningTab";
import { ModelsTab } from "./ModelsTab";
import { ADMIN_TABS, type AdminTab } from "./tabs";
import { UsersTab } from "./UsersTab";

const PANELS: Partial<Record<AdminTab, () => ReactNode>> = {
  "failure-reports": () => <FailureReportsTab />,
  models: () => <ModelsTab />,
  bazaar: () => <BazaarTab />,
  "certification-requests": () => <CertificationTab />,
  users: () => <UsersTab />,
  "fine-tuning": () => <FineTuningTab />,
  assistant: () => <AssistantTab />,
};

/**
 * /d/admin-dashboard/{tab}: the admin area. Each tab is a link to its own URL (a reload or a
 * shared link keeps the tab); the current one is marked aria-current and scrolled into view.
 */
export default function AdminDashboard({ tab }: { tab: AdminTab }) {
  const panel = PANELS[tab];
  const strip = useStripRef<HTMLElement>();
  return (
    <div className="admin-dashboard">
      <ScrollingStrip scrollerRef={strip}>
        <nav ref={strip} className="tabs admin-tabs" aria-label="Admin sections">
          {ADMIN_TABS.map((t) => (
            <a key={t.slug} href={`/d/admin-dashboard/${t.slug}`} className="tab" aria-current={t.slug === tab ? "page" : undefined}>
              {t.label}
            </a>
          ))}
        </nav>
      </ScrollingStrip>
      <section className="admin-panel" aria-label={ADMIN_TABS.find((t) => t.slug === tab)!.label}>
        {panel ? panel() : <p className="empty-state">This section arrives with the next release.</p>}
      </section>
    </div>
  );
}
