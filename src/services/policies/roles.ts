/**
 * A caller's role for a notebook and which roles may do what, defined once. The TypeScript
 * predicates (index.ts) and the SQL conditions that list queries use (recall, stats) are both
 * built from these tables, so the two forms cannot drift apart.
 */
import { anyRoleSql } from "../../store/sharing/role-sql";

export type NotebookRole = "owner" | "circle-member" | "subscriber" | "bazaar-reader" | "none";

/** Each role as an SQL condition on a notebook `nb` for user ?1 (the facts notebookRole reads). */
export { ROLE_SQL } from "../../store/sharing/role-sql";

/** Who edits a notebook's notes, links, images, settings and index (and shares it). */
export const EDITING_ROLES = ["owner", "circle-member"] as const satisfies readonly NotebookRole[];
/** Who assimilates and recalls a notebook's notes. */
export const RECALLING_ROLES = [...EDITING_ROLES, "subscriber"] as const satisfies readonly NotebookRole[];

const among = (roles: readonly NotebookRole[]) => (role: NotebookRole) => roles.includes(role);

export const mayRead = (role: NotebookRole) => role !== "none";
export const mayEdit = among(EDITING_ROLES);
export const mayRecall = among(RECALLING_ROLES);

/** SQL condition on a notebook `nb` that user ?1 may recall (and assimilate): mayRecall as SQL. */
export const RECALLABLE_NOTEBOOK_SQL = anyRoleSql(RECALLING_ROLES);
