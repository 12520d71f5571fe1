import { Elysia, t } from "elysia";
import type { AppContext } from "../context";
import {
  AUDIO_TYPE_MESSAGE,
  audioToText,
  MAX_AUDIO_BYTES,
  MAX_PREVIOUS_DETAILS_LENGTH,
  MAX_PROCESSING_INSTRUCTIONS_LENGTH,
} from "../services/ai-assistant/audio-to-text";
import { generateImage, IMAGE_PROMPT_MESSAGE, MAX_IMAGE_PROMPT_LENGTH, suggestNoteTitle } from "../services/ai-assistant/note-actions";
import { notebookAiAssistant, recreateNotebookAssistant, updateNotebookAiAssistant } from "../services/ai-assistant/notebook-assistant";
import { requireUser } from "./authentication";
import { core } from "./core";
import { IdParam } from "./ids";
import { NotebookAiAssistant, NotebookAssistant, TextFromAudio } from "./schemas/admin";
import { AdditionalInstructionsBody } from "./schemas/bodies";

const textOfAtMost = (max: number) =>
  t.Optional(t.Union([t.String({ maxLength: max }), t.Null()], { error: `must be text of at most ${max} characters` }));

/** A dictated chunk, as multipart fields. The service tells the audio's container by its first bytes. */
const AudioChunkBody = t.Object({
  uploadAudioFile: t.File({ minSize: 1, maxSize: MAX_AUDIO_BYTES, error: AUDIO_TYPE_MESSAGE }),
  additionalProcessingInstructions: textOfAtMost(MAX_PROCESSING_INSTRUCTIONS_LENGTH),
  isMidSpeech: t.Optional(
    t.Union([t.Boolean(), t.Literal("true"), t.Literal("false"), t.Literal(""), t.Null()], { error: "must be true or false" }),
  ),
  previousNoteDetailsToAppendTo: textOfAtMost(MAX_PREVIOUS_DETAILS_LENGTH),
});

/**
 * One-shot AI actions on a note and a notebook's AI assistant settings: the notebook's
 * additional instructions, recreating its assistant record, title suggestion, image generation and
 * voice dictation's audio-to-text.
 */
export function aiNoteActionsApi(ctx: AppContext) {
  return new Elysia({ prefix: "/api" })
    .use(core(ctx))
    .get("/notebooks/:notebook/ai-assistant", ({ auth, params }) => notebookAiAssistant(ctx, requireUser(auth), params.notebook), {
      access: "signed-in",
      response: t.Union([NotebookAiAssistant, t.Null()]),
      params: t.Object({ notebook: IdParam }),
    })
    .patch(
      "/notebooks/:notebook/ai-assistant",
      ({ auth, params, body }) => updateNotebookAiAssistant(ctx, requireUser(auth), params.notebook, body),
      { access: "signed-in", response: NotebookAiAssistant, params: t.Object({ notebook: IdParam }), body: AdditionalInstructionsBody },
    )
    .post(
      "/ai/assistant/recreate-notebook/:notebook",
      ({ auth, params }) => recreateNotebookAssistant(ctx, requireUser(auth), params.notebook),
      { access: "signed-in", response: NotebookAssistant, params: t.Object({ notebook: IdParam }) },
    )
    .post("/ai/suggest-title/:note", ({ auth, params }) => suggestNoteTitle(ctx, requireUser(auth), params.note), {
      access: "signed-in",
      response: t.Object({ title: t.Union([t.String(), t.Null()]) }),
      params: t.Object({ note: IdParam }),
    })
    .post("/ai/generate-image", ({ auth, body }) => generateImage(ctx, requireUser(auth), body), {
      access: "signed-in",
      response: t.Object({ b64encoded: t.String() }),
      // The prompt itself, as a JSON string; its errors are reported on "prompt", as the form names it.
      body: t.String({ minLength: 1, maxLength: MAX_IMAGE_PROMPT_LENGTH, error: IMAGE_PROMPT_MESSAGE, errorKey: "prompt" }),
    })
    .post("/audio/audio-to-text", ({ auth, body }) => audioToText(ctx, requireUser(auth), body), {
      access: "signed-in",
      response: TextFromAudio,
      body: AudioChunkBody,
    });
}
