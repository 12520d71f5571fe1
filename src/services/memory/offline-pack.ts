/**
 * What a device keeps to recall offline (GET /api/recalls/offline-pack): the recall list due by
 * the end of this half-day (or N days ahead, when the learner loaded more) with, for each item,
 * everything its question needs without the server: the note (with its ancestors, for the
 * breadcrumb and the self-review), the spelling question, or the multiple-choice question already
 * generated for it with its correct index (so the device can say right or wrong at once; the
 * server judges again when the answer arrives). An item whose question needs the AI and was not
 * generated yet is "needs-ai": offline it is skipped. Nothing is generated here.
 */
import { isAiConfigured } from "../../ai/client";
import type { AppContext } from "../../context";
import { type NoteJson, NotePresenter, presentNotebooks } from "../notes/presenters";
import { requireNotebook } from "../notes/rows";
import { presentRecallPrompt, type RecallPromptJson } from "../recall-prompts/presenters";
import { withNote } from "../recall-prompts/rows";
import { type SpellingQuestionJson, spellingStem } from "../spelling/spelling-service";
import type { CurrentUser } from "../users";
import { type DueMemoryTrackersJson, recalling } from "./recall-list";

/** A device keeps at most this many items (the first of the list, as the learner meets them). */
export const MAX_OFFLINE_ITEMS = 300;

export type OfflineItemKind = "spelling" | "multiple-choice" | "self-review" | "needs-ai";

export interface OfflineItemJson {
  memoryTrackerId: number;
  noteId: number;
  spelling: boolean;
  kind: OfflineItemKind;
  note: NoteJson;
  spellingQuestion?: SpellingQuestionJson;
  prompt?: RecallPromptJson;
  correctChoiceIndex?: number;
}

export interface OfflinePackJson extends DueMemoryTrackersJson {
  items: OfflineItemJson[];
  savedAt: string;
}

export async function offlinePack(ctx: AppContext, current: CurrentUser, timeZone: string, dueInDays: number): Promise<OfflinePackJson> {
  const due = await recalling(ctx, current, timeZone, dueInDays);
  const toRepeat = due.toRepeat.slice(0, MAX_OFFLINE_ITEMS);
  const notes = await ctx.stores.notes.notesByIds([...new Set(toRepeat.map((item) => item.noteId))]);
  const byId = new Map(notes.map((note) => [note.id, note]));
  const ancestors = new Map(await Promise.all(notes.map(async (note) => [note.id, await ctx.stores.notes.ancestorsOf(note)] as const)));
  const presenter = await new NotePresenter(ctx, current).load([...notes, ...[...ancestors.values()].flat()]);
  const aiConfigured = isAiConfigured(ctx);

  const items: OfflineItemJson[] = [];
  for (const item of toRepeat) {
    const note = byId.get(item.noteId);
    if (!note || note.deletedAt) continue;
    const base = {
      memoryTrackerId: item.memoryTrackerId,
      noteId: note.id,
      spelling: item.spelling,
      note: presenter.note(note, { ancestors: ancestors.get(note.id) }),
    };
    if (item.spelling) {
      const [notebook] = await presentNotebooks(ctx, current, [await requireNotebook(ctx, note.notebookId)]);
      items.push({ ...base, kind: "spelling", spellingQuestion: { stem: spellingStem(note.title, note.details), notebook: notebook! } });
      continue;
    }
    const prompt = await ctx.stores.recallPrompts.reusablePrompt(current.user.id, item.memoryTrackerId);
    if (prompt) {
      const loaded = await withNote(ctx, prompt);
      items.push({
        ...base,
        kind: "multiple-choice",
        prompt: await presentRecallPrompt(ctx, current, loaded),
        correctChoiceIndex: loaded.question.correctAnswerIndex,
      });
      continue;
    }
    items.push({ ...base, kind: aiConfigured ? "needs-ai" : "self-review" });
  }
  return { ...due, toRepeat, items, savedAt: ctx.clock.now().toISOString() };
}
