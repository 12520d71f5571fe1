/**
 * Multiple-choice questions as plain values: checking what a model answered, shuffling the
 * choices, and turning an evaluation into a contest result. No database, AI or clock here.
 */

import type { QuestionEvaluation } from "../../ai/question-evaluation";
import type { McqWithAnswer } from "../../ai/question-generation";
import type { Randomizer } from "../randomizer";

export const MIN_CHOICES = 2;
export const MAX_CHOICES = 10;

/** The contest advice when the evaluation confirms the question (the contest is rejected). */
export const LEGITIMATE_QUESTION_ADVICE = "This seems to be a legitimate question. Please answer it.";

/** QuestionContestResult of the reference's API contract. */
export interface QuestionContestResult {
  /** True when the question stands (the contest is rejected). */
  rejected: boolean;
  advice: string;
}

const isNonBlankString = (value: unknown): value is string => typeof value === "string" && value.trim() !== "";
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The question a model answered, when it is usable: a non-blank stem, 2 to 10 non-blank choices
 * and a correct index among them. Anything else (an empty stem means "not enough information")
 * gives undefined. A missing strictChoiceOrder counts as false.
 */
export function validMcq(raw: unknown): McqWithAnswer | undefined {
  if (!isRecord(raw) || !isRecord(raw.multipleChoicesQuestion)) return undefined;
  const { stem, choices } = raw.multipleChoicesQuestion;
  if (!isNonBlankString(stem)) return undefined;
  if (!Array.isArray(choices) || choices.length < MIN_CHOICES || choices.length > MAX_CHOICES) return undefined;
  if (!choices.every(isNonBlankString)) return undefined;
  const index = raw.correctChoiceIndex;
  if (typeof index !== "number" || !Number.isInteger(index) || index < 0 || index >= choices.length) return undefined;
  return {
    multipleChoicesQuestion: { stem, choices: [...choices] },
    correctChoiceIndex: index,
    strictChoiceOrder: raw.strictChoiceOrder === true,
  };
}

/**
 * The question with its choices shuffled by the app's randomizer, the correct index following
 * its choice. Unchanged when the order is strict. The testability randomizer `first` keeps the
 * order and `last` reverses it, so tests can tell a shuffle happened.
 */
export function shuffleChoices(mcq: McqWithAnswer, randomizer: Pick<Randomizer, "mode" | "shuffle">): McqWithAnswer {
  if (mcq.strictChoiceOrder) return mcq;
  const positions = mcq.multipleChoicesQuestion.choices.map((_, i) => i);
  const order = randomizer.shuffle(positions);
  return {
    multipleChoicesQuestion: {
      stem: mcq.multipleChoicesQuestion.stem,
      choices: order.map((i) => mcq.multipleChoicesQuestion.choices[i]!),
    },
    correctChoiceIndex: order.indexOf(mcq.correctChoiceIndex),
    strictChoiceOrder: false,
  };
}

/**
 * The evaluation a model answered, when it is usable (feasibleQuestion must be a boolean).
 * Non-integer entries of correctChoices are dropped; missing advice is "".
 */
export function validEvaluation(raw: unknown): QuestionEvaluation | undefined {
  if (!isRecord(raw) || typeof raw.feasibleQuestion !== "boolean") return undefined;
  const correctChoices = Array.isArray(raw.correctChoices) ? raw.correctChoices.filter((i): i is number => Number.isInteger(i)) : [];
  return {
    correctChoices,
    feasibleQuestion: raw.feasibleQuestion,
    improvementAdvices: typeof raw.improvementAdvices === "string" ? raw.improvementAdvices : "",
  };
}

/**
 * The contest result of an evaluation. The question stands (rejected)
 * only when it is feasible and its one correct choice is exactly the stored one. Otherwise the
 * advice is the evaluator's, after a paragraph on the disputed answer when the correct choices
 * differ. Indices outside the choices are left out of that paragraph.
 */
export function contestResult(evaluation: QuestionEvaluation, choices: string[], correctAnswerIndex: number): QuestionContestResult {
  const { correctChoices } = evaluation;
  const sameAnswer = correctChoices.length === 1 && correctChoices[0] === correctAnswerIndex;
  if (evaluation.feasibleQuestion && sameAnswer) return { rejected: true, advice: LEGITIMATE_QUESTION_ADVICE };
  const choiceLabel = (i: number) => `${i} ("${choices[i] ?? ""}")`;
  const disputed =
    correctChoices
      .filter((i) => i >= 0 && i < choices.length)
      .map(choiceLabel)
      .join(", ") || "none";
  const prefix = sameAnswer
    ? ""
    : `Unclear answer detected. The original question assume one correct choice index (0-based) of ${choiceLabel(correctAnswerIndex)}. ` +
      `however, the re-evaluation of the question shows that ${disputed} are correct to the question.\n` +
      "Please make sure the correct answer is correct and unique.\n\n";
  return { rejected: false, advice: prefix + evaluation.improvementAdvices };
}
