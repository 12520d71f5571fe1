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
import { versionedAnswer } from "../cache-versions";
import { fsrsSettingsOf, schedulerOf } from "../memory/reviews";
import { RECALLABLE_NOTEBOOK_SQL } from "../policies";
import { readableNotebookIds } from "../policies/memberships";
import { elapsedRatioAt } from "../scheduling/fsrs";
import { endOfHalfDay, localParts } from "../scheduling/time-windows";
import type { CurrentUser } from "../users";

const DAY_MS = 86_400_000;
const BUCKET_MS = 900_000;
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

function forecast(ctx: AppContext, current: CurrentUser, timeZone: string) {
  const grid = new DayGrid(today(ctx, timeZone), FORECAST_DAYS, timeZone);
  // tracker_due_buckets holds the active trackers of undeleted notes per notebook and 15 minutes
  // of their next recall (kept by triggers): a few rows per notebook and bucket, never one per
  // tracker. Only the notebooks the user may still recall count.
  const rows = ctx.sqlite
    .query<{ bucket: number; n: number }, [number, number]>(
      `SELECT b.bucket AS bucket, SUM(b.trackers) AS n FROM tracker_due_buckets b
       CROSS JOIN notebooks nb ON nb.id = b.notebook_id
       WHERE b.user_id = ?1 AND b.bucket < ?2 AND ${RECALLABLE_NOTEBOOK_SQL}
       GROUP BY b.bucket`,
    )
    .all(current.user.id, Math.ceil(grid.end / BUCKET_MS));
  const counts = new Array<number>(FORECAST_DAYS).fill(0);
  for (const row of rows) {
    const instant = row.bucket * BUCKET_MS;
    const index = instant < grid.begin ? 0 : grid.indexOf(instant); // the backlog is today's
    if (index >= 0) counts[index]! += row.n;
  }
  return counts.map((count, i) => ({ date: grid.date(i), count }));
}

