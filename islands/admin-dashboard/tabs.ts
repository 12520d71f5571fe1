/** The admin dashboard's tabs, each its own URL (/d/admin-dashboard/{slug}) so a reload or a link keeps it. */
export const ADMIN_TABS = [
  { slug: "fine-tuning", label: "Fine Tuning Data" },
  { slug: "failure-reports", label: "Failure Reports" },
  { slug: "models", label: "Manage Models" },
  { slug: "assistant", label: "Manage Assistant" },
  { slug: "bazaar", label: "Manage Bazaar" },
  { slug: "certification-requests", label: "Certification Requests" },
  { slug: "users", label: "Users" },
] as const;

export type AdminTab = (typeof ADMIN_TABS)[number]["slug"];
export const DEFAULT_ADMIN_TAB: AdminTab = "failure-reports";
export const isAdminTab = (slug: string): slug is AdminTab => ADMIN_TABS.some((tab) => tab.slug === slug);
