/**
 * "Manage Assistant": the default additional AI instructions, the default assistant and the
 * notebook dump. In docs/decisions.md, decision 13: an assistant is Engram's own record (instructions and model), built
 * from the current settings; "recreate" rebuilds it, nothing is created on the provider's side.
 */
import { modelFor } from "../../ai/model-settings";
import { PKM_INSTRUCTION } from "../../ai/question-refinement";
import { readGlobalSetting, writeGlobalSetting } from "../../ai/settings";
import type { AppContext } from "../../context";
import { ValidationError } from "../errors";
import { type BareNote, bareNote } from "../graph/bare-note";
import { Neighbourhood } from "../graph/neighbourhood";
import { presentLiveNotebooks } from "../notebooks";
import { type NotebookJson, presentNotebook } from "../notes/presenters";
import { type NoteRow, requireNotebook } from "../notes/rows";
import { authorizeAdmin, authorizeEdit, isAdmin, ReadableNotes, readableNotesInAdminArea } from "../policies";
import type { CurrentUser } from "../users";

export const ASSISTANT_ADMIN_ONLY = "Only an administrator can manage the assistant";
export const DEFAULT_INSTRUCTIONS_KEY = "defaultAdditionalInstructions";
export const DEFAULT_ASSISTANT_KEY = "defaultAssistant";
export const DEFAULT_ASSISTANT_NAME = "Notebook assistant";
export const MAX_ADDITIONAL_INSTRUCTIONS_LENGTH = 10_000;

/** The default assistant as recreate-default answers it (a map of strings, as the reference's). */
export interface DefaultAssistantJson {
  name: string;
  model: string;
  instructions: string;
  additionalInstructions: string;
  recreatedAt: string;
}

export interface AssistantSettingsJson {
  additionalInstructionsToAi: string;
  /** The record built by the last "Recreate Default Assistant"; null before the first. */
  defaultAssistant: DefaultAssistantJson | null;
}

export const defaultAdditionalInstructions = async (ctx: AppContext) => (await readGlobalSetting(ctx, DEFAULT_INSTRUCTIONS_KEY)) ?? "";

async function storedDefaultAssistant(ctx: AppContext): Promise<DefaultAssistantJson | null> {
  const stored = await readGlobalSetting(ctx, DEFAULT_ASSISTANT_KEY);
  return stored ? (JSON.parse(stored) as DefaultAssistantJson) : null;
}

export async function assistantSettings(ctx: AppContext, current: CurrentUser | undefined): Promise<AssistantSettingsJson> {
  authorizeAdmin(current, ASSISTANT_ADMIN_ONLY);
  const [additionalInstructionsToAi, defaultAssistant] = await Promise.all([
    defaultAdditionalInstructions(ctx),
    storedDefaultAssistant(ctx),
  ]);
  return { additionalInstructionsToAi, defaultAssistant };
}

/** PATCH {additionalInstructions}: the default instructions every assistant adds (blank clears them). */
export async function updateDefaultInstructions(
  ctx: AppContext,
  current: CurrentUser | undefined,
  body: unknown,
): Promise<AssistantSettingsJson> {
  authorizeAdmin(current, ASSISTANT_ADMIN_ONLY);
  const raw = (body as { additionalInstructions?: unknown } | null)?.additionalInstructions;
  if (typeof raw !== "string" || raw.length > MAX_ADDITIONAL_INSTRUCTIONS_LENGTH) {
    throw new ValidationError({ additionalInstructions: `must be text of at most ${MAX_ADDITIONAL_INSTRUCTIONS_LENGTH} characters` });
  }
  await writeGlobalSetting(ctx, DEFAULT_INSTRUCTIONS_KEY, raw.trim());
  return assistantSettings(ctx, current);
}

/**
 * POST /ai/assistant/recreate-default: the default assistant rebuilt from the current settings
 * (the PKM instruction plus the default additional instructions, on the Others model), stored and
 * answered. Works without an AI provider: it is only Engram's record.
 */
export async function recreateDefaultAssistant(ctx: AppContext, current: CurrentUser | undefined): Promise<DefaultAssistantJson> {
  authorizeAdmin(current, ASSISTANT_ADMIN_ONLY);
  const additionalInstructions = await defaultAdditionalInstructions(ctx);
  const now = ctx.clock.now();
  const assistant: DefaultAssistantJson = {
    name: DEFAULT_ASSISTANT_NAME,
    model: await modelFor(ctx, "othersModel"),
    instructions: additionalInstructions ? `${PKM_INSTRUCTION}\n\n${additionalInstructions}` : PKM_INSTRUCTION,
    additionalInstructions,
    recreatedAt: now.toISOString(),
  };
  await writeGlobalSetting(ctx, DEFAULT_ASSISTANT_KEY, JSON.stringify(assistant));
  return assistant;
}

/** Every live notebook on the instance, for the dump's picker (admin only). */
export function allNotebooks(ctx: AppContext, current: CurrentUser | undefined): Promise<NotebookJson[]> {
  authorizeAdmin(current, ASSISTANT_ADMIN_ONLY);
  return presentLiveNotebooks(ctx, current, { every: true });
}

/** One note of the dump: the reference's BareNote plus what a note keeps beyond it. */
export type DumpedNote = BareNote & {
  wikidataId?: string;
  url?: string;
  recallSetting: { level: number; rememberSpelling: boolean; skipMemoryTracking: boolean };
};

export interface NotebookDumpJson {
  notebook: NotebookJson;
  exportedAt: string;
  /**
   * Every undeleted note, sorted by parent then sibling order (the head note first), untruncated.
   * A link is a note with subjectUriAndTitle, predicate (its type) and objectUriAndTitle.
   */
  notes: DumpedNote[];
}

/**
 * GET /notebooks/{notebook}/dump (notebook-dump.json): the notebook with its settings and every
 * note and link. Allowed to an admin (any notebook) and to those who may edit the notebook (its
 * owner, its circle's members): everything in it is theirs already. Readers (subscribers, bazaar
 * visitors) are refused: the dump is a whole-notebook copy, which Obsidian export gives editors too.
 */
export async function notebookDump(ctx: AppContext, current: CurrentUser | undefined, notebookId: number): Promise<NotebookDumpJson> {
  const notebook = await requireNotebook(ctx, notebookId);
  if (!isAdmin(current)) await authorizeEdit(ctx, current, notebook);
  const rows = await ctx.stores.admin.notebookNotes(notebook.id);
  const byId = new Map<number, NoteRow>(rows.map((row) => [row.id, row]));
  // Link targets may live in another notebook: look them up too (bareNote leaves out deleted ones
  // and those in notebooks this user may not read; in the admin area an admin reads them all).
  const readable = new Neighbourhood(ctx, isAdmin(current) ? readableNotesInAdminArea(ctx, current) : await ReadableNotes.of(ctx, current));
  const outside = rows.flatMap((row) => [row.parentId, row.targetNoteId]).filter((id): id is number => id !== null && !byId.has(id));
  await readable.load({ notes: outside });
  const lookup = {
    get: (id: number) => byId.get(id) ?? readable.get(id),
    visible: readable.visible,
  };
  return {
    notebook: await presentNotebook(ctx, current, notebook),
    exportedAt: ctx.clock.now().toISOString(),
    notes: rows.map((row) => ({
      ...bareNote(row, lookup),
      ...(row.wikidataId ? { wikidataId: row.wikidataId } : {}),
      ...(row.url ? { url: row.url } : {}),
      recallSetting: { level: row.level, rememberSpelling: row.rememberSpelling, skipMemoryTracking: row.skipMemoryTracking },
    })),
  };
}
