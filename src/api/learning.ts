import { Elysia, t } from "elysia";
import type { AppContext } from "../context";
import { ValidationError } from "../services/errors";
import { assimilate, assimilating, assimilationCount } from "../services/memory/assimilation";
import { recallOverview, recalling } from "../services/memory/recall-list";
import {
  markTrackerAsRepeated,
  noteInfo,
  recentlyLearned,
  recentlyReviewed,
  removeFromTracking,
  selfEvaluate,
  showTracker,
  updateRecallSetting,
} from "../services/memory/trackers";
import { isValidTimeZone } from "../services/scheduling/time-windows";
import { requireUser } from "./authentication";
import { core } from "./core";

/** The browser's IANA time zone, required by the day and half-day windows. */
const timezoneQuery = t.Object({ timezone: t.String({ error: "must be an IANA time zone such as Europe/Paris" }) }, { additionalProperties: true });

function validTimeZone(timeZone: string): string {
  if (!isValidTimeZone(timeZone)) throw new ValidationError({ timezone: "must be an IANA time zone such as Europe/Paris" });
  return timeZone;
}

const trackerParams = t.Object({ memoryTracker: t.Numeric() });

/** The learning loop's /api: assimilation, recall lists, memory trackers and recall settings. */
export function learningApi(ctx: AppContext) {
  return new Elysia({ prefix: "/api" })
    .use(core(ctx))
    .get("/assimilation/assimilating", ({ auth, query }) => assimilating(ctx, requireUser(auth), validTimeZone(query.timezone)), {
      query: timezoneQuery,
    })
    .get("/assimilation/count", ({ auth, query }) => assimilationCount(ctx, requireUser(auth), validTimeZone(query.timezone)), {
      query: timezoneQuery,
    })
    .post("/assimilation", ({ auth, body }) => assimilate(ctx, requireUser(auth), body.noteId, body.skipMemoryTracking ?? false), {
      body: t.Object({
        noteId: t.Integer({ error: "must be a note id" }),
        skipMemoryTracking: t.Optional(t.Union([t.Boolean(), t.Null()])),
      }),
    })
    .get("/recalls/recalling", ({ auth, query }) =>
      recalling(ctx, requireUser(auth), validTimeZone(query.timezone), query.dueindays ?? 0), {
      query: t.Object({
        timezone: t.String({ error: "must be an IANA time zone such as Europe/Paris" }),
        dueindays: t.Optional(t.Numeric({ minimum: 0, maximum: 365, error: "must be a number of days from 0 to 365" })),
      }),
    })
    .get("/recalls/overview", ({ auth, query }) => recallOverview(ctx, requireUser(auth), validTimeZone(query.timezone)), {
      query: timezoneQuery,
    })
    .get("/memory-trackers/recent", ({ auth }) => recentlyLearned(ctx, requireUser(auth)))
    .get("/memory-trackers/recently-reviewed", ({ auth }) => recentlyReviewed(ctx, requireUser(auth)))
    .get("/memory-trackers/:memoryTracker", ({ auth, params }) => showTracker(ctx, requireUser(auth), params.memoryTracker), {
      params: trackerParams,
    })
    .patch("/memory-trackers/:memoryTracker/mark-as-repeated", ({ auth, params, query }) =>
      markTrackerAsRepeated(ctx, requireUser(auth), params.memoryTracker, query.successful === "true"), {
      params: trackerParams,
      query: t.Object({ successful: t.Union([t.Literal("true"), t.Literal("false")], { error: "must be true or false" }) }),
    })
    .post("/memory-trackers/:memoryTracker/self-evaluate", ({ auth, params, body }) =>
      selfEvaluate(ctx, requireUser(auth), params.memoryTracker, body.adjustment), {
      params: trackerParams,
      body: t.Object({ adjustment: t.Integer({ error: "must be a whole number from -100 to 100" }) }),
    })
    .post("/memory-trackers/:memoryTracker/remove", ({ auth, params }) => removeFromTracking(ctx, requireUser(auth), params.memoryTracker), {
      params: trackerParams,
    })
    .get("/notes/:note/note-info", ({ auth, params }) => noteInfo(ctx, requireUser(auth), params.note), {
      params: t.Object({ note: t.Numeric() }),
    })
    .post("/notes/:note/review-setting", ({ auth, params, body }) => updateRecallSetting(ctx, requireUser(auth), params.note, body), {
      params: t.Object({ note: t.Numeric() }),
      body: t.Object({
        level: t.Optional(t.Integer({ error: "must be from 0 to 6" })),
        rememberSpelling: t.Optional(t.Boolean({ error: "must be true or false" })),
        skipMemoryTracking: t.Optional(t.Boolean({ error: "must be true or false" })),
      }, { additionalProperties: true }),
    });
}
