import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import type { AppContext } from "../context";
import { modelFor } from "./model-settings";
import { requestStructuredJson } from "./structured-output";

/** MultipleChoicesQuestion of the reference's API contract. */
export interface MultipleChoicesQuestion {
  stem: string;
  choices: string[];
}

/** What the model answers for a question. */
export interface McqWithAnswer {
  multipleChoicesQuestion: MultipleChoicesQuestion;
  /** 0-based. */
  correctChoiceIndex: number;
  /** True when the choices must keep their order (e.g. "none of the above"). */
  strictChoiceOrder: boolean;
}

/**
 * What the AI is told about a note for its questions: the graph description, and the notebook's
 * additional instructions (an extra system message, left out when blank).
 */
export interface QuestionContext {
  description: string;
  additionalInstructions?: string;
}

/** The system messages of a question context. */
export function contextMessages(context: QuestionContext): ChatCompletionMessageParam[] {
  const messages: ChatCompletionMessageParam[] = [{ role: "system", content: context.description }];
  const extra = context.additionalInstructions?.trim();
  if (extra) messages.push({ role: "system", content: `Additional instruction:\n${extra}` });
  return messages;
}

export const QUESTION_SCHEMA_NAME = "ask_single_answer_multiple_choice_question";

/** The strict JSON schema of McqWithAnswer (all fields required, nothing else allowed). */
export const MCQ_WITH_ANSWER_SCHEMA = {
  type: "object",
  additionalProperties: false,
  required: ["multipleChoicesQuestion", "correctChoiceIndex", "strictChoiceOrder"],
  properties: {
    multipleChoicesQuestion: {
      type: "object",
      additionalProperties: false,
      required: ["stem", "choices"],
      properties: {
        stem: {
          type: "string",
          description: "The stem of the question. Markdown is allowed; give the context the question needs to stand alone.",
        },
        choices: {
          type: "array",
          items: { type: "string" },
          description: "The choices. Markdown is allowed. Exactly one of them is correct.",
        },
      },
    },
    correctChoiceIndex: { type: "integer", description: "The 0-based index of the correct choice." },
    strictChoiceOrder: {
      type: "boolean",
      description: "True when the choices must not be shuffled, e.g. when one of them is 'none of the above'.",
    },
  },
} as const;

/** The question-design instructions. */
export const QUESTION_INSTRUCTION = `You are a question designer testing the user's memory and understanding of their focus note. Notes are atomic and hierarchical; a note may link to another one (a reification: subject, predicate, object).

Guidelines:
1. Ask exactly one question, only about the focus note: its title, its subject-predicate-object if it is a link, and its details.
2. Use the related notes to enrich the question and to find plausible distractors. Do not assume the focus note is the only specialisation of a general concept: there must never be more than one correct answer.
3. Do not name the focus note's title in the stem. It may appear among the choices.
4. Give 2 to 3 choices with exactly one correct answer. Vary the choice lengths so that the correct one is not always the longest. Use Markdown in the stem and the choices where it helps.
5. The question must be self-contained: avoid vague references such as "this concept", and never say "this note".
6. If there is not enough information for a good question, leave the stem empty.
7. Make sure the correct choice index is accurate, and that the distractors are plausible but clearly wrong.
8. Always answer in the requested format, exactly once, even when you cannot ask a question.`;

/** The user message that asks to improve a question the check found not feasible (§3.5). */
export function regenerateMessage(previous: McqWithAnswer, advice: string): string {
  return [
    "Previously generated non-feasible question:",
    JSON.stringify(previous, null, 2),
    "",
    "Improvement advice:",
    advice,
    "",
    "Please regenerate or refine the question based on the above advice.",
  ].join("\n");
}

/**
 * Asks the question-generation model for one question about the focus note described by
 * `noteContext` (the graph description). With `previous`, asks for an improved version of that
 * question following the advice. Answers the model's raw JSON (validate it: it may be anything),
 * or undefined when it answered nothing usable. Throws ServiceUnavailableError (see
 * requestStructuredJson).
 */
export async function askForQuestion(
  ctx: AppContext,
  noteContext: QuestionContext,
  previous?: { question: McqWithAnswer; advice: string },
): Promise<unknown> {
  const messages: ChatCompletionMessageParam[] = [...contextMessages(noteContext), { role: "user", content: QUESTION_INSTRUCTION }];
  if (previous) messages.push({ role: "user", content: regenerateMessage(previous.question, previous.advice) });
  return requestStructuredJson(ctx, {
    model: await modelFor(ctx, "questionGenerationModel"),
    messages,
    schemaName: QUESTION_SCHEMA_NAME,
    schema: MCQ_WITH_ANSWER_SCHEMA,
  });
}
