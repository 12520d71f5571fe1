import type { AppContext } from "../../context";
import { ServiceUnavailableError } from "../errors";

/** The message every Wikidata failure answers with (spec 8, reference wording). */
export const WIKIDATA_UNAVAILABLE = "The wikidata service is not available";

/** Wikimedia asks API clients to say who they are. */
const USER_AGENT = "Engram/1.0 (self-hosted learning app)";
/** How long one call to Wikidata may take before we give up (ms). */
const TIMEOUT_MS = 10_000;

/** A knowledge-base search suggestion (WikidataSearchEntity). */
export interface WikidataSearchEntity {
  id: string;
  label: string;
  description: string;
}

/** The entity data the client shows (WikidataEntityData: PascalCase keys, as in the reference). */
export interface WikidataEntityData {
  WikidataTitleInEnglish: string;
  WikipediaEnglishUrl: string;
}

/** One claim value, as found in `claims[Pid][].mainsnak.datavalue`. */
export interface WikidataDataValue {
  type: string;
  value: unknown;
}

/** Property id → the data values of its statements, in order (statements without a value left out). */
export type WikidataClaims = Record<string, WikidataDataValue[]>;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);
const text = (value: unknown) => (typeof value === "string" ? value : "");

/**
 * GETs a Wikidata path and parses the JSON. A network error, a timeout, an HTTP error, a body
 * that is not JSON or a MediaWiki error body all mean the service is not available; a 404 is
 * answered as `undefined` when `notFoundIsEmpty` (an unknown entity, not a broken service).
 */
async function getJson(ctx: AppContext, path: string, notFoundIsEmpty = false): Promise<Json | undefined> {
  const base = ctx.serviceUrls.wikidata.replace(/\/+$/, "");
  let response: Response;
  try {
    response = await fetch(`${base}${path}`, {
      headers: { accept: "application/json", "user-agent": USER_AGENT },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch {
    throw new ServiceUnavailableError(WIKIDATA_UNAVAILABLE);
  }
  if (response.status === 404 && notFoundIsEmpty) {
    await response.body?.cancel();
    return undefined;
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new ServiceUnavailableError(WIKIDATA_UNAVAILABLE);
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new ServiceUnavailableError(WIKIDATA_UNAVAILABLE);
  }
  if (!isObject(body) || "error" in body) throw new ServiceUnavailableError(WIKIDATA_UNAVAILABLE);
  return body;
}

/** The entity's part of an `entities` map; Wikidata may answer a redirected id under its new id. */
function entityOf(body: Json | undefined, wikidataId: string): Json | undefined {
  const entities = body?.entities;
  if (!isObject(entities)) return undefined;
  const entity = entities[wikidataId] ?? Object.values(entities)[0];
  if (!isObject(entity) || "missing" in entity) return undefined;
  return entity;
}

/** Up to 10 English items whose label or alias starts with the search text. */
export async function searchWikidata(ctx: AppContext, search: string): Promise<WikidataSearchEntity[]> {
  const query = new URLSearchParams({
    action: "wbsearchentities",
    search,
    format: "json",
    language: "en",
    uselang: "en",
    type: "item",
    limit: "10",
  });
  const body = await getJson(ctx, `/w/api.php?${query}`);
  const results = Array.isArray(body?.search) ? body.search : [];
  return results.filter(isObject).map((item) => ({ id: text(item.id), label: text(item.label), description: text(item.description) }));
}

/** The English title and Wikipedia link of an entity; undefined when Wikidata has no such entity. */
export async function fetchEntityData(ctx: AppContext, wikidataId: string): Promise<WikidataEntityData | undefined> {
  const body = await getJson(ctx, `/wiki/Special:EntityData/${encodeURIComponent(wikidataId)}.json`, true);
  const entity = entityOf(body, wikidataId);
  if (!entity) return undefined;
  const labels = isObject(entity.labels) ? entity.labels : {};
  const sitelinks = isObject(entity.sitelinks) ? entity.sitelinks : {};
  return {
    WikidataTitleInEnglish: isObject(labels.en) ? text(labels.en.value) : "",
    WikipediaEnglishUrl: isObject(sitelinks.enwiki) ? text(sitelinks.enwiki.url) : "",
  };
}

/** The claims of an entity (empty when Wikidata has no such entity). */
export async function fetchClaims(ctx: AppContext, wikidataId: string): Promise<WikidataClaims> {
  const query = new URLSearchParams({ action: "wbgetentities", ids: wikidataId, format: "json", props: "claims" });
  const entity = entityOf(await getJson(ctx, `/w/api.php?${query}`), wikidataId);
  const claims: WikidataClaims = {};
  if (!entity || !isObject(entity.claims)) return claims;
  for (const [property, statements] of Object.entries(entity.claims)) {
    if (!Array.isArray(statements)) continue;
    claims[property] = statements
      .map((statement) => (isObject(statement) && isObject(statement.mainsnak) ? statement.mainsnak.datavalue : undefined))
      .filter((value): value is WikidataDataValue => isObject(value) && typeof value.type === "string");
  }
  return claims;
}
