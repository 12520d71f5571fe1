/**
 * When an Anki card is due, as Anki itself computes it (rslib's scheduler timing). A review
 * card's `due` is a day number: the days since the collection's creation, each day starting at
 * the collection's rollover hour (4 am by default) in the learner's time zone. Three generations
 * of collections count days differently:
 * - v1 scheduler (no `rollover` setting): day n starts exactly n × 24 h after `crt`;
 * - v2 without `creationOffset`: day n starts n × 24 h after `crt`'s date at the rollover hour;
 * - v2/v3 with `creationOffset`: day n starts on the local date (creation date + n) at the
 *   rollover hour, local time being the `localOffset` Anki last saw (else the creation offset).
 * A learning card's `due` is a moment (seconds since the epoch).
 */

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

export interface AnkiTiming {
  /** The collection's creation, seconds since the epoch (`col.crt`). */
  crt: number;
  /** The hour days start (v2 and later); undefined for the v1 scheduler. */
  rollover?: number;
  /** Minutes west of UTC when the collection was created (v2 "new cutoff" collections). */
  creationOffset?: number;
  /** Minutes west of UTC the last time Anki ran. */
  localOffset?: number;
}

/** Minutes west within the range Anki accepts (±23 h). */
const boundedWest = (minutes: number) => Math.max(-23 * 60, Math.min(23 * 60, Math.round(minutes)));

/** `instant` in the zone `minutesWest`, set to `hour`:00 of its local date, as a moment. */
function atLocalHour(instant: number, minutesWest: number, hour: number): number {
  const offset = boundedWest(minutesWest) * MINUTE_MS;
  const local = instant - offset;
  const localMidnight = Math.floor(local / DAY_MS) * DAY_MS;
  return localMidnight + (hour % 24) * 3_600_000 + offset;
}

/** When Anki's day `day` starts for this collection. */
export function ankiDayStart(timing: AnkiTiming, day: number): Date {
  const created = timing.crt * 1000;
  if (timing.rollover === undefined) return new Date(created + day * DAY_MS);
  const current = timing.localOffset ?? timing.creationOffset ?? 0;
  if (timing.creationOffset === undefined) return new Date(atLocalHour(created, current, timing.rollover) + day * DAY_MS);
  // The creation date in the creation zone, then `day` dates later at the rollover hour in the current zone.
  const createdDate = Math.floor((created - boundedWest(timing.creationOffset) * MINUTE_MS) / DAY_MS);
  return new Date((createdDate + day) * DAY_MS + (timing.rollover % 24) * 3_600_000 + boundedWest(current) * MINUTE_MS);
}

/** The day number (Anki's "days elapsed") of a moment: the last day that started at or before it. */
export function ankiDayOf(timing: AnkiTiming, instant: Date): number {
  let day = Math.floor((instant.getTime() - timing.crt * 1000) / DAY_MS) + 1;
  while (day > 0 && ankiDayStart(timing, day).getTime() > instant.getTime()) day--;
  return Math.max(0, day);
}

export interface DueCard {
  /** 0 new, 1 learning, 2 review, 3 relearning. */
  type: number;
  /** -3/-2 buried, -1 suspended, 0 new, 1 learning, 2 review, 3 day learning, 4 preview. */
  queue: number;
  due: number;
  /** In a filtered deck: the card's due in its original deck. */
  odid: number;
  odue: number;
}

/** Learning `due` values are seconds since the epoch; day numbers are far smaller. */
const isMoment = (due: number) => due > 1_000_000_000;

/** When the card is next due; undefined for a new card (its `due` is only a position). */
export function cardDueDate(card: DueCard, timing: AnkiTiming): Date | undefined {
  if (card.type === 0) return undefined;
  const due = card.odid !== 0 && card.odue !== 0 ? card.odue : card.due;
  if (isMoment(due)) return new Date(due * 1000);
  return ankiDayStart(timing, due);
}
