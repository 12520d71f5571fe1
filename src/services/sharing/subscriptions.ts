import type { AppContext } from "../../context";
import type { SubscriptionRow } from "../../store/sharing/sharing-store";
import { BadRequestError, NotFoundError, ValidationError } from "../errors";
import { type NotebookJson, type NoteJson, NotePresenter, presentNotebooks } from "../notes/presenters";
import { requireNotebook } from "../notes/rows";
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

async function present(ctx: AppContext, reader: Reader, rows: SubscriptionRow[]): Promise<SubscriptionJson[]> {
  const notebooks = await Promise.all(rows.map((row) => requireNotebook(ctx, row.notebookId)));
  const heads = await ctx.stores.notes.notesByIds(
    notebooks.flatMap((notebook) => (notebook.headNoteId === null ? [] : [notebook.headNoteId])),
  );
  const headById = new Map(heads.map((head) => [head.id, head]));
  const presenter = await new NotePresenter(ctx, reader).load(heads);
  const notebookJsons = await presentNotebooks(ctx, reader, notebooks, heads);
  return rows.flatMap((row, i) => {
    const headNoteId = notebooks[i]!.headNoteId;
    const head = headNoteId === null ? undefined : headById.get(headNoteId);
    if (!head || head.deletedAt) return [];
    return [
      {
        id: row.id,
        title: head.title,
        headNote: presenter.note(head),
        notebook: notebookJsons[i]!,
        dailyTargetOfNewNotes: row.dailyTargetOfNewNotes,
        notebookId: row.notebookId,
      },
    ];
  });
}

/** The user's subscriptions, oldest first (the order assimilation takes them in). */
export async function subscriptionsOf(ctx: AppContext, current: CurrentUser): Promise<SubscriptionJson[]> {
  return present(ctx, current, await ctx.stores.sharing.subscriptionsOf(current.user.id));
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
export async function subscribe(
  ctx: AppContext,
  current: CurrentUser | undefined,
  notebookId: number,
  dailyTarget: unknown,
): Promise<SubscriptionJson> {
  const notebook = await requireNotebook(ctx, notebookId);
  await authorizeSubscribe(ctx, current, notebook);
  const user = current!.user;
  const target = validDailyTarget(dailyTarget);
  const row = await ctx.stores.sharing.subscribe(user.id, notebook.id, target, ctx.clock.now());
  if (row === "exists") throw new BadRequestError("You have already added this notebook to your learning");
  return (await present(ctx, current, [row]))[0]!;
}

async function ownSubscription(ctx: AppContext, current: CurrentUser | undefined, subscriptionId: number): Promise<SubscriptionRow> {
  const row = await ctx.stores.sharing.subscriptionById(subscriptionId);
  if (!row) throw new NotFoundError("Subscription");
  authorizeOwnRecord(current, row.userId, "subscription");
  return row;
}

/** "Edit subscription": a new daily target. */
export async function updateSubscription(ctx: AppContext, current: CurrentUser | undefined, subscriptionId: number, dailyTarget: unknown) {
  const row = await ownSubscription(ctx, current, subscriptionId);
  const target = validDailyTarget(dailyTarget ?? row.dailyTargetOfNewNotes);
  const updated = await ctx.stores.sharing.setDailyTarget(row.id, target);
  if (!updated) throw new NotFoundError("Subscription");
  return (await present(ctx, current, [updated]))[0]!;
}

/**
 * "Unsubscribe": the notebook's notes leave future assimilation and recall; the trackers stay in
 * history. Answers the ids of the subscriptions removed.
 */
export async function unsubscribe(ctx: AppContext, current: CurrentUser | undefined, subscriptionId: number): Promise<number[]> {
  const row = await ownSubscription(ctx, current, subscriptionId);
  await ctx.stores.sharing.unsubscribe(row.id);
  return [row.id];
}
