/**
 * A notebook's AI assistant settings: the "Additional Instruction" its
 * editors give the AI for its notes (used in question generation, evaluation, chat and title
 * suggestion), and Engram's own assistant record (docs/decisions.md, decision 13): "recreate" rebuilds it from the
 * current settings (PKM instruction, default and notebook instructions, Others model); nothing is
 * created on the provider's side.
 */
import { eq } from "drizzle-orm";
import { modelFor } from "../../ai/model-settings";
import { PKM_INSTRUCTION } from "../../ai/question-refinement";
import type { AppContext } from "../../context";
import { notebookAiAssistants, notes } from "../../db/schema";
import { defaultAdditionalInstructions, MAX_ADDITIONAL_INSTRUCTIONS_LENGTH } from "../admin/assistant";
import { UnauthorizedError, ValidationError } from "../errors";
import { type NotebookJson, presentNotebook } from "../notes/presenters";
import { getNotebook, type NotebookRow } from "../notes/rows";
import { authorizeEdit, isAdmin, type Reader } from "../policies";
import { type UserReferenceJson, userReference } from "../user-references";
import type { CurrentUser } from "../users";

type AssistantRow = typeof notebookAiAssistants.$inferSelect;

/** NotebookAiAssistant of the reference's API contract. */
export interface NotebookAiAssistantJson {
  id: number;
  notebook: NotebookJson;
  additionalInstructionsToAi: string;
  createdAt: string;
  updatedAt: string;
}

/** NotebookAssistant of the reference's API contract, with what Engram's own record holds. */
export interface NotebookAssistantJson {
  id: number;
  creator: UserReferenceJson | null;
  notebook: NotebookJson;
  /** Engram's id of the record (no provider assistant exists). */
  assistantId: string;
  name: string;
  model: string;
  instructions: string;
  additionalInstructions: string;
  createdAt: string;
}

interface AssistantRecord {
  name: string;
  model: string;
  instructions: string;
  additionalInstructions: string;
}

function rowOf(ctx: AppContext, notebookId: number): AssistantRow | undefined {
  return ctx.db.select().from(notebookAiAssistants).where(eq(notebookAiAssistants.notebookId, notebookId)).get();
}

/** The notebook's additional instructions for the AI ("" when none); the caller has authorized. */
export function notebookAdditionalInstructions(ctx: AppContext, notebookId: number): string {
  return rowOf(ctx, notebookId)?.additionalInstructions ?? "";
}

/** Signed out is 401 before anything is looked up; then 404, then 403 for non-editors. */
function editableNotebook(ctx: AppContext, current: CurrentUser | undefined, notebookId: number): NotebookRow {
  if (!current) throw new UnauthorizedError("Please sign in");
  const notebook = getNotebook(ctx, notebookId);
  authorizeEdit(ctx, current, notebook);
  return notebook;
}

function present(ctx: AppContext, reader: Reader, notebook: NotebookRow, row: AssistantRow): NotebookAiAssistantJson {
  return {
    id: row.id,
    notebook: presentNotebook(ctx, reader, notebook),
    additionalInstructionsToAi: row.additionalInstructions,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** GET /notebooks/{notebook}/ai-assistant: the settings, or null when never saved (editors only). */
export function notebookAiAssistant(ctx: AppContext, current: CurrentUser | undefined, notebookId: number): NotebookAiAssistantJson | null {
  const notebook = editableNotebook(ctx, current, notebookId);
  const row = rowOf(ctx, notebook.id);
  return row ? present(ctx, current, notebook, row) : null;
}

/** PATCH /notebooks/{notebook}/ai-assistant {additionalInstructions}: upsert (blank clears them). */
export function updateNotebookAiAssistant(
  ctx: AppContext,
  current: CurrentUser | undefined,
  notebookId: number,
  body: unknown,
): NotebookAiAssistantJson {
  const notebook = editableNotebook(ctx, current, notebookId);
  const raw = (body as { additionalInstructions?: unknown } | null)?.additionalInstructions;
  if (typeof raw !== "string" || raw.length > MAX_ADDITIONAL_INSTRUCTIONS_LENGTH) {
    throw new ValidationError({ additionalInstructions: `must be text of at most ${MAX_ADDITIONAL_INSTRUCTIONS_LENGTH} characters` });
  }
  const value = raw.trim();
  const now = ctx.clock.now();
  ctx.db
    .insert(notebookAiAssistants)
    .values({ notebookId: notebook.id, additionalInstructions: value, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: notebookAiAssistants.notebookId, set: { additionalInstructions: value, updatedAt: now } })
    .run();
  return present(ctx, current, notebook, rowOf(ctx, notebook.id)!);
}

/**
 * The instructions an assistant runs with: the PKM instruction, the admin's default additional
 * instructions, then the notebook's (each left out when blank; null for the default assistant).
 */
export function assistantInstructions(ctx: AppContext, notebookId: number | null): string {
  const notebookInstructions = notebookId === null ? "" : notebookAdditionalInstructions(ctx, notebookId);
  return [PKM_INSTRUCTION, defaultAdditionalInstructions(ctx).trim(), notebookInstructions].filter(Boolean).join("\n\n");
}

/**
 * POST /ai/assistant/recreate-notebook/{notebook}: rebuilds and stores the notebook's assistant
 * record from the current settings. For an admin or the notebook's editors (the record holds only
 * what they may already read and change); works without an AI provider.
 */
export function recreateNotebookAssistant(ctx: AppContext, current: CurrentUser | undefined, notebookId: number): NotebookAssistantJson {
  if (!current) throw new UnauthorizedError("Please sign in");
  const notebook = getNotebook(ctx, notebookId);
  if (!isAdmin(current)) authorizeEdit(ctx, current, notebook);
  const headTitle =
    notebook.headNoteId === null
      ? ""
      : (ctx.db.select({ title: notes.title }).from(notes).where(eq(notes.id, notebook.headNoteId)).get()?.title ?? "");
  const record: AssistantRecord = {
    name: `Assistant for notebook ${headTitle}`,
    model: modelFor(ctx, "othersModel"),
    instructions: assistantInstructions(ctx, notebook.id),
    additionalInstructions: notebookAdditionalInstructions(ctx, notebook.id),
  };
  const now = ctx.clock.now();
  const assistant = { assistantRecord: JSON.stringify(record), assistantCreatorId: current.user.id, assistantCreatedAt: now };
  ctx.db
    .insert(notebookAiAssistants)
    .values({ notebookId: notebook.id, ...assistant, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: notebookAiAssistants.notebookId, set: assistant })
    .run();
  const row = rowOf(ctx, notebook.id)!;
  return {
    id: row.id,
    creator: userReference(ctx, current, current.user.id),
    notebook: presentNotebook(ctx, current, notebook),
    assistantId: `engram-notebook-assistant-${notebook.id}-${now.getTime()}`,
    ...record,
    createdAt: now.toISOString(),
  };
}
