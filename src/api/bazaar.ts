import { Elysia, t } from "elysia";
import type { AppContext } from "../context";
import { bazaar, removeFromBazaar } from "../services/sharing/bazaar";
import { optionalUser } from "./authentication";
import { core } from "./core";
import { IdParam } from "./ids";

/** /api/bazaar: the shared notebooks (anyone may list them) and their removal by an admin. */
export function bazaarApi(ctx: AppContext) {
  return new Elysia({ prefix: "/api/bazaar" })
    .use(core(ctx))
    .get("/", () => bazaar(ctx))
    .post("/:bazaarNotebook/remove", ({ auth, params }) => removeFromBazaar(ctx, optionalUser(auth), params.bazaarNotebook), {
      params: t.Object({ bazaarNotebook: IdParam }),
    });
}
