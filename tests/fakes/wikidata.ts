/**
 * A fake Wikidata server that answers the requests Engram makes to wikidata.org, in the real response shapes.
 *
 *   const wikidata = await startFakeWikidata();
 *   wikidata.addEntity({ id: "Q42", label: "Douglas Adams", description: "English writer", enwikiTitle: "Douglas Adams",
 *     claims: { P31: "Q5", P569: wikidataValue.time("+1952-03-11T00:00:00Z") } });
 *   // point the app's Wikidata base URL at wikidata.url (no trailing slash, no path)
 *
 * Routes:
 *   GET /w/api.php?action=wbsearchentities&search=<q>&language=en&type=item&limit=10&format=json
 *       → {searchinfo: {search}, search: [{id, title, pageid, concepturi, repository, url, display, label,
 *          description?, match, aliases?}], success: 1}   (case-insensitive prefix match on label and aliases, or the id)
 *   GET /w/api.php?action=wbgetentities&ids=Q1|Q2&props=claims&format=json
 *       → {entities: {Q1: {type, id, claims, ...}}, success: 1}; an unknown id gives {id, missing: ""}
 *   GET /wiki/Special:EntityData/<id>.json
 *       → {entities: {<id>: {type, id, labels: {en: {language, value}}, descriptions, aliases, claims,
 *          sitelinks: {enwiki: {site, title, badges, url}}}}}; an unknown id gives 404
 *
 * Failures: `fake.down = true` answers every request with 503 (an HTML error page, as Wikimedia's edge does);
 * `fake.failNext(status)` fails the next request(s); `fake.respondNextWithRaw(body)` sends e.g. a non-JSON body.
 * Other `api.php` actions and missing parameters get MediaWiki's `{error: {code, info}}` body with HTTP 200.
 */
import { jsonResponse, type RecordedRequest, recordRequest, sleep } from "./http.ts";

export type { RecordedRequest } from "./http.ts";

/** A Wikibase data value, as found in `mainsnak.datavalue`. */
export type WikidataDataValue =
  | { type: "wikibase-entityid"; value: { "entity-type": "item" | "property"; "numeric-id": number; id: string } }
  | {
      type: "time";
      value: { time: string; timezone: number; before: number; after: number; precision: number; calendarmodel: string };
    }
  | {
      type: "globecoordinate";
      value: { latitude: number; longitude: number; altitude: number | null; precision: number | null; globe: string };
    }
  | { type: "string"; value: string }
  | { type: "monolingualtext"; value: { text: string; language: string } }
  | { type: "quantity"; value: { amount: string; unit: string } };

/** A full statement, as in `claims[<Pid>][]`. */
export interface WikidataStatement {
  mainsnak: {
    snaktype: "value" | "somevalue" | "novalue";
    property: string;
    hash?: string;
    datavalue?: WikidataDataValue;
    datatype?: string;
  };
  type: "statement";
  id?: string;
  rank?: "preferred" | "normal" | "deprecated";
  [key: string]: unknown;
}

/**
 * One claim value when registering an entity: a data value (see {@link wikidataValue}), a full statement, or a
 * string shorthand: `"Q5"` / `"P31"` is an entity id, any other string is a plain string value.
 */
export type ClaimInput = WikidataDataValue | WikidataStatement | string;

export interface FakeWikidataEntity {
  /** `Q<digits>` for items, `P<digits>` for properties. */
  id: string;
  /** English label. */
  label?: string;
  /** English description. */
  description?: string;
  /** English aliases (also searched). */
  aliases?: string[];
  /** Labels in other languages, e.g. `{ fr: "Douglas Adams" }`. */
  labels?: Record<string, string>;
  descriptions?: Record<string, string>;
  /** Title of the English Wikipedia article; gives `sitelinks.enwiki` with its URL. */
  enwikiTitle?: string;
  claims?: Record<string, ClaimInput | ClaimInput[]>;
}

/** Builders for the data values the app reads. */
export const wikidataValue = {
  item(id: string): WikidataDataValue {
    const isProperty = id.startsWith("P");
    return {
      type: "wikibase-entityid",
      value: { "entity-type": isProperty ? "property" : "item", "numeric-id": Number(id.slice(1)), id },
    };
  },
  /**
   * A time such as `+1980-03-31T00:00:00Z` or `-0553-00-00T00:00:00Z` (BC). Precision defaults from the text:
   * 9 (year) when month and day are `00`, 10 (month) when the day is `00`, else 11 (day).
   */
  time(time: string, precision?: number): WikidataDataValue {
    const m = /^[+-]\d+-(\d\d)-(\d\d)/.exec(time);
    const inferred = m ? (m[1] === "00" ? 9 : m[2] === "00" ? 10 : 11) : 11;
    return {
      type: "time",
      value: {
        time,
        timezone: 0,
        before: 0,
        after: 0,
        precision: precision ?? inferred,
        calendarmodel: "http://www.wikidata.org/entity/Q1985727",
      },
    };
  },
  coordinate(latitude: number, longitude: number): WikidataDataValue {
    return {
      type: "globecoordinate",
      value: { latitude, longitude, altitude: null, precision: 0.0001, globe: "http://www.wikidata.org/entity/Q2" },
    };
  },
  string(value: string): WikidataDataValue {
    return { type: "string", value };
  },
  monolingualText(text: string, language = "en"): WikidataDataValue {
    return { type: "monolingualtext", value: { text, language } };
  },
};

