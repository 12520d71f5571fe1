import type { ChatCompletionTool } from "openai/resources/chat/completions";
import { MCQ_WITH_ANSWER_SCHEMA } from "../../../ai/question-generation";
import { ValidationError } from "../../errors";
import type { ToolCall } from "./events";

/** Longest result text accepted for one tool call. */
export const MAX_TOOL_RESULT_LENGTH = 10_000;

/** The assistant's function tools, strict like the reference's. */
export const CHAT_TOOLS: ChatCompletionTool[] = [
  {
    type: "function",
    function: {
      name: "complete_note_details",
      description: "Text completion for the details of the note of focus",
      strict: true,
      parameters: {
        type: "object",
        additionalProperties: false,
        required: ["deleteFromEnd", "completion"],
        properties: {
          deleteFromEnd: {
            type: "integer",
            description:
              "Characters (Unicode code points) to delete from the end of the existing details before appending, e.g. trailing whitespace or a partial word; 0 deletes nothing; more than the length deletes everything.",
          },
          completion: {
            type: "string",
            description:
              "Markdown appended after the deletion. Start with any whitespace or newline needed, and with the full word if a partial word was deleted.",
          },
        },
      },
    },
  },
  {
    type: "function",
    function: {
      name: "suggest_note_title",
      description:
        "Suggest a concise title (a word, a phrase or at most one sentence) for the atomic concept of the note of focus, specific within its contextual path without repeating it. Keep the existing title if it is fine.",
      strict: true,
      parameters: {
        type: "object",
        additionalProperties: false,
        required: ["newTitle"],
        properties: { newTitle: { type: "string", description: "The new title of the note of current focus, at most 150 characters." } },
      },
    },
  },
  {
    type: "function",
    function: {
      name: "ask_single_answer_multiple_choice_question",
      description: "Ask the user a single-answer multiple-choice question about the note of focus.",
      strict: true,
      parameters: MCQ_WITH_ANSWER_SCHEMA as unknown as Record<string, unknown>,
    },
  },
];

/** Checks the {toolCallId: {status} | result} body against the run's pending calls; answers each call's result text. */
export function toolResults(body: unknown, pending: ToolCall[]): Map<string, string> {
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw new ValidationError({ results: "must map each tool call id to its result" });
  const given = body as Record<string, unknown>;
  const errors: Record<string, string> = {};
  const results = new Map<string, string>();
  for (const key of Object.keys(given)) {
    if (!pending.some((call) => call.id === key)) errors[key.slice(0, 100)] = "is not a tool call of this run";
  }
  for (const call of pending) {
    const value = given[call.id];
    const text = value === undefined || value === null ? undefined : typeof value === "string" ? value : JSON.stringify(value);
    if (text === undefined) errors[call.id] = "needs a result";
    else if (text.length > MAX_TOOL_RESULT_LENGTH) errors[call.id] = `size must be at most ${MAX_TOOL_RESULT_LENGTH}`;
    else results.set(call.id, text);
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return results;
}
