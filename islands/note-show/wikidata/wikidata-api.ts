import { queryOptions } from "@tanstack/react-query";
import type { WikidataEntityData, WikidataSearchEntity } from "../../../src/services/wikidata/client";
import { ApiError, api, call } from "../../lib/api";

export type { WikidataEntityData, WikidataSearchEntity };

/** Spec 8, knowledge-base failure: shown when the server gives no message of its own. */
export const UNKNOWN_ERROR = "An unknown error occurred";
/** The client's per-status texts: they say nothing more than the status. */
const GENERIC = new Set([
  "Bad Request",
  "Unauthorized",
  "Forbidden",
  "Not Found",
  "Internal Server Error",
  "Bad Gateway",
  "Service Unavailable",
]);

/** The message for a failed knowledge-base call: the field error, else the server's message, else the unknown error. */
export function knowledgeBaseError(error: unknown): string {
  if (!(error instanceof ApiError)) return UNKNOWN_ERROR;
  if (error.errors.wikidataId) return error.errors.wikidataId;
  const message = error.message.trim();
  if (error.status === 0 || message === "" || GENERIC.has(message) || message.startsWith("Generic Error")) return UNKNOWN_ERROR;
  return message;
}

/** Entity data (English title, Wikipedia link); errors are shown by the caller, not toasted. */
export const wikidataEntityQuery = (wikidataId: string) =>
  queryOptions({
    queryKey: ["wikidata-entity", wikidataId],
    queryFn: () => fetchWikidataEntity(wikidataId),
    staleTime: 10 * 60_000,
  });

export function fetchWikidataEntity(wikidataId: string) {
  return call(api.wikidata["entity-data"]({ wikidataId: encodeURIComponent(wikidataId) }).get(), { silent: true });
}

export function searchWikidata(search: string) {
  return call(api.wikidata.search({ search: encodeURIComponent(search) }).get(), { silent: true });
}

/** Where "Go to Wikidata" leads, as in the reference: the English Wikipedia article, else the entity's Wikidata page. */
export function wikidataPageUrl(wikidataId: string, data?: WikidataEntityData): string {
  return data?.WikipediaEnglishUrl || `https://www.wikidata.org/wiki/${encodeURIComponent(wikidataId)}`;
}

/** Titles compared as the spec says: case-insensitively (and ignoring surrounding spaces). */
export const sameTitle = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
