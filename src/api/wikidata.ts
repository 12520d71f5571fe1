import { Elysia, t } from "elysia";
import type { AppContext } from "../context";
import { searchWikidataEntities, wikidataEntityData } from "../services/wikidata/entities";
import { requireUser } from "./authentication";
import { core } from "./core";
import { WikidataEntityData, WikidataSearchEntity } from "./schemas/notes";

/** /api/wikidata: knowledge-base search and entity data (a note's Wikidata id is set in notes.ts). */
export function wikidataApi(ctx: AppContext) {
  return new Elysia({ prefix: "/api" })
    .use(core(ctx))
    .get(
      "/wikidata/search/:search",
      ({ auth, params }) => {
        requireUser(auth);
        return searchWikidataEntities(ctx, params.search);
      },
      { access: "signed-in", response: t.Array(WikidataSearchEntity), params: t.Object({ search: t.String() }) },
    )
    .get(
      "/wikidata/entity-data/:wikidataId",
      ({ auth, params }) => {
        requireUser(auth);
        return wikidataEntityData(ctx, params.wikidataId);
      },
      { access: "signed-in", response: WikidataEntityData, params: t.Object({ wikidataId: t.String() }) },
    );
}