/** Recalls and successes per local day over the past year (today last). */
function recallDays(ctx: AppContext, current: CurrentUser, timeZone: string) {
  const grid = new DayGrid(today(ctx, timeZone) - (HISTORY_DAYS - 1), HISTORY_DAYS, timeZone);
  // recall_log_buckets holds the recalls per 15 minutes (kept by a trigger on recall_log).
  const rows = ctx.sqlite
    .query<{ bucket: number; n: number; s: number }, [number, number, number]>(
      "SELECT bucket, recalls AS n, successes AS s FROM recall_log_buckets WHERE user_id = ?1 AND bucket >= ?2 AND bucket < ?3",
    )
    .all(current.user.id, Math.floor(grid.begin / BUCKET_MS), Math.ceil(grid.end / BUCKET_MS));
  const reviews = new Array<number>(HISTORY_DAYS).fill(0);
  const successes = new Array<number>(HISTORY_DAYS).fill(0);
  for (const row of rows) {
    const index = grid.indexOf(row.bucket * BUCKET_MS);
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

function totals(ctx: AppContext, current: CurrentUser) {
  const row = ctx.sqlite
    .query<{ active: number; notes: number; average: number | null }, [number]>(
      // A note has at most one normal tracker per user, so counting those counts the notes.
      `SELECT COUNT(*) AS active, SUM(spelling = 0) AS notes, AVG(next_recall_at - last_recalled_at) AS average
       FROM memory_trackers WHERE user_id = ?1 AND removed_from_tracking = 0`,
    )
    .get(current.user.id)!;
  return {
    notesAssimilated: row.notes ?? 0,
    activeTrackers: row.active,
    averageIntervalDays: Math.round(((row.average ?? 0) / DAY_MS) * 10) / 10,
  };
}

/** GET /api/stats. */
export async function userStats(ctx: AppContext, current: CurrentUser, timeZone: string): Promise<StatsJson> {
  const version = await statsVersion(ctx, current);
  return versionedAnswer(ctx, "stats", statsKey(ctx, current, timeZone, "api"), version, () => computeUserStats(ctx, current, timeZone));
}

/** The versions the menu badges are kept at: the user's learning and access, and their notebooks'. */
function statsVersion(ctx: AppContext, current: CurrentUser): Promise<string> {
  const notebooks = readableNotebookIds(ctx, current.user.id, { own: true, subscriptions: true, circles: true });
  return ctx.stores.cacheVersions.badgesToken(current.user.id, notebooks);
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

function computeUserStats(ctx: AppContext, current: CurrentUser, timeZone: string): StatsJson {
  const days = recallDays(ctx, current, timeZone);
  return {
    forecast: forecast(ctx, current, timeZone),
    history: days.reviews.map((count, i) => ({ date: days.grid.date(i), count })),
    retentionByWeek: weeks(days),
    totals: totals(ctx, current),
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

/** The index of the first bucket whose bound the value is below (bounds ascending; the last bucket otherwise). */
function bucketBelow(value: number, buckets: [string, number][]): number {
  for (let i = 0; i < buckets.length - 1; i++) if (value < buckets[i]![1]) return i;
  return buckets.length - 1;
}

/**
 * Trackers by stability and by retrievability today, in one pass over the user's trackers. FSRS-6's
 * curve R = (1 + factor·t/S)^decay falls as t/S grows, so "R below a bound" is "t/S above a
 * threshold" and no power is computed per tracker. The two columns are read as arrays and counted
 * here: SQL evaluating the same CASE expressions per row (t/S once per bound) took four times as
 * long on 100,000 trackers. A tracker never recalled or of stability 0 (t/S undefined) counts as
 * retained, as the SQL's NULL comparisons did.
 */
function fsrsDistributions(ctx: AppContext, current: CurrentUser) {
  if (schedulerOf(current.user) !== "fsrs") return null;
  const settings = fsrsSettingsOf(current.user);
  // Thresholds on t/S, one per retrievability bound (descending as the bounds ascend).
  const thresholds = RETRIEVABILITY_BUCKETS.slice(0, -1).map(([, bound]) => elapsedRatioAt(settings, bound));
  const rows = ctx.sqlite
    .query<unknown, [number]>(
      "SELECT stability, last_recalled_at FROM memory_trackers WHERE user_id = ?1 AND removed_from_tracking = 0 AND stability IS NOT NULL",
    )
    .values(current.user.id) as [number, number | null][];
  const now = ctx.clock.now().getTime();
  const stability = new Array<number>(STABILITY_BUCKETS.length).fill(0);
  const retrievability = new Array<number>(RETRIEVABILITY_BUCKETS.length).fill(0);
  for (const [days, lastRecalledAt] of rows) {
    stability[bucketBelow(days, STABILITY_BUCKETS)]!++;
    let r = RETRIEVABILITY_BUCKETS.length - 1;
    if (lastRecalledAt !== null && days !== 0) {
      const ratio = Math.max(0, now - lastRecalledAt) / (DAY_MS * days);
      const index = thresholds.findIndex((threshold) => ratio > threshold);
      if (index >= 0) r = index;
    }
    retrievability[r]!++;
  }
  return {
    stability: STABILITY_BUCKETS.map(([label], i) => ({ label, count: stability[i]! })),
    retrievability: RETRIEVABILITY_BUCKETS.map(([label], i) => ({ label, count: retrievability[i]! })),
  };
}

/** Everything the /d/stats page shows: the API's figures plus the page's own. */
export async function statsPage(ctx: AppContext, current: CurrentUser, timeZone: string): Promise<StatsPageJson> {
  const version = await statsVersion(ctx, current);
  const page = versionedAnswer(ctx, "stats", statsKey(ctx, current, timeZone, "page"), version, () =>
    computeStatsPage(ctx, current, timeZone),
  );
  return { ...page, ...currentTitles(ctx, page) };
}

/** A title edit does not change the "learning" version: the few titles shown are read fresh. */
function currentTitles(ctx: AppContext, page: StatsPageJson): Pick<StatsPageJson, "retentionByNotebook" | "mostFailedNotes"> {
  // A link note is named as its sentence, as the query of the most failed notes names it.
  const titleOf = ctx.sqlite.query<{ title: string }, [number]>(
    `SELECT CASE WHEN n.target_note_id IS NULL THEN n.title
                 ELSE subject.title || ' — ' || n.title || ' — ' || object.title END AS title
     FROM notes n LEFT JOIN notes subject ON subject.id = n.parent_id LEFT JOIN notes object ON object.id = n.target_note_id
     WHERE n.id = ?1`,
  );
  const headTitleOf = ctx.sqlite.query<{ title: string }, [number]>(
    "SELECT head.title AS title FROM notebooks nb JOIN notes head ON head.id = nb.head_note_id WHERE nb.id = ?1",
  );
  return {
    retentionByNotebook: page.retentionByNotebook.map((row) => ({ ...row, title: headTitleOf.get(row.notebookId)?.title ?? row.title })),
    mostFailedNotes: page.mostFailedNotes.map((row) => ({ ...row, title: titleOf.get(row.noteId)?.title ?? row.title })),
  };
}

function computeStatsPage(ctx: AppContext, current: CurrentUser, timeZone: string): StatsPageJson {
  const stats = computeUserStats(ctx, current, timeZone);
  // Both from recall_log_tracker_counts (recalls per tracker since the log began, kept by a trigger).
  // The counts are summed per notebook first; only those few notebooks are then looked up and
  // checked (recallable, their head's title), not one notebook lookup per tracker.
  const retentionByNotebook = ctx.sqlite
    .query<{ notebookId: number; title: string; reviews: number; successes: number }, [number]>(
      `SELECT nb.id AS notebookId, head.title AS title, g.reviews AS reviews, g.successes AS successes
       FROM (SELECT n.notebook_id AS notebookId, SUM(c.successes + c.failures) AS reviews, SUM(c.successes) AS successes
             FROM recall_log_tracker_counts c
             CROSS JOIN memory_trackers m ON m.id = c.memory_tracker_id
             CROSS JOIN notes n ON n.id = m.note_id
             WHERE c.user_id = ?1 GROUP BY n.notebook_id) g
       CROSS JOIN notebooks nb ON nb.id = g.notebookId
       JOIN notes head ON head.id = nb.head_note_id
       WHERE ${RECALLABLE_NOTEBOOK_SQL}
       ORDER BY g.reviews DESC, nb.id LIMIT 20`,
    )
    .all(current.user.id);
  const mostFailedNotes = ctx.sqlite
    .query<{ noteId: number; title: string; failures: number }, [number]>(
      // The 100 most failed trackers (a range of the (user, failures) index) hold the ten most
      // failed notes: a note has at most two trackers.
      // A link note's own title is only its link type: it is named as its sentence, "subject —
      // link type — object", as everywhere else (islands/lib/note-title.tsx).
      `SELECT n.id AS noteId, SUM(c.failures) AS failures,
              CASE WHEN n.target_note_id IS NULL THEN n.title
                   ELSE subject.title || ' — ' || n.title || ' — ' || object.title END AS title
       FROM (SELECT memory_tracker_id, failures FROM recall_log_tracker_counts
             WHERE user_id = ?1 AND failures > 0 ORDER BY failures DESC LIMIT 100) c
       CROSS JOIN memory_trackers m ON m.id = c.memory_tracker_id
       CROSS JOIN notes n ON n.id = m.note_id
       CROSS JOIN notebooks nb ON nb.id = n.notebook_id
       LEFT JOIN notes subject ON subject.id = n.parent_id
       LEFT JOIN notes object ON object.id = n.target_note_id
       WHERE n.deleted_at IS NULL AND ${RECALLABLE_NOTEBOOK_SQL}
       GROUP BY n.id ORDER BY failures DESC, n.id LIMIT 10`,
    )
    .all(current.user.id);
  return {
    ...stats,
    streakDays: streak(stats.history),
    retentionByNotebook,
    mostFailedNotes,
    fsrs: fsrsDistributions(ctx, current),
  };
}
