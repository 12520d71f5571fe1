/**
 * The AI buttons of the add-question form: "Generate by AI" and
 * "Refine". Nothing is saved: the question goes back into the form for the person to check and
 * submit. Without a provider both answer 503 "AI is not configured" (after the permission check).
 */
import type { MultipleChoicesQuestion } from "../../ai/question-generation";
import { askForRefinement } from "../../ai/question-refinement";
import type { AppContext } from "../../context";
import { questionContext } from "../recall-prompts/question-context";
import { generateQuestion } from "../recall-prompts/question-maker";
import type { CurrentUser } from "../users";
import { noteDescription } from "./note-description";
import { editableNote } from "./note-questions";
import { type PredefinedQuestionJson, presentUnsavedQuestion } from "./presenters";
import { MAX_CHOICE_LENGTH, MAX_CHOICES, MAX_STEM_LENGTH, MIN_CHOICES, validateDraft } from "./validation";

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const text = (value: unknown, max: number) => (typeof value === "string" ? value.trim().slice(0, max) : "");

/**
 * POST /predefined-questions/generate-question-without-save?note=: a question about the note from
 * its graph, choices shuffled, not saved; null (an empty body) when the model gave no usable one.
 */
export async function generateQuestionWithoutSave(
  ctx: AppContext,
  current: CurrentUser,
  noteId: number,
): Promise<PredefinedQuestionJson | null> {
  const { note } = await editableNote(ctx, current, noteId);
  const mcq = await generateQuestion(ctx, await questionContext(ctx, note.id, current));
  return mcq ? presentUnsavedQuestion(mcq.multipleChoicesQuestion, mcq.correctChoiceIndex) : null;
}

/**
 * The model's refinement made fit for the form: a refinement is a draft the person edits, so an
 * imperfect one (a blank choice, one choice) is kept, padded to two choices and cut to ten, the
 * correct index moved into range. Null when it is not a question at all.
 */
export function refinementForForm(raw: unknown): PredefinedQuestionJson | null {
  if (!isRecord(raw) || !isRecord(raw.multipleChoicesQuestion)) return null;
  const { stem, choices } = raw.multipleChoicesQuestion;
  const list = (Array.isArray(choices) ? choices : []).slice(0, MAX_CHOICES).map((choice) => text(choice, MAX_CHOICE_LENGTH));
  while (list.length < MIN_CHOICES) list.push("");
  const question: MultipleChoicesQuestion = { stem: text(stem, MAX_STEM_LENGTH), choices: list };
  if (!question.stem && list.every((choice) => !choice)) return null;
  const index = raw.correctChoiceIndex;
  const correct = typeof index === "number" && Number.isInteger(index) && index >= 0 && index < list.length ? index : 0;
  return presentUnsavedQuestion(question, correct);
}

/**
 * POST /predefined-questions/{note}/refine-question: the question as typed so far, improved by
 * the question-generation model with the note's description; not saved. Null when the model
 * answered nothing usable.
 */
export async function refineQuestion(
  ctx: AppContext,
  current: CurrentUser,
  noteId: number,
  body: unknown,
): Promise<PredefinedQuestionJson | null> {
  const { note } = await editableNote(ctx, current, noteId);
  const draft = validateDraft(body);
  return refinementForForm(await askForRefinement(ctx, await noteDescription(ctx, current, note), draft));
}
