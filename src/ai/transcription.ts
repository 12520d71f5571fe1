import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import type { AppContext } from "../context";
import { aiClient } from "./client";
import { modelFor } from "./model-settings";
import { readGlobalSetting } from "./settings";
import { AI_REQUEST_TIMEOUT_MS, asProviderFailure, requestStructuredJson } from "./structured-output";

/** The transcription model (setting "transcriptionModel", docs/decisions.md, decision 14). */
export const DEFAULT_TRANSCRIPTION_MODEL = "whisper-1";
export const transcriptionModel = async (ctx: AppContext) =>
  (await readGlobalSetting(ctx, "transcriptionModel"))?.trim() || DEFAULT_TRANSCRIPTION_MODEL;

/**
 * The audio as SRT subtitles through the OpenAI-compatible audio API (`audio/transcriptions`,
 * response_format srt). Throws ServiceUnavailableError when AI is not configured or the provider fails.
 */
export async function transcribeToSrt(ctx: AppContext, file: File): Promise<string> {
  const client = aiClient(ctx);
  try {
    const answer: unknown = await client.audio.transcriptions.create(
      { file, model: await transcriptionModel(ctx), response_format: "srt" },
      { timeout: AI_REQUEST_TIMEOUT_MS, maxRetries: 0 },
    );
    // SRT comes back as text; a server answering JSON anyway gives {text}.
    if (typeof answer === "string") return answer;
    return typeof (answer as { text?: unknown } | null)?.text === "string" ? (answer as { text: string }).text : "";
  } catch (error) {
    throw asProviderFailure(error);
  }
}

export const DETAILS_COMPLETION_SCHEMA_NAME = "complete_note_details";

/** NoteDetailsCompletion: what to delete from the end of the details, then what to append. */
export const NOTE_DETAILS_COMPLETION_SCHEMA = {
  type: "object",
  additionalProperties: false,
  required: ["deleteFromEnd", "completion"],
  properties: {
    deleteFromEnd: {
      type: "integer",
      description: "How many characters to delete from the end of the existing details first (0 for none).",
    },
    completion: { type: "string", description: "The text to append to the details." },
  },
} as const;

/** The transcription instructions. */
export const TRANSCRIPT_PROMPT = `Turn the SRT transcript below into coherent, punctuated Markdown paragraphs.
- Your output is appended to the note's existing details: start with a space or a new line when needed.
- Do not translate unless asked. Do not interpret or use reported speech: write what was said.
- Leave unclear parts as they are, and add nothing that is not in the transcript.
- The transcript may be cut off, so end without a trailing new line or space.
- To fix the end of the existing details (e.g. a sentence the transcript continues), delete that many characters with deleteFromEnd.
--------
`;

/**
 * Asks the Others model to clean up an SRT transcript as an append to the note's details.
 * Answers the raw JSON (validate it), or undefined when the model answered nothing usable.
 */
export async function askForDetailsFromTranscript(
  ctx: AppContext,
  input: { srt: string; additionalInstructions: string; previousDetails: string },
): Promise<unknown> {
  const messages: ChatCompletionMessageParam[] = [];
  if (input.additionalInstructions) messages.push({ role: "system", content: `Additional instruction:\n${input.additionalInstructions}` });
  if (input.previousDetails) {
    messages.push({
      role: "user",
      content: `The previous note details to append to (JSON):\n${JSON.stringify({ previousNoteDetailsToAppendTo: input.previousDetails })}`,
    });
  }
  messages.push({ role: "user", content: TRANSCRIPT_PROMPT + input.srt });
  return requestStructuredJson(ctx, {
    model: await modelFor(ctx, "othersModel"),
    messages,
    schemaName: DETAILS_COMPLETION_SCHEMA_NAME,
    schema: NOTE_DETAILS_COMPLETION_SCHEMA,
  });
}
