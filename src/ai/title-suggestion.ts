import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import type { AppContext } from "../context";
import { aiClient } from "./client";
import { modelFor } from "./model-settings";
import { AI_REQUEST_TIMEOUT_MS, asProviderFailure } from "./structured-output";

export const SUGGEST_TITLE_TOOL = "suggest_note_title";
/** Longest title a note takes. */
export const MAX_SUGGESTED_TITLE_LENGTH = 150;

/** The function the model calls with its suggestion. */
export const SUGGEST_TITLE_FUNCTION = {
  name: SUGGEST_TITLE_TOOL,
  description:
    "Suggest a concise title for the note of focus: a word, a phrase or at most one sentence naming its atomic concept, " +
    "specific within its contextual path without repeating it. Keep the existing title if it is already good.",
  parameters: {
    type: "object",
    additionalProperties: false,
    required: ["newTitle"],
    properties: { newTitle: { type: "string", description: "The suggested title." } },
  },
} as const;

export const SUGGEST_TITLE_REQUEST =
  "Please suggest a better title for the note by calling the function suggest_note_title. Keep the existing title if it is already good.";

export interface TitleRequest {
  /** The assistant's instructions (PKM instruction and default additional instructions). */
  instructions: string;
  /** The single-note description (§2.3). */
  noteDescription: string;
  /** The notebook's additional instructions ("" for none). */
  notebookInstructions: string;
}

/**
 * One Chat Completions call with the suggest_note_title function (docs/decisions.md, decision 11: no Assistants API),
 * on the Others model. Answers the suggested title (trimmed, at most 150 characters), or null when
 * the model called no function or gave no usable title. Throws ServiceUnavailableError when AI is
 * not configured or the provider fails.
 */
export async function askForTitle(ctx: AppContext, request: TitleRequest): Promise<string | null> {
  const client = aiClient(ctx);
  const notebookInstructions = request.notebookInstructions.trim();
  const messages: ChatCompletionMessageParam[] = [
    { role: "system", content: request.instructions },
    { role: "system", content: request.noteDescription },
    { role: "user", content: notebookInstructions ? `${notebookInstructions}\n\n${SUGGEST_TITLE_REQUEST}` : SUGGEST_TITLE_REQUEST },
  ];
  let argumentsJson: string | undefined;
  try {
    const completion = await client.chat.completions.create(
      {
        model: await modelFor(ctx, "othersModel"),
        messages,
        tools: [{ type: "function", function: SUGGEST_TITLE_FUNCTION }],
        tool_choice: { type: "function", function: { name: SUGGEST_TITLE_TOOL } },
      },
      { timeout: AI_REQUEST_TIMEOUT_MS, maxRetries: 0 },
    );
    const call = completion?.choices?.[0]?.message?.tool_calls?.find(
      (c) => c.type === "function" && c.function.name === SUGGEST_TITLE_TOOL,
    );
    argumentsJson = call?.type === "function" ? call.function.arguments : undefined;
  } catch (error) {
    throw asProviderFailure(error);
  }
  if (!argumentsJson) return null;
  try {
    const { newTitle } = JSON.parse(argumentsJson) as { newTitle?: unknown };
    if (typeof newTitle !== "string") return null;
    const title = newTitle.trim().slice(0, MAX_SUGGESTED_TITLE_LENGTH);
    return title || null;
  } catch {
    return null;
  }
}
