import { TIME_ZONE_COOKIE } from "../../islands/lib/learning-queries";
import { isValidTimeZone } from "../services/scheduling/time-windows";

const MAX_ZONE_LENGTH = 64;

/**
 * The reader's IANA time zone from the cookie the browser sets (islands' syncTimeZoneCookie),
 * so server-rendered counters use the reader's "today"; UTC when missing or not a known zone.
 */
export function timeZoneOfRequest(request: Request): string {
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const separator = part.indexOf("=");
    if (separator < 0 || part.slice(0, separator).trim() !== TIME_ZONE_COOKIE) continue;
    let zone: string;
    try {
      zone = decodeURIComponent(part.slice(separator + 1).trim());
    } catch {
      return "UTC";
    }
    return zone.length <= MAX_ZONE_LENGTH && isValidTimeZone(zone) ? zone : "UTC";
  }
  return "UTC";
}
