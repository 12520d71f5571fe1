/**
 * People named inside answers (a conversation's initiator, a message's sender, a certificate's
 * holder): their names and logins, read only (the people's own stores write those tables).
 */
import { eq } from "drizzle-orm";
import { defineStore, read, type StoreOf } from "../define";
import { all, inIds, one, type Session, type Step } from "../session";

export interface NamedUser {
  id: number;
  name: string;
  login: string;
}

/** These users' names and logins (unknown ids are left out). */
export function* namedUsers(s: Session, userIds: number[]): Step<NamedUser[]> {
  if (userIds.length === 0) return [];
  const { users, accounts } = s.t;
  return yield* all(
    s,
    s.db
      .select({ id: users.id, name: users.name, login: accounts.externalIdentifier })
      .from(users)
      .innerJoin(accounts, eq(users.accountId, accounts.id))
      .where(inIds(s, users.id, userIds)),
  );
}

/** The user whose login this is (the testability hooks name people by login). */
export function* userIdByLogin(s: Session, login: string): Step<number | undefined> {
  const { users, accounts } = s.t;
  const row = yield* one(
    s,
    s.db
      .select({ id: users.id })
      .from(users)
      .innerJoin(accounts, eq(users.accountId, accounts.id))
      .where(eq(accounts.externalIdentifier, login))
      .limit(1),
  );
  return row?.id;
}

export const userReferencesStore = defineStore({ namedUsers: read(namedUsers), userIdByLogin: read(userIdByLogin) });
export type UserReferencesStore = StoreOf<typeof userReferencesStore>;
