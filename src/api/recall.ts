import { Elysia, t } from "elysia";
import type { AppContext } from "../context";
import { applyOfflineAnswers, MAX_ANSWERS_PER_SYNC, MAX_SPELLING_ANSWER_LENGTH } from "../services/memory/offline-answers";
import { offlinePack } from "../services/memory/offline-pack";
import { recalling, recallOverview } from "../services/memory/recall-list";
import { MAX_THINKING_TIME_MS } from "../services/memory/reviews";
import { requireUser } from "./authentication";
import { core } from "./core";
import { DueMemoryTrackers, OfflineAnswerOutcomes, OfflinePack, RecallOverview } from "./schemas/memory";
import { TIME_ZONE_MESSAGE, timezoneQuery, validTimeZone } from "./time-zone";

const dueQuery = t.Object({
  timezone: t.String({ error: TIME_ZONE_MESSAGE }),
  dueindays: t.Optional(t.Numeric({ minimum: 0, maximum: 365, error: "must be a number of days from 0 to 365" })),
});

/** One answer given offline (services/memory/offline-answers.ts). */
const offlineAnswer = t.Object({
  idempotencyKey: t.String({ pattern: "^[A-Za-z0-9_-]{8,64}$", error: "must be 8 to 64 letters, digits, - or _" }),
  memoryTrackerId: t.Integer({ minimum: 1, error: "must be a memory tracker's id" }),
  answeredAt: t.String({ minLength: 10, maxLength: 40, error: "must be a date and time (ISO 8601)" }),
  thinkingTimeMs: t.Optional(
    t.Union([t.Integer({ minimum: 0, maximum: MAX_THINKING_TIME_MS }), t.Null()], {
      error: `must be a whole number of milliseconds from 0 to ${MAX_THINKING_TIME_MS}`,
    }),
  ),
  answer: t.Union(
    [
      t.Object({ type: t.Literal("self-review"), successful: t.Boolean() }),
      t.Object({ type: t.Literal("spelling"), spellingAnswer: t.String({ minLength: 1, maxLength: MAX_SPELLING_ANSWER_LENGTH }) }),
      t.Object({
        type: t.Literal("multiple-choice"),
        recallPromptId: t.Integer({ minimum: 1 }),
        choiceIndex: t.Integer({ minimum: 0, maximum: 100 }),
      }),
    ],
    { error: "must be a self-review, a spelling or a multiple-choice answer" },
  ),
});

/** /api/recalls: the memory trackers to repeat now or in the next days, the recall counters, and offline recall. */
export function recallApi(ctx: AppContext) {
  return (
    new Elysia({ prefix: "/api/recalls" })
      .use(core(ctx))
      .get("/recalling", ({ auth, query }) => recalling(ctx, requireUser(auth), validTimeZone(query.timezone), query.dueindays ?? 0), {
        access: "signed-in",
        response: DueMemoryTrackers,
        query: dueQuery,
      })
      .get("/overview", ({ auth, query }) => recallOverview(ctx, requireUser(auth), validTimeZone(query.timezone)), {
        access: "signed-in",
        response: RecallOverview,
        query: timezoneQuery,
      })
      // What a device keeps to recall without the network.
      .get("/offline-pack", ({ auth, query }) => offlinePack(ctx, requireUser(auth), validTimeZone(query.timezone), query.dueindays ?? 0), {
        access: "signed-in",
        response: OfflinePack,
        query: dueQuery,
      })
      // Answers given offline, in the order given; each outcome in the same order.
      .post("/offline-answers", async ({ auth, body }) => ({ outcomes: await applyOfflineAnswers(ctx, requireUser(auth), body.answers) }), {
        access: "signed-in",
        response: OfflineAnswerOutcomes,
        body: t.Object({
          answers: t.Array(offlineAnswer, { maxItems: MAX_ANSWERS_PER_SYNC, error: `must hold at most ${MAX_ANSWERS_PER_SYNC} answers` }),
        }),
      })
  );
}
