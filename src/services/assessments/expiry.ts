/**
 * Certificate expiry periods like "1y 6m 2d" (each part optional, at least one number; default
 * "1y"), added to a date in whole UTC calendar units. A month added to the 31st ends on the last
 * day of the shorter month (Jan 31 + 1m = Feb 28/29), never spilling into the month after.
 */
export const CERTIFICATE_EXPIRY_PATTERN = /^(?=.*\d)(?:(\d+)y)?\s*(?:(\d+)m)?\s*(?:(\d+)d)?$/;

export interface ExpiryPeriod {
  years: number;
  months: number;
  days: number;
}

export function parseExpiry(text: string): ExpiryPeriod | undefined {
  const match = CERTIFICATE_EXPIRY_PATTERN.exec(text.trim());
  if (!match) return undefined;
  return { years: Number(match[1] ?? 0), months: Number(match[2] ?? 0), days: Number(match[3] ?? 0) };
}

const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month + 1, 0)).getUTCDate();

export function addExpiry(start: Date, period: ExpiryPeriod): Date {
  const totalMonths = start.getUTCMonth() + period.months + 12 * period.years;
  const year = start.getUTCFullYear() + Math.floor(totalMonths / 12);
  const month = totalMonths % 12;
  const day = Math.min(start.getUTCDate(), daysInMonth(year, month));
  const end = new Date(
    Date.UTC(year, month, day, start.getUTCHours(), start.getUTCMinutes(), start.getUTCSeconds(), start.getUTCMilliseconds()),
  );
  end.setUTCDate(end.getUTCDate() + period.days);
  return end;
}

/** The expiry of a certificate issued at `start` under a notebook's setting (an unreadable one counts as the default, 1y). */
export function expiryFrom(start: Date, setting: string): Date {
  return addExpiry(start, parseExpiry(setting) ?? { years: 1, months: 0, days: 0 });
}
