import { Elysia, t } from "elysia";
import type { AppContext } from "../context";
import { assimilate, assimilating, assimilationCount } from "../services/memory/assimilation";
import { requireUser } from "./authentication";
import { core } from "./core";
import { BodyId } from "./ids";
import { AssimilationCount, MemoryTrackers } from "./schemas/memory";
import { Note } from "./schemas/notes";
import { timezoneQuery, validTimeZone } from "./time-zone";

/** /api/assimilation: today's notes to assimilate, the counters, and assimilating a note. */
export function assimilationApi(ctx: AppContext) {
  return new Elysia({ prefix: "/api" })
    .use(core(ctx))
    .get("/assimilation/assimilating", ({ auth, query }) => assimilating(ctx, requireUser(auth), validTimeZone(query.timezone)), {
      access: "signed-in",
      response: t.Array(Note),
      query: timezoneQuery,
    })
    .get("/assimilation/count", ({ auth, query }) => assimilationCount(ctx, requireUser(auth), validTimeZone(query.timezone)), {
      access: "signed-in",
      response: AssimilationCount,
      query: timezoneQuery,
    })
    .post("/assimilation", ({ auth, body }) => assimilate(ctx, requireUser(auth), body.noteId, body.skipMemoryTracking ?? false), {
      access: "signed-in",
      response: MemoryTrackers,
      body: t.Object({
        noteId: BodyId("must be a note id"),
        skipMemoryTracking: t.Optional(t.Union([t.Boolean(), t.Null()])),
      }),
    });
}
