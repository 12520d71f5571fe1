/**
 * Another person named inside an answer (a conversation's initiator, a message's sender, a
 * certificate's holder): the User of the wire contract, with the id, name and externalIdentifier
 * it requires. A user's externalIdentifier is their login, which Engram shows to that user only:
 * anyone else reads a stable stand-in, "user#<id>", which no login can be (logins never hold a
 * "#"), so clients still tell people apart and recognise the reader without learning a login
 * that sign-in attempts could be aimed at (docs/decisions.md).
 */
import type { AppContext } from "../context";
import type { NamedUser } from "../store/user-references/user-references-store";
import type { CurrentUser } from "./user-rows";

export interface UserReferenceJson {
  id: number;
  name: string;
  externalIdentifier: string;
}

/** The stand-in for a login the reader may not see. */
export const hiddenExternalIdentifier = (userId: number) => `user#${userId}`;

function referencesOf(reader: CurrentUser | undefined, rows: NamedUser[]): Map<number, UserReferenceJson> {
  return new Map(
    rows.map((row) => [
      row.id,
      { id: row.id, name: row.name, externalIdentifier: row.id === reader?.user.id ? row.login : hiddenExternalIdentifier(row.id) },
    ]),
  );
}

/** A user that no longer exists: its id, with no name. */
export const missingUser = (userId: number): UserReferenceJson => ({
  id: userId,
  name: "",
  externalIdentifier: hiddenExternalIdentifier(userId),
});

/** Each of these users as the reader may see them (unknown ids are left out). */
export async function loadUserReferences(
  ctx: AppContext,
  reader: CurrentUser | undefined,
  userIds: number[],
): Promise<Map<number, UserReferenceJson>> {
  const ids = [...new Set(userIds)];
  if (ids.length === 0) return new Map();
  return referencesOf(reader, await ctx.stores.userReferences.namedUsers(ids));
}

/** One user as the reader may see them; a user that no longer exists keeps its id, with no name. */
export async function loadUserReference(ctx: AppContext, reader: CurrentUser | undefined, userId: number): Promise<UserReferenceJson> {
  return (await loadUserReferences(ctx, reader, [userId])).get(userId) ?? missingUser(userId);
}
