import { Elysia, t } from "elysia";
import type { AppContext } from "../context";
import { updateWikidataId } from "../services/wikidata/association";
import { searchWikidataEntities, wikidataEntityData } from "../services/wikidata/entities";
import { requireUser } from "./authentication";
import { core } from "./core";

const WIKIDATA_ID_MESSAGE = "The wikidata Id should be Q<numbers>";

/** /api/wikidata: knowledge-base search and entity data; associating a note with an entity. */
export function wikidataApi(ctx: AppContext) {
  return new Elysia({ prefix: "/api" })
    .use(core(ctx))
    .get("/wikidata/search/:search", ({ auth, params }) => {
      requireUser(auth);
      return searchWikidataEntities(ctx, params.search);
    }, { params: t.Object({ search: t.String() }) })
    .get("/wikidata/entity-data/:wikidataId", ({ auth, params }) => {
      requireUser(auth);
      return wikidataEntityData(ctx, params.wikidataId);
    }, { params: t.Object({ wikidataId: t.String() }) })
    .post("/notes/:note/updateWikidataId", ({ auth, params, body }) =>
      updateWikidataId(ctx, requireUser(auth), params.note, body.wikidataId), {
      params: t.Object({ note: t.Numeric() }),
      body: t.Object({ wikidataId: t.String({ error: WIKIDATA_ID_MESSAGE }) }, { additionalProperties: true }),
    });
}
