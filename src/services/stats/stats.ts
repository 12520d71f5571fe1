/**
 * Statistics of a user's memory: the workload forecast, the review history, retention
 * by week, totals, and for the page the per-notebook retention, the most failed notes and (for
 * FSRS users) the spread of stability and retrievability.
 *
 * Counting rules:
 * - a "recall" is a logged review that succeeded or failed (multiple choice, spelling, self-review);
 *   assimilations and self-evaluations (±5) are not recalls;
 * - the forecast counts the trackers the recall list would show (active, undeleted notes of
 *   notebooks the user may still recall), by local day of their next recall; today includes the
 *   backlog;
 * - days are calendar days in the given time zone. The SQL groups by 15-minute buckets (every
 *   zone's offset is a multiple of 15 minutes), so the database never sends single rows.
 */
import type { AppContext } from "../../context";
import { BUCKET_MS } from "../../store/memory/buckets";
import type { FsrsSpreads, StatsRows } from "../../store/memory/stats";
import { versionedAnswer, versionedAnswerOf } from "../cache-versions";
import { fsrsSettingsOf, schedulerOf } from "../memory/reviews";
import { readableNotebookIds } from "../policies/memberships";
import { elapsedRatioAt } from "../scheduling/fsrs";
import { endOfHalfDay, localParts } from "../scheduling/time-windows";
import type { CurrentUser, UserRow } from "../users";

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
export const FORECAST_DAYS = 30;
export const HISTORY_DAYS = 365;

export interface StatsJson {
  forecast: { date: string; count: number }[];
  history: { date: string; count: number }[];
  retentionByWeek: { weekStart: string; reviews: number; successes: number }[];
  totals: { notesAssimilated: number; activeTrackers: number; averageIntervalDays: number };
}

/** A calendar date as days since 1970-01-01 (no time zone: pure date arithmetic). */
type DayNumber = number;
const dayNumber = (year: number, month: number, day: number): DayNumber => Date.UTC(year, month - 1, day) / DAY_MS;
const isoDate = (day: DayNumber) => new Date(day * DAY_MS).toISOString().slice(0, 10);

function offsetMs(instant: number, timeZone: string): number {
  const p = localParts(new Date(instant), timeZone);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - Math.floor(instant / 1000) * 1000;
}

/** The instant a local date begins in the zone. */
function localMidnight(day: DayNumber, timeZone: string): number {
  const wall = day * DAY_MS;
  let instant = wall - offsetMs(wall, timeZone);
  instant = wall - offsetMs(instant, timeZone);
  return instant;
}

/** Local days [first, first + count) with their starting instants, to put instants into days. */
class DayGrid {
  readonly starts: number[];
  constructor(
    readonly first: DayNumber,
    readonly count: number,
    timeZone: string,
  ) {
    this.starts = Array.from({ length: count + 1 }, (_, i) => localMidnight(first + i, timeZone));
  }
  get begin() {
    return this.starts[0]!;
  }
  get end() {
    return this.starts[this.count]!;
  }
  /** The index of the day holding the instant, or -1 outside the grid. */
  indexOf(instant: number): number {
    if (instant < this.begin || instant >= this.end) return -1;
    let [low, high] = [0, this.count - 1];
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.starts[middle]! <= instant) low = middle;
      else high = middle - 1;
    }
    return low;
  }
  date(index: number) {
    return isoDate(this.first + index);
  }
}

function today(ctx: AppContext, timeZone: string): DayNumber {
  const p = localParts(ctx.clock.now(), timeZone);
  return dayNumber(p.year, p.month, p.day);
}

