import { t } from "elysia";
import { ValidationError } from "../services/errors";
import { isValidTimeZone } from "../services/scheduling/time-windows";

export const TIME_ZONE_MESSAGE = "must be an IANA time zone such as Europe/Paris";

/** The browser's IANA time zone, required by the day and half-day windows. */
export const timezoneQuery = t.Object({ timezone: t.String({ error: TIME_ZONE_MESSAGE }) }, { additionalProperties: true });

export function validTimeZone(timeZone: string): string {
  if (!isValidTimeZone(timeZone)) throw new ValidationError({ timezone: TIME_ZONE_MESSAGE });
  return timeZone;
}
