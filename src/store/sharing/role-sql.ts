/**
 * The notebook roles as SQL text over a notebook `nb` and user ?1, for the raw list queries not on
 * the stores yet (recall, statistics) and the test that keeps them equal to the policy. A store
 * body says the same with `recallableNotebook` (access.ts). Goes with the last raw caller.
 */
type Role = "owner" | "circle-member" | "subscriber" | "bazaar-reader";

export const ROLE_SQL: Record<Role, string> = {
  owner: "(nb.circle_id IS NULL AND nb.creator_id = ?1)",
  "circle-member": "EXISTS (SELECT 1 FROM circle_members cm WHERE cm.circle_id = nb.circle_id AND cm.user_id = ?1)",
  subscriber: "EXISTS (SELECT 1 FROM subscriptions s WHERE s.notebook_id = nb.id AND s.user_id = ?1)",
  "bazaar-reader": "EXISTS (SELECT 1 FROM bazaar_notebooks b WHERE b.notebook_id = nb.id)",
};

/** Any of these roles, as one SQL condition. */
export const anyRoleSql = (roles: readonly Role[]) => `(${roles.map((role) => ROLE_SQL[role]).join("\n  OR ")})`;