export interface FakeWikidata {
  /** Base URL, e.g. `http://127.0.0.1:41234` (what replaces `https://www.wikidata.org`). */
  readonly url: string;
  readonly port: number;
  /** Every request received, in order. */
  readonly requests: RecordedRequest[];
  /** Register (or replace) an entity. */
  addEntity(entity: FakeWikidataEntity): void;
  removeEntity(id: string): void;
  /** When true, every request gets 503 with an HTML body. */
  down: boolean;
  /** The next `times` (default 1) requests get HTTP `status` (default 500) with an HTML error body. */
  failNext(status?: number, times?: number): void;
  /** The next request gets exactly this body (default status 200), e.g. something that is not JSON. */
  respondNextWithRaw(body: string, options?: { status?: number; contentType?: string }): void;
  /** Delay the next answer by `ms`. */
  delay(ms: number): void;
  /** Forget entities, failures, delays and recorded requests (and set `down` back to false). */
  reset(): void;
  stop(): Promise<void>;
}

// ---------------------------------------------------------------------------------------------------------------

const ID_PATTERN = /^[QP]\d+$/;

function datatypeOf(value: WikidataDataValue): string {
  switch (value.type) {
    case "wikibase-entityid":
      return value.value["entity-type"] === "property" ? "wikibase-property" : "wikibase-item";
    case "globecoordinate":
      return "globe-coordinate";
    default:
      return value.type;
  }
}

function shortHash(text: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x12345678;
  for (let i = 0; i < text.length; i++) {
    h1 = Math.imul(h1 ^ text.charCodeAt(i), 0x01000193);
    h2 = Math.imul(h2 ^ text.charCodeAt(i), 0x5bd1e995);
  }
  return (h1 >>> 0).toString(16).padStart(8, "0") + (h2 >>> 0).toString(16).padStart(8, "0");
}

function toStatement(entityId: string, property: string, input: ClaimInput, index: number): WikidataStatement {
  if (typeof input === "object" && "mainsnak" in input) {
    return { rank: "normal", id: `${entityId}$fake-${property}-${index}`, ...input };
  }
  const datavalue: WikidataDataValue =
    typeof input === "string" ? (ID_PATTERN.test(input) ? wikidataValue.item(input) : wikidataValue.string(input)) : input;
  return {
    mainsnak: {
      snaktype: "value",
      property,
      hash: shortHash(JSON.stringify(datavalue)),
      datavalue,
      datatype: datatypeOf(datavalue),
    },
    type: "statement",
    id: `${entityId}$fake-${property}-${index}`,
    rank: "normal",
  };
}

function wikipediaUrl(title: string): string {
  return `https://en.wikipedia.org/wiki/${encodeURIComponent(title.replace(/ /g, "_")).replace(/%2F/g, "/").replace(/%3A/g, ":")}`;
}

function pageIdOf(id: string): number {
  return 100_000 + Number(id.slice(1));
}

interface StoredEntity {
  input: FakeWikidataEntity;
  labels: Record<string, string>;
  descriptions: Record<string, string>;
  aliases: string[];
}

type Props = Set<string>;
const DEFAULT_PROPS = new Set(["info", "sitelinks", "aliases", "labels", "descriptions", "claims", "datatype"]);

