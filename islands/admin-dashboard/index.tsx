import type { ReactNode } from "react";
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
 * shared link keeps the tab); the current one is marked aria-current.
 */
export default function AdminDashboard({ tab }: { tab: AdminTab }) {
  const panel = PANELS[tab];
  return (
    <div className="admin-dashboard">
      <nav className="tabs admin-tabs" aria-label="Admin sections">
        {ADMIN_TABS.map((t) => (
          <a key={t.slug} href={`/d/admin-dashboard/${t.slug}`} className="tab" aria-current={t.slug === tab ? "page" : undefined}>
            {t.label}
          </a>
        ))}
      </nav>
      <section className="admin-panel" aria-label={ADMIN_TABS.find((t) => t.slug === tab)!.label}>
        {panel ? panel() : <p className="empty-state">This section arrives with the next release.</p>}
      </section>
    </div>
  );
}
