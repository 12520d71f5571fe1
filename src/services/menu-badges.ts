/**
 * Every page's menu badges: notes to assimilate today, notes to recall, unread conversations. A
 * page asks them on every load, so they are kept in the "badges" cache (cache-versions.ts) for
 * the user, the reader's time zone and the current half-day: any change to what they count (an
 * assimilation, a new note or message, a setting) or the next half-day in that time zone counts
 * them again; a recall answer counts the Recall badge alone again.
 */
import type { AppContext } from "../context";
import { versionedAnswerOf } from "./cache-versions";
import { unreadCount } from "./conversations/conversation-service";
import { assimilationDueCount } from "./memory/assimilation";
import { recallDueCount } from "./memory/recall-list";
import { readableNotebookIds } from "./policies/memberships";
import { endOfHalfDay } from "./scheduling/time-windows";
import type { CurrentUser } from "./users";

export interface MenuBadges {
  assimilate: number;
  recall: number;
  messages: number;
}

export async function menuBadges(ctx: AppContext, current: CurrentUser, timeZone: string): Promise<MenuBadges> {
  const halfDay = endOfHalfDay(ctx.clock.now(), timeZone).getTime();
  const userId = current.user.id;
  const notebooks = await readableNotebookIds(ctx, userId, { own: true, subscriptions: true, circles: true });
  const tokens = await ctx.stores.cacheVersions.badgesToken(userId, notebooks);
  const key = `${userId}:${timeZone}:${halfDay}`;
  // A review changes only the Recall badge: the other two are kept at a version reviews leave alone.
  const others = await versionedAnswerOf(ctx, "badges", key, tokens.learning, async () => ({
    assimilate: await assimilationDueCount(ctx, current, timeZone),
    messages: await unreadCount(ctx, current),
  }));
  const recall = await versionedAnswerOf(ctx, "badges", `recall:${key}`, tokens.reviews, () => recallDueCount(ctx, current, timeZone));
  return { assimilate: others.assimilate, recall, messages: others.messages };
}
