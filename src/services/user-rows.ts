import type { accounts, users } from "../db/schema";

// The row types of a user and their account, apart from users.ts so that the memory services
// users.ts calls can name them without importing it back.
export type AccountRow = typeof accounts.$inferSelect;
export type UserRow = typeof users.$inferSelect;
/** A signed-in user: the profile and the account it belongs to. */
export type CurrentUser = { user: UserRow; account: AccountRow };
