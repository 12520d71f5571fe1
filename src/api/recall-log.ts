import { Elysia, t } from "elysia";
import type { AppContext } from "../context";
import { optimizeFsrsParameters } from "../services/memory/fsrs-parameters";
import { recallLogRows } from "../services/memory/recall-log";
import { userStats } from "../services/stats/stats";
import { requireUser } from "./authentication";
import { core } from "./core";
import { IdParam } from "./ids";
import { FsrsOptimization, RecallLogEntry, Stats } from "./schemas/memory";
import { TIME_ZONE_MESSAGE, validTimeZone } from "./time-zone";

/** GET /api/recall-log (the signed-in user's review log, newest first), GET /api/stats and POST /api/user/optimize-fsrs-parameters. */
export function recallLogApi(ctx: AppContext) {
  return (
    new Elysia()
      .use(core(ctx))
      .get(
        "/api/recall-log",
        ({ auth, query }) =>
          recallLogRows(ctx, requireUser(auth), query.memoryTracker, query.limit === undefined ? undefined : Number(query.limit)),
        {
          access: "signed-in",
          response: t.Array(RecallLogEntry),
          // Signed out is 401 before the query is looked at.
          transform: ({ auth }) => void requireUser(auth),
          query: t.Object(
            {
              memoryTracker: t.Optional(IdParam),
              // Checked by the service, so a bad value is a field error on "limit".
              limit: t.Optional(t.String({ maxLength: 10 })),
            },
            { additionalProperties: true },
          ),
        },
      )
      .get("/api/stats", ({ auth, query }) => userStats(ctx, requireUser(auth), validTimeZone(query.timezone)), {
        access: "signed-in",
        response: Stats,
        transform: ({ auth }) => void requireUser(auth),
        query: t.Object({ timezone: t.String({ maxLength: 100, error: TIME_ZONE_MESSAGE }) }, { additionalProperties: true }),
      })
      // "Optimize my parameters": fits the FSRS weights to the user's log (400 with fewer than 400 reviews).
      .post("/api/user/optimize-fsrs-parameters", ({ auth }) => optimizeFsrsParameters(ctx, requireUser(auth)), {
        access: "signed-in",
        response: FsrsOptimization,
      })
  );
}
