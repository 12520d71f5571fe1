import { Elysia, t } from "elysia";
import { availableGptModels } from "../ai/available-models";
import { currentEmbeddingSettings, EMBEDDING_DIMENSIONS_MESSAGE, updateEmbeddingSettings } from "../ai/embedding-settings";
import { currentModelSettings, MODEL_NAME_MESSAGE, updateModelSettings } from "../ai/model-settings";
import type { AppContext } from "../context";
import { requireUser } from "./authentication";
import { core } from "./core";
import { EmbeddingSettings, GlobalAiModelSettings } from "./schemas/admin";

const modelName = t.Optional(t.Union([t.String({ error: MODEL_NAME_MESSAGE }), t.Null()], { error: MODEL_NAME_MESSAGE }));

/** The AI model settings (GlobalAiModelSettings), the embedding settings and the provider's chat models, for Manage Models. */
export function aiSettingsApi(ctx: AppContext) {
  return (
    new Elysia({ prefix: "/api" })
      .use(core(ctx))
      .get(
        "/settings/current-model-version",
        ({ auth }) => {
          requireUser(auth);
          return currentModelSettings(ctx);
        },
        { access: "signed-in", response: GlobalAiModelSettings },
      )
      .post("/settings/current-model-version", ({ auth, body }) => updateModelSettings(ctx, requireUser(auth), body), {
        access: "admin",
        response: GlobalAiModelSettings,
        body: t.Object(
          { questionGenerationModel: modelName, evaluationModel: modelName, othersModel: modelName },
          { additionalProperties: true },
        ),
      })
      .get("/ai/available-gpt-models", ({ auth }) => availableGptModels(ctx, requireUser(auth)), {
        access: "admin",
        response: t.Array(t.String()),
      })
      // What notes are embedded with (an Engram addition to Manage Models); a change re-embeds in the background.
      .get(
        "/settings/embedding",
        ({ auth }) => {
          requireUser(auth);
          return currentEmbeddingSettings(ctx);
        },
        { access: "signed-in", response: EmbeddingSettings },
      )
      .post("/settings/embedding", ({ auth, body }) => updateEmbeddingSettings(ctx, requireUser(auth), body), {
        access: "admin",
        response: EmbeddingSettings,
        body: t.Object(
          {
            embeddingModel: modelName,
            embeddingDimensions: t.Optional(
              t.Union([t.Number({ error: EMBEDDING_DIMENSIONS_MESSAGE }), t.Null()], { error: EMBEDDING_DIMENSIONS_MESSAGE }),
            ),
          },
          { additionalProperties: true },
        ),
      })
  );
}
