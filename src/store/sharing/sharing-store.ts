/**
 * Sharing: circles and their members, subscriptions, and the bazaar. The policy's facts about them
 * are the bodies of access.ts; a notebook moved into a circle is written by the notes store's body.
 */
import { eq, sql } from "drizzle-orm";
import type { circles, subscriptions } from "../../db/schema";
import { defineStore, read, type StoreOf, write } from "../define";
import { moveNotebookToCircle } from "../notes/notebook-circle";
import { all, one, prepared, run, type Session, type Step } from "../session";
import * as access from "./access";

export type CircleRow = typeof circles.$inferSelect;
export type SubscriptionRow = typeof subscriptions.$inferSelect;

// The bazaar

/** Every bazaar entry: its id and its notebook. */
export function* bazaarEntries(s: Session): Step<{ id: number; notebookId: number }[]> {
  const { bazaarNotebooks: b } = s.t;
  return yield* all(s, s.db.select({ id: b.id, notebookId: b.notebookId }).from(b));
}

/** Puts a notebook in the bazaar; sharing it again changes nothing. */
export function* shareToBazaar(s: Session, notebookId: number, now: Date): Step<void> {
  yield* run(s, s.db.insert(s.t.bazaarNotebooks).values({ notebookId, createdAt: now }).onConflictDoNothing());
}

/** Removes a bazaar entry; false when there is no such entry. */
export function* removeFromBazaar(s: Session, entryId: number): Step<boolean> {
  return (yield* run(s, s.db.delete(s.t.bazaarNotebooks).where(eq(s.t.bazaarNotebooks.id, entryId)))) > 0;
}

/** Shares the notebook of the first note with this title (the testability endpoint); false when there is none. */
export function* shareNotebookOfNoteToBazaar(s: Session, title: string, now: Date): Step<boolean> {
  const { notes } = s.t;
  const note = yield* one(
    s,
    s.db.select({ notebookId: notes.notebookId }).from(notes).where(eq(notes.title, title)).orderBy(notes.id).limit(1),
  );
  if (!note) return false;
  yield* shareToBazaar(s, note.notebookId, now);
  return true;
}

// Circles

export function* circleById(s: Session, circleId: number): Step<CircleRow | undefined> {
  return yield* one(s, s.db.select().from(s.t.circles).where(eq(s.t.circles.id, circleId)));
}

export function* circleByInvitation(s: Session, invitationCode: string): Step<CircleRow | undefined> {
  return yield* one(s, s.db.select().from(s.t.circles).where(eq(s.t.circles.invitationCode, invitationCode)));
}

/** The newest circle with this name (the testability endpoints name circles). */
export function* circleByName(s: Session, name: string): Step<CircleRow | undefined> {
  const { circles } = s.t;
  const rows = yield* all(s, s.db.select().from(circles).where(eq(circles.name, name)).orderBy(circles.id));
  return rows.at(-1);
}

/** The user's circles, in the order they were made. */
export function* circlesOf(s: Session, userId: number): Step<{ id: number; name: string }[]> {
  const { circles, circleMembers } = s.t;
  return yield* all(
    s,
    s.db
      .select({ id: circles.id, name: circles.name })
      .from(circles)
      .innerJoin(circleMembers, eq(circleMembers.circleId, circles.id))
      .where(eq(circleMembers.userId, userId))
      .orderBy(circles.id),
  );
}

/** A circle's members' names, in joining order. */
export function* memberNames(s: Session, circleId: number): Step<{ name: string }[]> {
  const { circleMembers, users } = s.t;
  return yield* all(
    s,
    s.db
      .select({ name: users.name })
      .from(circleMembers)
      .innerJoin(users, eq(users.id, circleMembers.userId))
      .where(eq(circleMembers.circleId, circleId))
      .orderBy(circleMembers.joinedAt, circleMembers.userId),
  );
}

/** A new circle with these first members (its creator, or the test's members), in one unit. */
export function* createCircle(s: Session, name: string, invitationCode: string, memberIds: number[], now: Date): Step<CircleRow> {
  const [circle] = yield* all(s, s.db.insert(s.t.circles).values({ name, invitationCode, createdAt: now }).returning());
  for (const userId of memberIds) yield* join(s, circle!.id, userId, now);
  return circle!;
}

