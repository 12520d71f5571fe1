import type { AppContext } from "../context";
import { modelFor } from "./model-settings";
import { contextMessages, type MultipleChoicesQuestion, type QuestionContext } from "./question-generation";
import { requestStructuredJson } from "./structured-output";

/** What the evaluation model answers about a question. */
export interface QuestionEvaluation {
  /** 0-based indices of every choice the evaluator finds correct. */
  correctChoices: number[];
  feasibleQuestion: boolean;
  /** Empty when the question is feasible. */
  improvementAdvices: string;
}

export const EVALUATION_SCHEMA_NAME = "evaluate_question";

export const QUESTION_EVALUATION_SCHEMA = {
  type: "object",
  additionalProperties: false,
  required: ["correctChoices", "feasibleQuestion", "improvementAdvices"],
  properties: {
    correctChoices: {
      type: "array",
      items: { type: "integer" },
      description: "The 0-based indices of all the choices that are correct answers to the question.",
    },
    feasibleQuestion: { type: "boolean", description: "True when the question meets every criterion." },
    improvementAdvices: {
      type: "string",
      description: "When the question is not feasible: what is wrong and how to improve it. Empty otherwise.",
    },
  },
} as const;

/** The evaluation instructions, then the question. */
export function evaluationPrompt(question: MultipleChoicesQuestion): string {
  return `You evaluate a multiple-choice question that tests the memory of a user of a personal knowledge management system. The user does not know which note is the focus note.

Criteria:
1. Try to pick ALL the correct choices.
2. The question can be answered without being told the focus note's title.
3. The question is logically consistent with the notes above.
4. The question is about the focus note itself, not only about related notes.
5. The question is neither trivial nor guessable.

If any criterion fails, set feasibleQuestion to false and explain the problem and how to fix it in improvementAdvices. If the question is far off, suggest a completely new one.

The question:
${JSON.stringify({ stem: question.stem, choices: question.choices })}`;
}

/**
 * Asks the evaluation model to check a question about the focus note described by
 * `noteContext`. The correct index is not sent. Answers the model's raw JSON (validate it), or
 * undefined when it answered nothing usable. Throws ServiceUnavailableError (see
 * requestStructuredJson).
 */
export async function askForEvaluation(ctx: AppContext, noteContext: QuestionContext, question: MultipleChoicesQuestion): Promise<unknown> {
  return requestStructuredJson(ctx, {
    model: await modelFor(ctx, "evaluationModel"),
    messages: [...contextMessages(noteContext), { role: "user", content: evaluationPrompt(question) }],
    schemaName: EVALUATION_SCHEMA_NAME,
    schema: QUESTION_EVALUATION_SCHEMA,
  });
}
