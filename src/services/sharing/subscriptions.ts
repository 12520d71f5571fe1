import { and, eq, sql } from "drizzle-orm";
import type { AppContext } from "../../context";
import { prepared } from "../../db/prepared";
import { subscriptions } from "../../db/schema";
import { BadRequestError, NotFoundError, ValidationError } from "../errors";
import { type NotebookJson, type NoteJson, NotePresenter, presentNotebook } from "../notes/presenters";
import { findNote, getNotebook } from "../notes/rows";
import { authorizeOwnRecord, authorizeSubscribe, type Reader } from "../policies";
import type { CurrentUser } from "../users";

export const DEFAULT_DAILY_TARGET_OF_NEW_NOTES = 5;
const MAX_DAILY_TARGET = 1000;

/** Subscription JSON: the notebook (and its title and head note), and the daily target. */
export interface SubscriptionJson {
  id: number;
  title: string;
  headNote: NoteJson;
  notebook: NotebookJson;
  dailyTargetOfNewNotes: number;
  /** The subscribed notebook's id (an Engram addition, so a card can name it without another call). */
  notebookId: number;
}

type SubscriptionRow = typeof subscriptions.$inferSelect;

function present(ctx: AppContext, reader: Reader, rows: SubscriptionRow[]): SubscriptionJson[] {
  const notebooks = rows.map((row) => getNotebook(ctx, row.notebookId));
  const heads = notebooks.map((notebook) => (notebook.headNoteId === null ? undefined : findNote(ctx, notebook.headNoteId)));
  const presenter = new NotePresenter(ctx, reader).preload(heads.filter((h) => h !== undefined));
  return rows.flatMap((row, i) => {
    const head = heads[i];
    if (!head || head.deletedAt) return [];
    return [
      {
        id: row.id,
        title: head.title,
        headNote: presenter.note(head),
        notebook: presentNotebook(ctx, reader, notebooks[i]!, head),
        dailyTargetOfNewNotes: row.dailyTargetOfNewNotes,
        notebookId: row.notebookId,
      },
    ];
  });
}

/** The user's subscriptions, oldest first (the order assimilation takes them in). */
export function subscriptionsOf(ctx: AppContext, current: CurrentUser): SubscriptionJson[] {
  // One cached statement: the notebooks page asks on every load.
  return present(
    ctx,
    current,
    prepared(ctx.db, "subscriptions-of-user", (db) =>
      db
        .select()
        .from(subscriptions)
        .where(eq(subscriptions.userId, sql.placeholder("userId")))
        .orderBy(subscriptions.id)
        .prepare(),
    ).all({ userId: current.user.id }),
  );
}

/** A positive whole number, or a field error on dailyTargetOfNewNotes. */
function validDailyTarget(value: unknown): number {
  if (value === undefined || value === null) return DEFAULT_DAILY_TARGET_OF_NEW_NOTES;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > MAX_DAILY_TARGET) {
    throw new ValidationError({ dailyTargetOfNewNotes: `must be a whole number from 1 to ${MAX_DAILY_TARGET}` });
  }
  return value;
}

/** "Add to my learning": subscribes to a notebook the user reads but does not own. */
export function subscribe(ctx: AppContext, current: CurrentUser | undefined, notebookId: number, dailyTarget: unknown): SubscriptionJson {
  const notebook = getNotebook(ctx, notebookId);
  authorizeSubscribe(ctx, current, notebook);
  const user = current!.user;
  const target = validDailyTarget(dailyTarget);
  const row = ctx.db.transaction((tx) => {
    const existing = tx
      .select({ id: subscriptions.id })
      .from(subscriptions)
      .where(and(eq(subscriptions.userId, user.id), eq(subscriptions.notebookId, notebook.id)))
      .get();
    if (existing) throw new BadRequestError("You have already added this notebook to your learning");
    return tx
      .insert(subscriptions)
      .values({ userId: user.id, notebookId: notebook.id, dailyTargetOfNewNotes: target, createdAt: ctx.clock.now() })
      .returning()
      .get();
  });
  return present(ctx, current, [row])[0]!;
}

function ownSubscription(ctx: AppContext, current: CurrentUser | undefined, subscriptionId: number): SubscriptionRow {
  const row = ctx.db.select().from(subscriptions).where(eq(subscriptions.id, subscriptionId)).get();
  if (!row) throw new NotFoundError("Subscription");
  authorizeOwnRecord(current, row.userId, "subscription");
  return row;
}

/** "Edit subscription": a new daily target. */
export function updateSubscription(ctx: AppContext, current: CurrentUser | undefined, subscriptionId: number, dailyTarget: unknown) {
  const row = ownSubscription(ctx, current, subscriptionId);
  const target = validDailyTarget(dailyTarget ?? row.dailyTargetOfNewNotes);
  const updated = ctx.db
    .update(subscriptions)
    .set({ dailyTargetOfNewNotes: target })
    .where(eq(subscriptions.id, row.id))
    .returning()
    .get()!;
  return present(ctx, current, [updated])[0]!;
}

/**
 * "Unsubscribe": the notebook's notes leave future assimilation and recall; the trackers stay in
 * history. Answers the ids of the subscriptions removed.
 */
export function unsubscribe(ctx: AppContext, current: CurrentUser | undefined, subscriptionId: number): number[] {
  const row = ownSubscription(ctx, current, subscriptionId);
  ctx.db.delete(subscriptions).where(eq(subscriptions.id, row.id)).run();
  return [row.id];
}
