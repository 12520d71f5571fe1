import { Elysia, t } from "elysia";
import type { AppContext } from "../context";
import { bazaar, removeFromBazaar } from "../services/sharing/bazaar";
import { optionalUser, requireUser } from "./authentication";
import { core } from "./core";
import { IdParam } from "./ids";
import { BazaarNotebooks } from "./schemas/people";

/** /api/bazaar: the shared notebooks (anyone may list them) and their removal by an admin. */
export function bazaarApi(ctx: AppContext) {
  return new Elysia({ prefix: "/api/bazaar" })
    .use(core(ctx))
    .get("/", ({ auth }) => bazaar(ctx, optionalUser(auth)), { access: "public", response: BazaarNotebooks })
    .post("/:bazaarNotebook/remove", ({ auth, params }) => removeFromBazaar(ctx, requireUser(auth), params.bazaarNotebook), {
      access: "admin",
      response: BazaarNotebooks,
      params: t.Object({ bazaarNotebook: IdParam }),
    });
}