function fullEntity(entity: StoredEntity, props: Props = DEFAULT_PROPS, languages?: Set<string>): Record<string, unknown> {
  const { input } = entity;
  const isProperty = input.id.startsWith("P");
  const keepLang = (lang: string) => !languages || languages.has(lang);
  const out: Record<string, unknown> = {};
  if (props.has("info")) {
    Object.assign(out, {
      pageid: pageIdOf(input.id),
      ns: isProperty ? 120 : 0,
      title: isProperty ? `Property:${input.id}` : input.id,
      lastrevid: 2_000_000_000 + Number(input.id.slice(1)),
      modified: "2025-01-01T00:00:00Z",
    });
  }
  out.type = isProperty ? "property" : "item";
  if (isProperty && props.has("datatype")) out.datatype = "wikibase-item";
  out.id = input.id;
  if (props.has("labels")) {
    out.labels = Object.fromEntries(
      Object.entries(entity.labels)
        .filter(([lang]) => keepLang(lang))
        .map(([lang, value]) => [lang, { language: lang, value }]),
    );
  }
  if (props.has("descriptions")) {
    out.descriptions = Object.fromEntries(
      Object.entries(entity.descriptions)
        .filter(([lang]) => keepLang(lang))
        .map(([lang, value]) => [lang, { language: lang, value }]),
    );
  }
  if (props.has("aliases")) {
    out.aliases = entity.aliases.length > 0 && keepLang("en") ? { en: entity.aliases.map((value) => ({ language: "en", value })) } : {};
  }
  if (props.has("claims")) {
    const claims: Record<string, WikidataStatement[]> = {};
    for (const [property, value] of Object.entries(input.claims ?? {})) {
      const list = Array.isArray(value) ? value : [value];
      claims[property] = list.map((v, i) => toStatement(input.id, property, v, i));
    }
    out.claims = claims;
  }
  if (!isProperty && (props.has("sitelinks") || props.has("sitelinks/urls"))) {
    const withUrls = props.has("sitelinks/urls");
    out.sitelinks = input.enwikiTitle
      ? {
          enwiki: {
            site: "enwiki",
            title: input.enwikiTitle,
            badges: [],
            ...(withUrls ? { url: wikipediaUrl(input.enwikiTitle) } : {}),
          },
        }
      : {};
  }
  return out;
}

function mediaWikiError(code: string, info: string): Response {
  return jsonResponse(
    {
      error: {
        code,
        info,
        "*": "See https://www.wikidata.org/w/api.php for API usage.",
      },
      servedby: "fake-wikidata",
    },
    200,
    { "mediawiki-api-error": code },
  );
}

