import { Elysia, t } from "elysia";
import type { AppContext } from "../context";
import { BadRequestError } from "../services/errors";
import { injectNotes } from "../services/testability/inject-notes";
import { linkNotes } from "../services/testability/link-notes";
import { injectPredefinedQuestions } from "../services/testability/predefined-questions";
import { cleanDatabaseAndResetTestabilitySettings } from "../services/testability/reset";
import { injectCircle, shareNotebookOfNoteToBazaar } from "../services/testability/sharing";
import { injectSuggestedQuestions } from "../services/testability/suggested-questions";
import { updateUserSettings } from "../services/users";
import { requireUser } from "./authentication";
import { core } from "./core";
import { PredefinedQuestion, SuggestedQuestionForFineTuning } from "./schemas/admin";
import { Integer } from "./schemas/integer";

/** What a hook answers when it has nothing to say: "OK", as the reference's hooks do. */
const Ok = t.String();
/** What the reference's time and randomizer hooks answer: an empty list. */
const EmptyList = t.Array(t.Unknown(), { maxItems: 0 });

/** Values arrive as JSON strings or numbers in the reference's test suites. */
const stringOrNumber = t.Union([t.String(), t.Number()]);

/**
 * The test hooks under /api/testability (non-production only: server.ts does not mount this
 * plugin in production, so every path answers 404 there).
 */
