/**
 * Every page's menu badges: notes to assimilate today, notes to recall, unread conversations. A
 * page asks them on every load, so they are kept in the "learning" cache (cache-versions.ts) for
 * the user, the reader's time zone and the current half-day: any change to what they count (an
 * assimilation, a recall answer, a new note or message, a setting) or the next half-day in that
 * time zone counts them again.
 */
import type { AppContext } from "../context";
import { versionedCache } from "./cache-versions";
import { unreadCount } from "./conversations/conversation-service";
import { assimilationDueCount } from "./memory/assimilation";
import { recallDueCount } from "./memory/recall-list";
import { endOfHalfDay } from "./scheduling/time-windows";
import type { CurrentUser } from "./users";

export interface MenuBadges {
  assimilate: number;
  recall: number;
  messages: number;
}

export function menuBadges(ctx: AppContext, current: CurrentUser, timeZone: string): MenuBadges {
  const halfDay = endOfHalfDay(ctx.clock.now(), timeZone).getTime();
  return versionedCache(ctx.sqlite, "learning", `badges:${current.user.id}:${timeZone}:${halfDay}`, () => ({
    assimilate: assimilationDueCount(ctx, current, timeZone),
    recall: recallDueCount(ctx, current, timeZone),
    messages: unreadCount(ctx, current),
  }));
}