/** The grids of the forecast (today and the next days) and of the history (the past year, today last), with the buckets they read. */
function grids(ctx: AppContext, timeZone: string) {
  const forecast = new DayGrid(today(ctx, timeZone), FORECAST_DAYS, timeZone);
  const history = new DayGrid(today(ctx, timeZone) - (HISTORY_DAYS - 1), HISTORY_DAYS, timeZone);
  // Hours when every local midnight of the year falls on a whole hour (most zones): a quarter of the rows.
  const recallSpan = history.starts.every((start) => start % HOUR_MS === 0) ? HOUR_MS : BUCKET_MS;
  return {
    forecast,
    history,
    buckets: {
      dueBefore: Math.ceil(forecast.end / BUCKET_MS),
      recallsFrom: Math.floor(history.begin / recallSpan),
      recallsBefore: Math.ceil(history.end / recallSpan),
      recallSpanMs: recallSpan,
    },
  };
}

/**
 * The trackers due per day: tracker_due_buckets holds the active trackers of undeleted notes per
 * notebook and 15 minutes of their next recall (kept by triggers), only the notebooks the user may
 * still recall count. The backlog is today's.
 */
function forecast(grid: DayGrid, rows: StatsRows["due"]) {
  const counts = new Array<number>(FORECAST_DAYS).fill(0);
  for (const row of rows) {
    const instant = row.bucket * BUCKET_MS;
    const index = instant < grid.begin ? 0 : grid.indexOf(instant);
    if (index >= 0) counts[index]! += row.n;
  }
  return counts.map((count, i) => ({ date: grid.date(i), count }));
}

/**
 * Recalls and successes per local day over the past year (today last), from recall_log_hours or
 * recall_log_buckets (kept by a trigger on recall_log), slots of `spanMs`.
 */
function recallDays(grid: DayGrid, rows: StatsRows["recalls"], spanMs: number) {
  const reviews = new Array<number>(HISTORY_DAYS).fill(0);
  const successes = new Array<number>(HISTORY_DAYS).fill(0);
  for (const row of rows) {
    const index = grid.indexOf(row.bucket * spanMs);
    if (index < 0) continue;
    reviews[index]! += row.n;
    successes[index]! += row.s;
  }
  return { grid, reviews, successes };
}

/** Weeks start on Monday; the first week is the one holding the first day of the history. */
function weeks(days: ReturnType<typeof recallDays>) {
  const { grid, reviews, successes } = days;
  const mondayOf = (day: DayNumber) => day - ((new Date(day * DAY_MS).getUTCDay() + 6) % 7);
  const result = new Map<DayNumber, { weekStart: string; reviews: number; successes: number }>();
  for (let i = 0; i < grid.count; i++) {
    const monday = mondayOf(grid.first + i);
    let week = result.get(monday);
    if (!week) {
      week = { weekStart: isoDate(monday), reviews: 0, successes: 0 };
      result.set(monday, week);
    }
    week.reviews += reviews[i]!;
    week.successes += successes[i]!;
  }
  return [...result.values()];
}

function totals(row: StatsRows["totals"]) {
  return {
    notesAssimilated: row.notes,
    activeTrackers: row.active,
    averageIntervalDays: Math.round((row.averageMs / DAY_MS) * 10) / 10,
  };
}

/** GET /api/stats. */
export async function userStats(ctx: AppContext, current: CurrentUser, timeZone: string): Promise<StatsJson> {
  const version = await statsVersion(ctx, current);
  return versionedAnswerOf(ctx, "stats", statsKey(ctx, current, timeZone, "api"), version, async () => {
    const { forecast: forecastGrid, history, buckets } = grids(ctx, timeZone);
    return userStatsOf(forecastGrid, history, buckets.recallSpanMs, await ctx.stores.memory.statsRows(current.user.id, buckets));
  });
}

/** The versions the Recall badge is kept at: the user's learning, access and reviews, and their notebooks'. */
async function statsVersion(ctx: AppContext, current: CurrentUser): Promise<string> {
  const notebooks = await readableNotebookIds(ctx, current.user.id, { own: true, subscriptions: true, circles: true });
  return (await ctx.stores.cacheVersions.badgesToken(current.user.id, notebooks)).reviews;
}