export function testabilityApi(ctx: AppContext) {
  return new Elysia({ prefix: "/api/testability" })
    .use(core(ctx))
    .post(
      "/clean_db_and_reset_testability_settings",
      async () => {
        await cleanDatabaseAndResetTestabilitySettings(ctx);
        return "OK";
      },
      { access: "public", response: Ok },
    )
    .post(
      "/time_travel",
      ({ body }) => {
        let instant: Date;
        try {
          const value = JSON.parse(body.travel_to);
          instant = new Date(typeof value === "string" ? value : Number.NaN);
        } catch {
          instant = new Date(body.travel_to);
        }
        if (Number.isNaN(instant.getTime())) throw new BadRequestError(`Cannot travel to ${body.travel_to}`);
        ctx.clock.travelTo(instant);
        return [];
      },
      { access: "public", response: EmptyList, body: t.Object({ travel_to: t.String() }) },
    )
    .post(
      "/time_travel_relative_to_now",
      ({ body }) => {
        const hours = Number(body.hours);
        if (!Number.isFinite(hours)) throw new BadRequestError("hours must be a number");
        ctx.clock.travelRelativeToNow(hours);
        return [];
      },
      { access: "public", response: EmptyList, body: t.Object({ hours: stringOrNumber }) },
    )
    .post(
      "/randomizer",
      ({ body }) => {
        ctx.randomizer.set(body.choose, Number(body.seed ?? 0));
        return [];
      },
      {
        access: "public",
        response: EmptyList,
        body: t.Object({
          choose: t.Union([t.Literal("first"), t.Literal("last"), t.Literal("seed")]),
          seed: t.Optional(stringOrNumber),
        }),
      },
    )
    .get("/feature_toggle", () => ctx.featureToggle.enabled, { access: "public", response: t.Boolean() })
    .post(
      "/feature_toggle",
      ({ body }) => {
        ctx.featureToggle.enabled = body.enabled === true || body.enabled === "true";
        return [];
      },
      { access: "public", response: EmptyList, body: t.Object({ enabled: t.Union([t.Boolean(), t.String()]) }) },
    )
    .post(
      "/replace_service_url",
      ({ body }) => {
        if (body.openAi !== undefined) ctx.serviceUrls.openAi = body.openAi || ctx.config.openAiBaseUrl;
        if (body.wikidata !== undefined) ctx.serviceUrls.wikidata = body.wikidata || ctx.config.wikidataBaseUrl;
        return { openAi: ctx.serviceUrls.openAi, wikidata: ctx.serviceUrls.wikidata };
      },
      {
        access: "public",
        response: t.Object({ openAi: t.String(), wikidata: t.String() }),
        body: t.Object({ openAi: t.Optional(t.String()), wikidata: t.Optional(t.String()) }),
      },
    )
    .post(
      "/trigger_exception",
      () => {
        // Named like the reference's, so its failure report reads like one.
        const error = new Error("for failure report");
        error.name = "java.lang.RuntimeException";
        throw error;
      },
      // It never answers: the failure is the point.
      { access: "public", response: Ok },
    )
    .post("/inject_notes", ({ auth, body }) => injectNotes(ctx, auth.user && requireUser(auth), body), {
      access: "public",
      // Each note's title → its id.
      response: t.Record(t.String(), Integer()),
      body: t.Object({
        externalIdentifier: t.Optional(t.Union([t.String(), t.Null()])),
        circleName: t.Optional(t.Union([t.String(), t.Null()])),
        noteTestData: t.Array(
          t.Object(
            {
              Title: t.String(),
              Details: t.Optional(t.Union([t.String(), t.Null()])),
              "Parent Title": t.Optional(t.Union([t.String(), t.Null()])),
              "Skip Memory Tracking": t.Optional(t.Union([t.String(), t.Boolean(), t.Null()])),
              "Image Url": t.Optional(t.Union([t.String(), t.Null()])),
              "Image Mask": t.Optional(t.Union([t.String(), t.Null()])),
              "Wikidata Id": t.Optional(t.Union([t.String(), t.Null()])),
            },
            { additionalProperties: true },
          ),
        ),
      }),
    })
    .post("/inject-predefined-questions", ({ body }) => injectPredefinedQuestions(ctx, body), {
      access: "public",
      response: t.Array(PredefinedQuestion),
      body: t.Object({
        notebookTitle: t.String(),
        notebookCertifiable: t.Optional(t.Union([t.Boolean(), t.Null()])),
        predefinedQuestionTestData: t.Array(
          t.Object(
            {
              "Note Title": t.String(),
              Question: t.String(),
              Answer: t.String(),
              "One Wrong Choice": t.String(),
              Approved: t.Optional(t.Union([t.Boolean(), t.String(), t.Null()])),
            },
            { additionalProperties: true },
          ),
        ),
      }),
    })
    .post("/inject_suggested_questions", ({ body }) => injectSuggestedQuestions(ctx, body.examples), {
      access: "public",
      response: t.Array(SuggestedQuestionForFineTuning),
      body: t.Object({
        examples: t.Array(
          t.Object(
            {
              positiveFeedback: t.Boolean(),
              preservedNoteContent: t.String(),
              realCorrectAnswers: t.Optional(t.Union([t.String(), t.Null()])),
              comment: t.Optional(t.Union([t.String(), t.Null()])),
              preservedQuestion: t.Object({
                multipleChoicesQuestion: t.Object({ stem: t.String(), choices: t.Array(t.String()) }),
                correctChoiceIndex: t.Integer(),
                strictChoiceOrder: t.Optional(t.Union([t.Boolean(), t.Null()])),
              }),
            },
            { additionalProperties: true },
          ),
        ),
      }),
    })
    .post("/share_to_bazaar", ({ body }) => shareNotebookOfNoteToBazaar(ctx, body.noteTopology), {
      access: "public",
      response: Ok,
      body: t.Object({ noteTopology: t.String() }),
    })
    .post("/inject_circle", ({ body }) => injectCircle(ctx, body.circleName, body.members), {
      access: "public",
      response: Ok,
      body: t.Object({ circleName: t.String(), members: t.String() }),
    })
    .post("/link_notes", ({ body }) => linkNotes(ctx, Number(body.source_id), Number(body.target_id), body.type), {
      access: "public",
      response: Ok,
      body: t.Object({ type: t.String(), source_id: stringOrNumber, target_id: stringOrNumber }),
    })
    .post(
      "/update_current_user",
      async ({ auth, body }) => {
        const current = requireUser(auth);
        const daily = body.daily_assimilation_count;
        await updateUserSettings(ctx, current, current.user.id, {
          name: current.user.name,
          dailyAssimilationCount: daily === undefined ? undefined : Number(daily),
          spaceIntervals: body.space_intervals === undefined ? undefined : String(body.space_intervals),
        });
        return "OK";
      },
      {
        access: "public",
        response: Ok,
        body: t.Object({
          daily_assimilation_count: t.Optional(stringOrNumber),
          space_intervals: t.Optional(t.String()),
        }),
      },
    );
}