/** Joins a circle; joining again changes nothing. */
export function* join(s: Session, circleId: number, userId: number, now: Date): Step<void> {
  yield* run(s, s.db.insert(s.t.circleMembers).values({ circleId, userId, joinedAt: now }).onConflictDoNothing());
}

/**
 * The test endpoint's circle: members named by their logins, every one of them known, or the
 * first unknown login and nothing written.
 */
export function* injectCircle(s: Session, name: string, invitationCode: string, logins: string[], now: Date): Step<{ unknown?: string }> {
  const { users, accounts } = s.t;
  const memberIds: number[] = [];
  for (const login of logins) {
    const user = yield* one(
      s,
      s.db
        .select({ id: users.id })
        .from(users)
        .innerJoin(accounts, eq(users.accountId, accounts.id))
        .where(eq(accounts.externalIdentifier, login)),
    );
    if (!user) return { unknown: login };
    memberIds.push(user.id);
  }
  yield* createCircle(s, name, invitationCode, memberIds, now);
  return {};
}

// Subscriptions

/** The user's subscriptions, oldest first (the order assimilation takes them in); the notebooks page asks on every load. */
export function* subscriptionsOf(s: Session, userId: number): Step<SubscriptionRow[]> {
  const query = prepared(s, "subscriptions-of-user", () => {
    const { subscriptions } = s.t;
    return s.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.userId, sql.placeholder("userId")))
      .orderBy(subscriptions.id);
  });
  return yield* all(s, query, { userId });
}

export function* subscriptionById(s: Session, subscriptionId: number): Step<SubscriptionRow | undefined> {
  return yield* one(s, s.db.select().from(s.t.subscriptions).where(eq(s.t.subscriptions.id, subscriptionId)));
}

/** Subscribes the user to the notebook; "exists" when they are already subscribed. */
export function* subscribe(
  s: Session,
  userId: number,
  notebookId: number,
  dailyTarget: number,
  now: Date,
): Step<SubscriptionRow | "exists"> {
  const { subscriptions } = s.t;
  if (yield* access.isSubscribed(s, userId, notebookId)) return "exists";
  // A subscription made meanwhile by a request at the same time (PostgreSQL) is left as it is:
  // the unique (user, notebook) index turns this insert into nothing.
  const [row] = yield* all(
    s,
    s.db
      .insert(subscriptions)
      .values({ userId, notebookId, dailyTargetOfNewNotes: dailyTarget, createdAt: now })
      .onConflictDoNothing()
      .returning(),
  );
  return row ?? "exists";
}

export function* setDailyTarget(s: Session, subscriptionId: number, dailyTarget: number): Step<SubscriptionRow | undefined> {
  const { subscriptions } = s.t;
  const [row] = yield* all(
    s,
    s.db.update(subscriptions).set({ dailyTargetOfNewNotes: dailyTarget }).where(eq(subscriptions.id, subscriptionId)).returning(),
  );
  return row;
}

export function* unsubscribe(s: Session, subscriptionId: number): Step<void> {
  yield* run(s, s.db.delete(s.t.subscriptions).where(eq(s.t.subscriptions.id, subscriptionId)));
}

export const sharingStore = defineStore({
  bazaarEntries: read(bazaarEntries),
  shareToBazaar: write(shareToBazaar),
  removeFromBazaar: write(removeFromBazaar),
  shareNotebookOfNoteToBazaar: write(shareNotebookOfNoteToBazaar),
  circleById: read(circleById),
  circleByInvitation: read(circleByInvitation),
  circleByName: read(circleByName),
  circlesOf: read(circlesOf),
  memberNames: read(memberNames),
  createCircle: write(createCircle),
  join: write(join),
  injectCircle: write(injectCircle),
  moveNotebookToCircle: write(moveNotebookToCircle),
  subscriptionsOf: read(subscriptionsOf),
  subscriptionById: read(subscriptionById),
  subscribe: write(subscribe),
  setDailyTarget: write(setDailyTarget),
  unsubscribe: write(unsubscribe),
  isCircleMember: read(access.isCircleMember),
  notebookTie: read(access.notebookTie),
  readerAccess: read(access.readerAccess),
  notebooksOfNotes: read(access.notebooksOfNotes),
  othersHoldNotebook: read(access.othersHoldNotebook),
  reachableNotebookIds: read(access.reachableNotebookIds),
});
export type SharingStore = StoreOf<typeof sharingStore>;
