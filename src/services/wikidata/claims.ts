/**
 * Reading Wikidata claims, as pure functions: which kind of entity it is (person, location),
 * the description a note gets from it, and the related entities that become sub-notes.
 */
import type { WikidataClaims, WikidataDataValue } from "./client";

/** Wikidata properties and items the enrichment reads. */
export const P = {
  instanceOf: "P31",
  countryOfCitizenship: "P27",
  dateOfBirth: "P569",
  coordinateLocation: "P625",
  author: "P50",
} as const;
export const HUMAN = "Q5";

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;

function firstValue(claims: WikidataClaims, property: string): WikidataDataValue | undefined {
  return claims[property]?.[0];
}

/** The item id of a `wikibase-entityid` value (e.g. "Q5"), else undefined. */
function entityIdOf(value: WikidataDataValue | undefined): string | undefined {
  if (value?.type !== "wikibase-entityid" || !isObject(value.value)) return undefined;
  const id = value.value.id;
  return typeof id === "string" && /^Q\d+$/.test(id) ? id : undefined;
}

/** A person: the first "instance of" is human. */
export function isHuman(claims: WikidataClaims): boolean {
  return entityIdOf(firstValue(claims, P.instanceOf)) === HUMAN;
}

/** The first country of citizenship. */
export function countryOfCitizenship(claims: WikidataClaims): string | undefined {
  return entityIdOf(firstValue(claims, P.countryOfCitizenship));
}

/** Every author, in order, without repeats. */
export function authors(claims: WikidataClaims): string[] {
  const ids = (claims[P.author] ?? []).map(entityIdOf).filter((id): id is string => id !== undefined);
  return [...new Set(ids)];
}

/** The formatted first date of birth, when there is one. */
export function birthday(claims: WikidataClaims): string | undefined {
  const value = firstValue(claims, P.dateOfBirth);
  if (value?.type !== "time" || !isObject(value.value)) return undefined;
  const { time, precision } = value.value;
  return formatWikidataTime(typeof time === "string" ? time : "", typeof precision === "number" ? precision : undefined);
}

/**
 * "Location: <lat>'N, <lon>'E" from the first coordinate, with the raw decimal numbers as the
 * reference writes them (no S/W conversion); "Location: <text>" for a string value.
 */
export function locationDescription(claims: WikidataClaims): string | undefined {
  const value = firstValue(claims, P.coordinateLocation);
  if (!value) return undefined;
  if (value.type === "globecoordinate" && isObject(value.value)) {
    const { latitude, longitude } = value.value;
    if (typeof latitude === "number" && typeof longitude === "number") return `Location: ${latitude}'N, ${longitude}'E`;
  }
  if (value.type === "string" && typeof value.value === "string") return `Location: ${value.value}`;
  return undefined;
}

/**
 * A Wikidata time in English, as the reference shows it: a full date "31 March 1980"
 * (two-digit day, four-digit year), month precision "March 1980", year precision "1980".
 * BC times (a leading "-") read one year more, as the reference counts them, and end in " B.C."
 * ("-0552-10-09" → "09 October 0553 B.C."). The date is taken as written (no time zone shift).
 * Anything unreadable gives "Unknown date".
 */
export function formatWikidataTime(time: string, precision?: number): string {
  const match = /^([+-]?)(\d{1,16})-(\d\d)-(\d\d)T/.exec(time);
  if (!match) return "Unknown date";
  const bc = match[1] === "-";
  const year = Number(match[2]) + (bc ? 1 : 0);
  const month = Number(match[3]);
  const day = Number(match[4]);
  const era = bc ? " B.C." : "";
  const yearOnly = month === 0 || (precision !== undefined && precision <= 9);
  if (yearOnly) return `${year}${era}`;
  if (month > 12) return "Unknown date";
  const monthName = MONTHS[month - 1]!;
  if (day === 0 || precision === 10) return `${monthName} ${year}${era}`;
  if (day > DAYS_IN_MONTH[month - 1]!) return "Unknown date";
  return `${String(day).padStart(2, "0")} ${monthName} ${String(year).padStart(4, "0")}${era}`;
}
