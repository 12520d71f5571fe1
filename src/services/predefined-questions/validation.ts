/**
 * The rules of a question added by hand (spec 5 "Add question", 9): a non-blank stem, 2 to 10
 * non-blank choices and a correct index among them. The form enforces the same rules; the server
 * answers a 400 with a message per field (dotted keys) so a client that skips the form learns why.
 */
import type { MultipleChoicesQuestion } from "../../ai/question-generation";
import { ValidationError } from "../errors";
import { MAX_CHOICES, MIN_CHOICES } from "../recall-prompts/mcq";
import { stripControlCharacters } from "../text-input";

export { MAX_CHOICES, MIN_CHOICES };
/** Longest stem, in characters (a question, not a note: Markdown with a short context). */
export const MAX_STEM_LENGTH = 2000;
/** Longest choice, in characters. */
export const MAX_CHOICE_LENGTH = 500;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** A checked question: trimmed stem and choices, and the correct index. */
export interface QuestionInput {
  multipleChoicesQuestion: MultipleChoicesQuestion;
  correctAnswerIndex: number;
}

function checkText(errors: Record<string, string>, key: string, value: unknown, max: number, required: boolean): string {
  if (value === undefined || value === null) {
    if (required) errors[key] = "must not be blank";
    return "";
  }
  if (typeof value !== "string") {
    errors[key] = "must be a text";
    return "";
  }
  const text = stripControlCharacters(value).trim();
  if (required && text === "") errors[key] = "must not be blank";
  else if (text.length > max) errors[key] = `must be at most ${max} characters`;
  return text;
}

/** The body of POST /{note}/note-questions, checked; a ValidationError with every failing field otherwise. */
export function validateQuestion(body: unknown): QuestionInput {
  const errors: Record<string, string> = {};
  const input = isRecord(body) ? body : {};
  const mcq = input.multipleChoicesQuestion;
  let stem = "";
  let choices: string[] = [];
  if (!isRecord(mcq)) {
    errors.multipleChoicesQuestion = "must be a question with a stem and choices";
  } else {
    stem = checkText(errors, "multipleChoicesQuestion.stem", mcq.stem, MAX_STEM_LENGTH, true);
    if (!Array.isArray(mcq.choices) || mcq.choices.length < MIN_CHOICES || mcq.choices.length > MAX_CHOICES) {
      errors["multipleChoicesQuestion.choices"] = `must have ${MIN_CHOICES} to ${MAX_CHOICES} choices`;
    } else {
      choices = mcq.choices.map((choice, i) => checkText(errors, `multipleChoicesQuestion.choices.${i}`, choice, MAX_CHOICE_LENGTH, true));
    }
  }
  const index = input.correctAnswerIndex;
  const count = choices.length;
  if (typeof index !== "number" || !Number.isInteger(index) || index < 0 || (count > 0 && index >= count)) {
    errors.correctAnswerIndex =
      count > 0 ? `must be the index of one of the choices (0 to ${count - 1})` : "must be the index of one of the choices";
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  return { multipleChoicesQuestion: { stem, choices }, correctAnswerIndex: index as number };
}

/**
 * The question sent to be refined: as typed so far, so blanks are allowed, but something must be
 * there (the form enables Refine only then) and the usual limits hold.
 */
export function validateDraft(body: unknown): MultipleChoicesQuestion {
  const errors: Record<string, string> = {};
  const input = isRecord(body) ? body : {};
  const mcq = input.multipleChoicesQuestion;
  if (!isRecord(mcq)) throw new ValidationError({ multipleChoicesQuestion: "must be a question with a stem and choices" });
  const stem = checkText(errors, "multipleChoicesQuestion.stem", mcq.stem, MAX_STEM_LENGTH, false);
  let choices: string[] = [];
  if (mcq.choices !== undefined && (!Array.isArray(mcq.choices) || mcq.choices.length > MAX_CHOICES)) {
    errors["multipleChoicesQuestion.choices"] = `must have at most ${MAX_CHOICES} choices`;
  } else if (Array.isArray(mcq.choices)) {
    choices = mcq.choices.map((choice, i) => checkText(errors, `multipleChoicesQuestion.choices.${i}`, choice, MAX_CHOICE_LENGTH, false));
  }
  if (Object.keys(errors).length === 0 && stem === "" && choices.every((choice) => choice === "")) {
    errors.multipleChoicesQuestion = "must have a stem or a choice to refine";
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  return { stem, choices };
}
