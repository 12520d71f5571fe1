import type { AppContext } from "../../context";
import { BadRequestError, ValidationError } from "../errors";
import { appliedNow, refuseRepeatedKey } from "../memory/answer-keys";
import { planReview, thinkingTime } from "../memory/reviews";
import { type MemoryTrackerRow, ownTracker, reviewed } from "../memory/trackers";
import { renderNoteDetailsSafely } from "../notes/markdown";
import { type NotebookJson, type NoteJson, NotePresenter, presentNotebooks } from "../notes/presenters";
import { requireNote, requireNoteWithNotebook } from "../notes/rows";
import type { CurrentUser } from "../users";
import { clozeHtml } from "./cloze";
import { clozeAnswerOf } from "./cloze-answer";
import { matchesTitle } from "./title-fragments";

/**
 * Spelling questions: the learner sees the note's details with the title hidden and types the
 * title. A cloze note (cloze-answer.ts) shows its title, the question with blanks, and asks for
 * what fills them.
 */

export interface SpellingQuestionJson {
  /** The details as safe HTML with the title clozed; "" when the details are blank. */
  stem: string;
  notebook: NotebookJson;
}

export interface SpellingResultJson {
  note: NoteJson;
  answer: string;
  isCorrect: boolean;
}

/** Only empty paragraphs and line breaks: nothing to show. */
const BLANK_HTML = /^(?:\s|<\/?p>|<br\s*\/?>)*$/i;

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** What a spelling answer must name: a cloze note's answer, else the note's title. */
export const spellingAnswerOf = (note: { title: string; details: string | null }) => clozeAnswerOf(note.details) ?? note.title;

/**
 * The stem for a note: its details (without their properties) rendered from Markdown and
 * sanitized, then clozed; for a cloze note, its title: the question with its blanks.
 */
export function spellingStem(title: string, details: string | null): string {
  if (clozeAnswerOf(details) !== undefined) return `<p class="cloze-question">${escapeHtml(title)}</p>`;
  const html = renderNoteDetailsSafely(details ?? "");
  return BLANK_HTML.test(html) ? "" : clozeHtml(html, title);
}

/** The spelling question of one of the user's memory trackers (403 for another user's, 404 when unknown). */
export async function spellingQuestion(ctx: AppContext, current: CurrentUser, trackerId: number): Promise<SpellingQuestionJson> {
  const tracker = await ownTracker(ctx, current, trackerId);
  const { note, notebook } = await requireNoteWithNotebook(ctx, tracker.noteId);
  const [json] = await presentNotebooks(ctx, current, [notebook]);
  return { stem: spellingStem(note.title, note.details), notebook: json! };
}

/**
 * Checks a spelling answer against the note title and repeats this tracker on the forgetting curve
 * (success when correct), in one transaction. A blank answer is refused. With an idempotency key
 * the answer is also recorded under it (memory/answer-keys.ts).
 */
export async function answerSpelling(
  ctx: AppContext,
  current: CurrentUser,
  trackerId: number,
  spellingAnswer: string | null | undefined,
  thinkingTimeMs?: unknown,
  idempotencyKey?: string,
): Promise<SpellingResultJson> {
  const thinking = thinkingTime(thinkingTimeMs);
  if (typeof spellingAnswer !== "string" || spellingAnswer.trim() === "") {
    throw new ValidationError({ spellingAnswer: "must not be blank" });
  }
  await refuseRepeatedKey(ctx, current.user.id, idempotencyKey);
  const tracker = await ownTracker(ctx, current, trackerId);
  const now = ctx.clock.now();
  const { note, isCorrect } = await judgeSpelling(ctx, tracker, spellingAnswer);
  const plan = planReview(now, current, isCorrect ? "success" : "failure", "spelling", {
    randomizer: ctx.randomizer,
    thinkingTimeMs: thinking,
  });
  // The review and the answer's key are one unit of work.
  reviewed(await ctx.stores.memory.repeat(current.user.id, tracker.id, plan, appliedNow(idempotencyKey, now, isCorrect)));
  const ancestors = await ctx.stores.notes.ancestorsOf(note);
  const presented = (await new NotePresenter(ctx, current).load([note])).note(note, { ancestors });
  return { note: presented, answer: spellingAnswer, isCorrect };
}

/**
 * Judges a spelling answer against the note's title. Only a spelling tracker still tracked is
 * answered by spelling (400 otherwise).
 */
export async function judgeSpelling(ctx: AppContext, tracker: MemoryTrackerRow, spellingAnswer: string) {
  // Only a spelling tracker is answered by spelling: the normal one is repeated by its own questions.
  if (!tracker.spelling) throw new BadRequestError("This memory tracker is not a spelling tracker");
  if (tracker.removedFromTracking) throw new BadRequestError("This memory tracker has been removed from tracking");
  const note = await requireNote(ctx, tracker.noteId);
  return { note, isCorrect: matchesTitle(spellingAnswerOf(note), spellingAnswer) };
}
