import type { AppContext } from "../context";
import { modelFor } from "./model-settings";
import { MCQ_WITH_ANSWER_SCHEMA, type MultipleChoicesQuestion } from "./question-generation";
import { requestStructuredJson } from "./structured-output";

export const REFINE_SCHEMA_NAME = "refine_question";

/** The "PKM" system instruction. */
export const PKM_INSTRUCTION =
  "This is a personal knowledge management system, consisting of notes with a title and a body of details, organised in a hierarchy; each note captures an atomic concept.";

/** The refine instructions, then the question as typed so far. */
export function refinePrompt(question: MultipleChoicesQuestion): string {
  return `You are a Memory Assistant helping the user review and recall the note of current focus. The user is writing a multiple-choice question about it; the question below may be incomplete or wrong.

Guidelines:
1. Only the top of the note's contextual path is visible to the person answering, so the question must stand on its own.
2. Give 2 to 4 choices with exactly one correct answer.
3. Vary the choice lengths so that the correct one is not always the longest.
4. Produce a better question than the one below, and fix its grammar.

The question:
${JSON.stringify({ stem: question.stem, choices: question.choices })}`;
}

/**
 * Asks the question-generation model to improve a question about the note described by
 * `noteDescription` (the single-note description). Answers the model's raw JSON (validate it),
 * or undefined when it answered nothing usable. Throws ServiceUnavailableError (see
 * requestStructuredJson).
 */
export async function askForRefinement(ctx: AppContext, noteDescription: string, question: MultipleChoicesQuestion): Promise<unknown> {
  return requestStructuredJson(ctx, {
    model: await modelFor(ctx, "questionGenerationModel"),
    messages: [
      { role: "system", content: PKM_INSTRUCTION },
      { role: "system", content: noteDescription },
      { role: "user", content: refinePrompt(question) },
    ],
    schemaName: REFINE_SCHEMA_NAME,
    schema: MCQ_WITH_ANSWER_SCHEMA,
  });
}
