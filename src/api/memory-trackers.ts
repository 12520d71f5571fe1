import { Elysia, t } from "elysia";
import type { AppContext } from "../context";
import {
  markTrackerAsRepeated,
  recentlyLearned,
  recentlyReviewed,
  removeFromTracking,
  selfEvaluate,
  showTracker,
} from "../services/memory/trackers";
import { answerSpelling, spellingQuestion } from "../services/spelling/spelling-service";
import { requireUser } from "./authentication";
import { core } from "./core";
import { idempotencyKeyOf } from "./idempotency";
import { IdParam, ThinkingTimeField } from "./ids";
import { MemoryTracker, MemoryTrackers, SpellingQuestion, SpellingResult } from "./schemas/memory";

// `:memoryTracker` is the name every route uses at this position (an Elysia restriction).
const trackerParams = t.Object({ memoryTracker: IdParam });

/** /api/memory-trackers: the recent lists, one tracker, repeating, self-evaluation, removal and spelling. */
export function memoryTrackersApi(ctx: AppContext) {
  return new Elysia({ prefix: "/api/memory-trackers" })
    .use(core(ctx))
    .get("/recent", ({ auth }) => recentlyLearned(ctx, requireUser(auth)), { access: "signed-in", response: MemoryTrackers })
    .get("/recently-reviewed", ({ auth }) => recentlyReviewed(ctx, requireUser(auth)), { access: "signed-in", response: MemoryTrackers })
    .get("/:memoryTracker", ({ auth, params }) => showTracker(ctx, requireUser(auth), params.memoryTracker), {
      access: "signed-in",
      response: MemoryTracker,
      params: trackerParams,
    })
    .patch(
      "/:memoryTracker/mark-as-repeated",
      ({ auth, params, query, headers }) =>
        markTrackerAsRepeated(
          ctx,
          requireUser(auth),
          params.memoryTracker,
          query.successful === "true",
          query.thinkingTimeMs,
          idempotencyKeyOf(headers),
        ),
      {
        access: "signed-in",
        response: MemoryTracker,
        params: trackerParams,
        query: t.Object({
          successful: t.Union([t.Literal("true"), t.Literal("false")], { error: "must be true or false" }),
          // Milliseconds the learner took (for the recall log); checked by the service.
          thinkingTimeMs: t.Optional(t.String({ maxLength: 12 })),
        }),
      },
    )
    .post(
      "/:memoryTracker/self-evaluate",
      ({ auth, params, body }) => selfEvaluate(ctx, requireUser(auth), params.memoryTracker, body.adjustment),
      {
        access: "signed-in",
        response: MemoryTracker,
        params: trackerParams,
        body: t.Object({ adjustment: t.Integer({ error: "must be a whole number from -100 to 100" }) }),
      },
    )
    .post("/:memoryTracker/remove", ({ auth, params }) => removeFromTracking(ctx, requireUser(auth), params.memoryTracker), {
      access: "signed-in",
      response: MemoryTracker,
      params: trackerParams,
    })
    .get("/:memoryTracker/spelling-question", ({ auth, params }) => spellingQuestion(ctx, requireUser(auth), params.memoryTracker), {
      access: "signed-in",
      response: SpellingQuestion,
      params: trackerParams,
    })
    .post(
      "/:memoryTracker/answer-spelling",
      ({ auth, params, body, headers }) =>
        answerSpelling(ctx, requireUser(auth), params.memoryTracker, body.spellingAnswer, body.thinkingTimeMs, idempotencyKeyOf(headers)),
      {
        access: "signed-in",
        response: SpellingResult,
        params: trackerParams,
        // Blank, null and missing answers get one field message from the service.
        body: t.Object(
          { spellingAnswer: t.Optional(t.Union([t.String(), t.Null()])), thinkingTimeMs: ThinkingTimeField },
          { additionalProperties: true },
        ),
      },
    );
}
