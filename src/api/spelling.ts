import { Elysia, t } from "elysia";
import type { AppContext } from "../context";
import { answerSpelling, spellingQuestion } from "../services/spelling/spelling-service";
import { requireUser } from "./authentication";
import { core } from "./core";

// `:memoryTracker` is the name every route uses at this position (an Elysia restriction).
const trackerParams = t.Object({ memoryTracker: t.Numeric() });

/** Spelling questions and answers of a memory tracker. */
export function spellingApi(ctx: AppContext) {
  return new Elysia({ prefix: "/api" })
    .use(core(ctx))
    .get("/memory-trackers/:memoryTracker/spelling-question", ({ auth, params }) =>
      spellingQuestion(ctx, requireUser(auth), params.memoryTracker), {
      params: trackerParams,
    })
    .post("/memory-trackers/:memoryTracker/answer-spelling", ({ auth, params, body }) =>
      answerSpelling(ctx, requireUser(auth), params.memoryTracker, body.spellingAnswer), {
      params: trackerParams,
      // Blank, null and missing answers get one field message from the service.
      body: t.Object({ spellingAnswer: t.Optional(t.Union([t.String(), t.Null()])) }, { additionalProperties: true }),
    });
}
