import { Elysia, t } from "elysia";
import type { AppContext } from "../context";
import { DEFAULT_GRAPH_TOKEN_LIMIT, noteGraph, TOKEN_LIMIT_MESSAGE } from "../services/graph/build-graph";
import { requireUser, type Auth } from "./authentication";
import { core } from "./core";

/** The signed-in user when there is one; reading refuses nobody-signed-in with 401 itself. */
const optionalUser = (auth: Auth) => (auth.account && auth.user ? requireUser(auth) : undefined);

/** GET /api/notes/{note}/graph?tokenLimit=: the note graph (GraphRAGResult) for export and AI context. */
export function graphApi(ctx: AppContext) {
  return new Elysia({ prefix: "/api" })
    .use(core(ctx))
    .get("/notes/:note/graph", ({ auth, params, query }) =>
      noteGraph(ctx, optionalUser(auth), params.note, query.tokenLimit ?? DEFAULT_GRAPH_TOKEN_LIMIT), {
      params: t.Object({ note: t.Numeric() }),
      query: t.Object({
        // The range is checked by the service (a schema range error loses the field name).
        tokenLimit: t.Optional(t.Integer({ error: TOKEN_LIMIT_MESSAGE })),
      }),
    });
}
