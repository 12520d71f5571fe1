/**
 * A caller's role for a notebook and which roles may do what, defined once. The TypeScript
 * predicates (index.ts) and the SQL conditions that list queries use (recall, stats) are both
 * built from these tables, so the two forms cannot drift apart.
 */
export type NotebookRole = "owner" | "circle-member" | "subscriber" | "bazaar-reader" | "none";

/** Each role as an SQL condition on a notebook `nb` for user ?1 (the facts notebookRole reads). */
export const ROLE_SQL: Record<Exclude<NotebookRole, "none">, string> = {
  owner: "(nb.circle_id IS NULL AND nb.creator_id = ?1)",
  "circle-member": "EXISTS (SELECT 1 FROM circle_members cm WHERE cm.circle_id = nb.circle_id AND cm.user_id = ?1)",
  subscriber: "EXISTS (SELECT 1 FROM subscriptions s WHERE s.notebook_id = nb.id AND s.user_id = ?1)",
  "bazaar-reader": "EXISTS (SELECT 1 FROM bazaar_notebooks b WHERE b.notebook_id = nb.id)",
};

/** Who edits a notebook's notes, links, images, settings and index (and shares it). */
export const EDITING_ROLES = ["owner", "circle-member"] as const satisfies readonly NotebookRole[];
/** Who assimilates and recalls a notebook's notes. */
export const RECALLING_ROLES = [...EDITING_ROLES, "subscriber"] as const satisfies readonly NotebookRole[];

const among = (roles: readonly NotebookRole[]) => (role: NotebookRole) => roles.includes(role);
const anyOf = (roles: readonly Exclude<NotebookRole, "none">[]) => `(${roles.map((role) => ROLE_SQL[role]).join("\n  OR ")})`;

export const mayRead = (role: NotebookRole) => role !== "none";
export const mayEdit = among(EDITING_ROLES);
export const mayRecall = among(RECALLING_ROLES);

/** SQL condition on a notebook `nb` that user ?1 may recall (and assimilate): mayRecall as SQL. */
export const RECALLABLE_NOTEBOOK_SQL = anyOf(RECALLING_ROLES);
