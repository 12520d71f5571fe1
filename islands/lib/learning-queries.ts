import { type QueryClient, queryOptions } from "@tanstack/react-query";
import { api, call } from "./api";

// Response shapes are declared once, by the server (type-only: erased from the browser bundle).
export type { AssimilationCountJson } from "../../src/services/memory/assimilation";
export type { RecallOverviewJson } from "../../src/services/memory/recall-list";
export type { MemoryTrackerJson, NoteInfoJson, RecallSettingJson } from "../../src/services/memory/trackers";

/**
 * The cookie in which the browser tells the server its time zone, so server-rendered counters
 * ("today", "this half-day") are computed in the reader's zone. The server validates it.
 */
export const TIME_ZONE_COOKIE = "engram_tz";

/** The browser's IANA time zone (UTC when the browser cannot tell). */
export function timeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch {
    return "UTC";
  }
}

const inTimeZone = () => ({ query: { timezone: timeZone() } });

/** Background counter reads: no loading bar, no toast, and no sign-in redirect from a badge. */
const quietly = { silent: true, onUnauthorized: () => {} };
export const fetchAssimilationCount = () => call(api.assimilation.count.get(inTimeZone()), quietly);
export const fetchRecallOverview = () => call(api.recalls.overview.get(inTimeZone()), quietly);

export type MenuBadgeKind = "assimilate" | "recall" | "messages";

/**
 * The main-menu badge counts. The server prefetches them with each page; the features that
 * count them (assimilation, recall, conversations) add their fetchers here as they land.
 */
const menuBadgeFetchers: Partial<Record<MenuBadgeKind, () => Promise<number>>> = {
  assimilate: () => fetchAssimilationCount().then((count) => count.dueCount),
  recall: () => fetchRecallOverview().then((overview) => overview.toRepeatCount),
  // The unread messages themselves (the wire contract's answer): the badge counts them.
  messages: () => call(api.conversation.unread.get(), quietly).then((unread) => unread.length),
};

/** How often the unread-messages badge asks again while the page is visible (react-query pauses it in background tabs). */
export const UNREAD_POLL_MS = 5000;

export const menuBadgeQuery = (kind: MenuBadgeKind) =>
  queryOptions({
    queryKey: ["menu-badge", kind],
    queryFn: () => menuBadgeFetchers[kind]?.() ?? Promise.resolve(0),
    enabled: menuBadgeFetchers[kind] !== undefined,
    // New messages arrive from other people: the Messages badge keeps asking while the page is open.
    refetchInterval: kind === "messages" ? UNREAD_POLL_MS : false,
  });

/*
 * Keys carry no time zone: the server prefetches in the zone of the cookie, and when the cookie
 * was missing or stale the shell refreshes these queries (syncTimeZoneCookie).
 */
export const assimilationCountQuery = () => queryOptions({ queryKey: ["assimilation", "count"], queryFn: fetchAssimilationCount });

/** Today's notes to assimilate, in order; the page shows the first. */
export const assimilatingQuery = () =>
  queryOptions({
    queryKey: ["assimilation", "assimilating"],
    queryFn: () => call(api.assimilation.assimilating.get(inTimeZone())),
  });

export const recallOverviewQuery = () => queryOptions({ queryKey: ["recall-overview"], queryFn: fetchRecallOverview });

export const noteInfoQuery = (noteId: number) =>
  queryOptions({
    queryKey: ["note-info", noteId],
    queryFn: () => call(api.notes({ note: noteId })["note-info"].get(), { silent: true }),
  });

/** "Recently Learned": the user's trackers by assimilation time, removed ones included. */
export const recentlyLearnedQuery = () =>
  queryOptions({ queryKey: ["memory-trackers", "recent"], queryFn: () => call(api["memory-trackers"].recent.get()) });

/** "Recently Reviewed": the user's trackers by last recall time. */
export const recentlyReviewedQuery = () =>
  queryOptions({
    queryKey: ["memory-trackers", "recently-reviewed"],
    queryFn: () => call(api["memory-trackers"]["recently-reviewed"].get()),
  });

/** Sets the Assimilate menu badge (it always equals the length of today's list). */
export function setAssimilateBadge(queryClient: QueryClient, dueCount: number) {
  queryClient.setQueryData(menuBadgeQuery("assimilate").queryKey, Math.max(0, dueCount));
}

/** One recall item finished: the Recall badge drops by one, never below 0. */
export function decrementRecallBadge(queryClient: QueryClient) {
  queryClient.setQueryData(menuBadgeQuery("recall").queryKey, (count: number | undefined) => Math.max(0, (count ?? 0) - 1));
}

/** Re-reads the Recall badge and overview from the server (after a tracker's schedule changed). */
export function refreshRecallCounters(queryClient: QueryClient) {
  void queryClient.invalidateQueries({ queryKey: menuBadgeQuery("recall").queryKey });
  void queryClient.invalidateQueries({ queryKey: recallOverviewQuery().queryKey });
}

/** Re-reads every counter that depends on "today" (the time zone changed, or a note was assimilated). */
export function refreshLearningCounters(queryClient: QueryClient) {
  void queryClient.invalidateQueries({ queryKey: menuBadgeQuery("assimilate").queryKey });
  void queryClient.invalidateQueries({ queryKey: ["assimilation"] });
  refreshRecallCounters(queryClient);
}

function cookieValue(name: string): string | undefined {
  const entry = document.cookie
    .split(";")
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${name}=`));
  if (!entry) return undefined;
  try {
    return decodeURIComponent(entry.slice(name.length + 1));
  } catch {
    return undefined;
  }
}

const YEAR_SECONDS = 365 * 24 * 3600;

/**
 * Keeps the time-zone cookie equal to the browser's zone. When it was missing or different, the
 * server computed this page's counters in another zone, so they are fetched again.
 */
export function syncTimeZoneCookie(queryClient: QueryClient) {
  const zone = timeZone();
  if (cookieValue(TIME_ZONE_COOKIE) === zone) return;
  // biome-ignore lint/suspicious/noDocumentCookie: the server reads this cookie on the next page; the Cookie Store API is missing from Firefox and Safari.
  document.cookie = `${TIME_ZONE_COOKIE}=${encodeURIComponent(zone)}; path=/; max-age=${YEAR_SECONDS}; samesite=lax`;
  refreshLearningCounters(queryClient);
}