/**
 * The statistics are kept in the "stats" cache (cache-versions.ts), at the menu badges' versions, for the user, the zone and
 * the half-day, as the menu badges are: any answer, new or removed tracker, deleted or moved note,
 * notebook or setting change counts them again, and so does the next half-day (a new "today",
 * retrievability moving on).
 */
function statsKey(ctx: AppContext, current: CurrentUser, timeZone: string, what: string) {
  return `stats-${what}:${current.user.id}:${timeZone}:${endOfHalfDay(ctx.clock.now(), timeZone).getTime()}`;
}

function userStatsOf(forecastGrid: DayGrid, history: DayGrid, recallSpanMs: number, rows: StatsRows): StatsJson {
  const days = recallDays(history, rows.recalls, recallSpanMs);
  return {
    forecast: forecast(forecastGrid, rows.due),
    history: days.reviews.map((count, i) => ({ date: days.grid.date(i), count })),
    retentionByWeek: weeks(days),
    totals: totals(rows.totals),
  };
}

export interface StatsPageJson extends StatsJson {
  streakDays: number;
  retentionByNotebook: { notebookId: number; title: string; reviews: number; successes: number }[];
  mostFailedNotes: { noteId: number; title: string; failures: number }[];
  /** For FSRS users: trackers by stability (days) and by retrievability today. */
  fsrs: { stability: { label: string; count: number }[]; retrievability: { label: string; count: number }[] } | null;
}

/** Days in a row with at least one recall, ending today (or yesterday, if today has none yet). */
export function streak(history: { count: number }[]): number {
  let i = history.length - 1;
  if (i >= 0 && history[i]!.count === 0) i--;
  let days = 0;
  for (; i >= 0 && history[i]!.count > 0; i--) days++;
  return days;
}

const STABILITY_BUCKETS: [string, number][] = [
  ["under 1 day", 1],
  ["1–7 days", 7],
  ["1–4 weeks", 30],
  ["1–3 months", 90],
  ["3–12 months", 365],
  ["over a year", Number.POSITIVE_INFINITY],
];
const RETRIEVABILITY_BUCKETS: [string, number][] = [
  ["under 70 %", 0.7],
  ["70–80 %", 0.8],
  ["80–90 %", 0.9],
  ["90–95 %", 0.95],
  ["95 % and more", Infinity],
];

/** The elapsed time, as a multiple of the stability, at which the user's recall probability falls to each bound (the last bucket has none). */
function retrievabilityRatios(user: UserRow): number[] {
  const settings = fsrsSettingsOf(user);
  return RETRIEVABILITY_BUCKETS.slice(0, -1).map(([, bound]) => elapsedRatioAt(settings, bound));
}

/** After the user's FSRS weights changed: the crossings of each bound are counted again with the new ratios. */
export async function recountRetrievability(ctx: AppContext, user: UserRow): Promise<void> {
  await ctx.stores.memory.rebuildCrossings(user.id, retrievabilityRatios(user));
}

/**
 * Trackers by stability and by retrievability, from the store's spreads: FSRS-6's curve
 * R = (1 + factor·t/S)^decay falls as t/S grows, so a tracker is below a bound once t/S passes that
 * bound's ratio, at a time known when it is reviewed (the store counts those crossings). Each
 * retrievability bucket holds the trackers below its upper bound and not below its lower one. A
 * tracker of stability 0 (t/S undefined) counts as retained.
 */
function fsrsDistributions(spreads: FsrsSpreads) {
  const total = spreads.stability.reduce((sum, n) => sum + n, 0);
  const below = [...spreads.below, total];
  return {
    stability: STABILITY_BUCKETS.map(([label], i) => ({ label, count: spreads.stability[i] ?? 0 })),
    retrievability: RETRIEVABILITY_BUCKETS.map(([label], i) => ({ label, count: below[i]! - (i > 0 ? below[i - 1]! : 0) })),
  };
}

