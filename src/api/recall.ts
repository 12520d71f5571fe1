import { Elysia, t } from "elysia";
import type { AppContext } from "../context";
import { recalling, recallOverview } from "../services/memory/recall-list";
import { requireUser } from "./authentication";
import { core } from "./core";
import { TIME_ZONE_MESSAGE, timezoneQuery, validTimeZone } from "./time-zone";

/** /api/recalls: the memory trackers to repeat now or in the next days, and the recall counters. */
export function recallApi(ctx: AppContext) {
  return new Elysia({ prefix: "/api/recalls" })
    .use(core(ctx))
    .get("/recalling", ({ auth, query }) => recalling(ctx, requireUser(auth), validTimeZone(query.timezone), query.dueindays ?? 0), {
      query: t.Object({
        timezone: t.String({ error: TIME_ZONE_MESSAGE }),
        dueindays: t.Optional(t.Numeric({ minimum: 0, maximum: 365, error: "must be a number of days from 0 to 365" })),
      }),
    })
    .get("/overview", ({ auth, query }) => recallOverview(ctx, requireUser(auth), validTimeZone(query.timezone)), {
      query: timezoneQuery,
    });
}