function htmlError(status: number, title: string): Response {
  return new Response(
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>` +
      `<body><h1>${title}</h1><p>Fake Wikidata answered ${status}.</p></body></html>`,
    { status, headers: { "content-type": "text/html; charset=utf-8" } },
  );
}

// ---------------------------------------------------------------------------------------------------------------

export async function startFakeWikidata(): Promise<FakeWikidata> {
  const requests: RecordedRequest[] = [];
  let entities = new Map<string, StoredEntity>();
  let overrides: { response: () => Response; remaining: number }[] = [];
  let delayMs = 0;
  let down = false;

  function search(query: Record<string, string>): Response {
    const term = query.search;
    if (term === undefined || term === "") return mediaWikiError("missingparam", 'The "search" parameter must be set.');
    if (!query.language) return mediaWikiError("missingparam", 'The "language" parameter must be set.');
    const language = query.language;
    const type = query.type ?? "item";
    const limit = Math.min(Math.max(Number(query.limit ?? 7) || 7, 1), 50);
    const offset = Math.max(Number(query.continue ?? 0) || 0, 0);
    const needle = term.trim().toLowerCase();

    type Hit = { entity: StoredEntity; rank: number; match: { type: string; language: string; text: string }; alias?: string };
    const hits: Hit[] = [];
    for (const entity of entities.values()) {
      const { id } = entity.input;
      if ((type === "property") !== id.startsWith("P")) continue;
      const label = entity.labels[language] ?? entity.labels.en;
      const lang = entity.labels[language] !== undefined ? language : "en";
      if (id.toLowerCase() === needle) {
        hits.push({ entity, rank: 0, match: { type: "entityId", language: "en", text: id } });
      } else if (label !== undefined && label.toLowerCase() === needle) {
        hits.push({ entity, rank: 1, match: { type: "label", language: lang, text: label } });
      } else if (label?.toLowerCase().startsWith(needle)) {
        hits.push({ entity, rank: 2, match: { type: "label", language: lang, text: label } });
      } else {
        const alias = entity.aliases.find((a) => a.toLowerCase().startsWith(needle));
        if (alias !== undefined) hits.push({ entity, rank: 3, match: { type: "alias", language: "en", text: alias }, alias });
      }
    }
    hits.sort((a, b) => a.rank - b.rank);
    const page = hits.slice(offset, offset + limit);

    const search = page.map(({ entity, match, alias }) => {
      const { id } = entity.input;
      const label = entity.labels[language] ?? entity.labels.en;
      const description = entity.descriptions[language] ?? entity.descriptions.en;
      const display: Record<string, unknown> = {};
      if (label !== undefined) display.label = { value: label, language: entity.labels[language] !== undefined ? language : "en" };
      if (description !== undefined) {
        display.description = { value: description, language: entity.descriptions[language] !== undefined ? language : "en" };
      }
      return {
        id,
        title: id.startsWith("P") ? `Property:${id}` : id,
        pageid: pageIdOf(id),
        concepturi: `http://www.wikidata.org/entity/${id}`,
        repository: "wikidata",
        url: `//www.wikidata.org/wiki/${id.startsWith("P") ? "Property:" : ""}${id}`,
        display,
        ...(label !== undefined ? { label } : {}),
        ...(description !== undefined ? { description } : {}),
        match,
        ...(alias !== undefined ? { aliases: [alias] } : {}),
      };
    });
    return jsonResponse({
      searchinfo: { search: term },
      search,
      ...(offset + limit < hits.length ? { "search-continue": offset + limit } : {}),
      success: 1,
    });
  }

  function getEntities(query: Record<string, string>): Response {
    if (!query.ids)
      return mediaWikiError("param-missing", 'Either provide the item "ids" or pairs of "sites" and "titles" for corresponding pages');
    const ids = query.ids.split("|").filter((s) => s !== "");
    const bad = ids.find((id) => !ID_PATTERN.test(id));
    if (bad !== undefined) return mediaWikiError("no-such-entity", `Could not find an entity with the ID "${bad}".`);
    const props: Props = query.props ? new Set(query.props.split("|")) : DEFAULT_PROPS;
    const languages = query.languages ? new Set(query.languages.split("|")) : undefined;
    const result: Record<string, unknown> = {};
    for (const id of ids) {
      const entity = entities.get(id);
      result[id] = entity ? fullEntity(entity, props, languages) : { id, missing: "" };
    }
    return jsonResponse({ entities: result, success: 1 });
  }

  function entityData(fileName: string): Response {
    const m = /^([QP]\d+)\.json$/.exec(fileName);
    if (!m) return htmlError(400, "Invalid ID");
    const id = m[1]!;
    const entity = entities.get(id);
    if (!entity) return htmlError(404, `No entity with ID ${id}`);
    const props = new Set([...DEFAULT_PROPS, "sitelinks/urls"]);
    return jsonResponse({ entities: { [id]: fullEntity(entity, props) } });
  }

  async function handle(req: Request): Promise<Response> {
    const rec = await recordRequest(req);
    requests.push(rec);

    const wait = delayMs;
    delayMs = 0;
    await sleep(wait, req.signal);

    if (down) return htmlError(503, "Wikimedia Error");
    const override = overrides[0];
    if (override) {
      override.remaining -= 1;
      if (override.remaining <= 0) overrides.shift();
      return override.response();
    }

    if (rec.method !== "GET") return htmlError(405, "Method Not Allowed");
    if (rec.path === "/w/api.php") {
      switch (rec.query.action) {
        case "wbsearchentities":
          return search(rec.query);
        case "wbgetentities":
          return getEntities(rec.query);
        case undefined:
          return mediaWikiError("missingparam", 'The "action" parameter must be set.');
        default:
          return mediaWikiError("badvalue", `Unrecognized value for parameter "action": ${rec.query.action}.`);
      }
    }
    const entityDataMatch = /^\/wiki\/Special:EntityData\/([^/]+)$/.exec(rec.path);
    if (entityDataMatch) return entityData(decodeURIComponent(entityDataMatch[1]!));
    return htmlError(404, "Not Found");
  }

  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    idleTimeout: 0,
    fetch: async (req) => {
      try {
        return await handle(req);
      } catch (error) {
        return htmlError(500, `Fake Wikidata crashed: ${error instanceof Error ? error.message : String(error)}`);
      }
    },
  });
  const port = server.port!;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    addEntity(entity) {
      if (!ID_PATTERN.test(entity.id)) throw new Error(`Wikidata ids look like Q42 or P31, not ${JSON.stringify(entity.id)}`);
      entities.set(entity.id, {
        input: entity,
        labels: { ...entity.labels, ...(entity.label !== undefined ? { en: entity.label } : {}) },
        descriptions: { ...entity.descriptions, ...(entity.description !== undefined ? { en: entity.description } : {}) },
        aliases: entity.aliases ?? [],
      });
    },
    removeEntity(id) {
      entities.delete(id);
    },
    get down() {
      return down;
    },
    set down(value: boolean) {
      down = value;
    },
    failNext(status = 500, times = 1) {
      overrides.push({ response: () => htmlError(status, "Wikimedia Error"), remaining: times });
    },
    respondNextWithRaw(body, options) {
      overrides.push({
        response: () =>
          new Response(body, {
            status: options?.status ?? 200,
            headers: { "content-type": options?.contentType ?? "application/json; charset=utf-8" },
          }),
        remaining: 1,
      });
    },
    delay(ms) {
      delayMs += ms;
    },
    reset() {
      requests.length = 0;
      entities = new Map();
      overrides = [];
      delayMs = 0;
      down = false;
    },
    async stop() {
      await server.stop(true);
    },
  };
}