/** Everything the /d/stats page shows: the API's figures plus the page's own. */
export async function statsPage(ctx: AppContext, current: CurrentUser, timeZone: string): Promise<StatsPageJson> {
  return (await versionedStatsPage(ctx, current, timeZone)).page;
}

/** The page's figures with the version they were counted at (the titles shown are read fresh). */
async function versionedStatsPage(ctx: AppContext, current: CurrentUser, timeZone: string) {
  const version = await statsVersion(ctx, current);
  const page = await versionedAnswerOf(ctx, "stats", statsKey(ctx, current, timeZone, "page"), version, () =>
    computeStatsPage(ctx, current, timeZone),
  );
  return { version, page: { ...page, ...(await currentTitles(ctx, page)) } };
}

/**
 * The /d/stats page's figures as `render` draws them (a year of days, charts: more time than the
 * rest of the page), kept with them: drawn again when the figures are counted again, on the next
 * half-day, or when a title shown changed. One drawing per user and zone is kept.
 */
export async function drawnStatsPage(
  ctx: AppContext,
  current: CurrentUser,
  timeZone: string,
  render: (stats: StatsPageJson) => string,
): Promise<string> {
  const { version, page } = await versionedStatsPage(ctx, current, timeZone);
  const titles = JSON.stringify([page.retentionByNotebook.map((row) => row.title), page.mostFailedNotes.map((row) => row.title)]);
  const drawnAt = `${statsKey(ctx, current, timeZone, "drawn")}|${version}|${titles}`;
  return versionedAnswer(ctx, "stats", `stats-drawn:${current.user.id}:${timeZone}`, drawnAt, () => render(page));
}

/** A title edit does not change the "learning" version: the few titles shown are read fresh (a link note as its sentence). */
async function currentTitles(
  ctx: AppContext,
  page: StatsPageJson,
): Promise<Pick<StatsPageJson, "retentionByNotebook" | "mostFailedNotes">> {
  const titles = await ctx.stores.memory.currentTitles(
    page.mostFailedNotes.map((row) => row.noteId),
    page.retentionByNotebook.map((row) => row.notebookId),
  );
  return {
    retentionByNotebook: page.retentionByNotebook.map((row) => ({ ...row, title: titles.notebooks.get(row.notebookId) ?? row.title })),
    mostFailedNotes: page.mostFailedNotes.map((row) => ({ ...row, title: titles.notes.get(row.noteId) ?? row.title })),
  };
}

/**
 * The page's figures: the API's, the per-notebook retention and the most failed notes (recalls
 * per notebook and per tracker since the log began, kept by triggers), and for FSRS users the
 * spread of stability and of retrievability at the start of the current quarter hour (the
 * figures are kept for the half-day anyway, see statsKey).
 */
async function computeStatsPage(ctx: AppContext, current: CurrentUser, timeZone: string): Promise<StatsPageJson> {
  const { forecast: forecastGrid, history, buckets } = grids(ctx, timeZone);
  const fsrs = schedulerOf(current.user) === "fsrs" ? { at: ctx.clock.now().getTime(), ratios: retrievabilityRatios(current.user) } : null;
  let rows = await ctx.stores.memory.statsPageRows(current.user.id, buckets, fsrs);
  if (fsrs && !rows.fsrs) {
    // The user's weights changed since the crossings were counted: count them with the new ratios.
    await ctx.stores.memory.rebuildCrossings(current.user.id, fsrs.ratios);
    rows = await ctx.stores.memory.statsPageRows(current.user.id, buckets, fsrs);
  }
  const stats = userStatsOf(forecastGrid, history, buckets.recallSpanMs, rows);
  return {
    ...stats,
    streakDays: streak(stats.history),
    retentionByNotebook: rows.retentionByNotebook,
    mostFailedNotes: rows.mostFailedNotes,
    fsrs: rows.fsrs ? fsrsDistributions(rows.fsrs) : null,
  };
}
