/**
 * Time-zone arithmetic for the learning loop: the local calendar
 * day of an instant and the end of the current half-day (next local noon or midnight).
 */

interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Throws a RangeError for an unknown IANA zone. */
function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formatters.set(timeZone, f);
  }
  return f;
}

export function isValidTimeZone(timeZone: string): boolean {
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

/**
 * Local wall-clock minutes already formatted, by zone and UTC minute. Every page's menu badges ask
 * the local day and half-day, and Intl's formatToParts costs 5 to 10 µs a call. Zone offsets are
 * whole minutes (since the 1970s in every zone), so within one UTC minute only the seconds differ.
 */
const minuteCache = new Map<string, Omit<LocalParts, "second">>();
const MINUTE_CACHE_LIMIT = 10_000;

export function localParts(instant: Date, timeZone: string): LocalParts {
  const ms = instant.getTime();
  const minuteStart = Math.floor(ms / 60_000) * 60_000;
  const key = `${timeZone}|${minuteStart}`;
  let minute = minuteCache.get(key);
  if (!minute) {
    const parts: Record<string, number> = {};
    for (const part of formatter(timeZone).formatToParts(new Date(minuteStart))) {
      if (part.type !== "literal") parts[part.type] = Number(part.value);
    }
    minute = { year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour! % 24, minute: parts.minute! };
    if (minuteCache.size >= MINUTE_CACHE_LIMIT) minuteCache.clear();
    minuteCache.set(key, minute);
  }
  return { ...minute, second: Math.floor((ms - minuteStart) / 1000) };
}

/** "2026-11-22": the local calendar day of an instant. */
export function localDay(instant: Date, timeZone: string): string {
  const p = localParts(instant, timeZone);
  return `${p.year}-${String(p.month).padStart(2, "0")}-${String(p.day).padStart(2, "0")}`;
}

/** The zone's offset from UTC at an instant, in ms (local = utc + offset). */
function offsetMs(instant: Date, timeZone: string): number {
  const p = localParts(instant, timeZone);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return asUtc - Math.floor(instant.getTime() / 1000) * 1000;
}

/** The instant of a local wall-clock time (resolving DST gaps forward). */
function fromLocal(year: number, month: number, day: number, hour: number, timeZone: string): Date {
  const guess = Date.UTC(year, month - 1, day, hour);
  let instant = guess - offsetMs(new Date(guess), timeZone);
  instant = guess - offsetMs(new Date(instant), timeZone);
  return new Date(instant);
}

/**
 * The end of the half-day containing the instant: the next local noon if it is morning there,
 * otherwise the next local midnight. Recall lists include what is due until then.
 */
export function endOfHalfDay(instant: Date, timeZone: string): Date {
  const p = localParts(instant, timeZone);
  if (p.hour < 12) return fromLocal(p.year, p.month, p.day, 12, timeZone);
  const next = new Date(Date.UTC(p.year, p.month - 1, p.day + 1));
  return fromLocal(next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate(), 0, timeZone);
}
