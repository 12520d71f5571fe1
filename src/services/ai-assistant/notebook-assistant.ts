/**
 * A notebook's AI assistant settings: the "Additional Instruction" its
 * editors give the AI for its notes (used in question generation, evaluation, chat and title
 * suggestion), and Engram's own assistant record (docs/decisions.md, decision 13): "recreate" rebuilds it from the
 * current settings (PKM instruction, default and notebook instructions, Others model); nothing is
 * created on the provider's side.
 */
import { modelFor } from "../../ai/model-settings";
import { PKM_INSTRUCTION } from "../../ai/question-refinement";
import type { AppContext } from "../../context";
import type { NotebookAssistantRow as AssistantRow } from "../../store/notes/notes-store";
import { defaultAdditionalInstructions, MAX_ADDITIONAL_INSTRUCTIONS_LENGTH } from "../admin/assistant";
import { UnauthorizedError, ValidationError } from "../errors";
import { type NotebookJson, notebookJson, presentNotebooks } from "../notes/presenters";
import { type NotebookRow, requireNotebook } from "../notes/rows";
import { authorizeEdit, isAdmin, type Reader } from "../policies";
import { loadUserReference, type UserReferenceJson } from "../user-references";
import type { CurrentUser } from "../users";

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

/**
 * The notebook's additional instructions for the AI ("" when none); the caller has authorized.
 */
export async function notebookAdditionalInstructions(ctx: AppContext, notebookId: number): Promise<string> {
  return (await ctx.stores.notes.assistantOf(notebookId))?.additionalInstructions ?? "";
}

/** Signed out is 401 before anything is looked up; then 404, then 403 for non-editors. */
async function editableNotebook(ctx: AppContext, current: CurrentUser | undefined, notebookId: number): Promise<NotebookRow> {
  if (!current) throw new UnauthorizedError("Please sign in");
  const notebook = await requireNotebook(ctx, notebookId);
  await authorizeEdit(ctx, current, notebook);
  return notebook;
}

async function present(ctx: AppContext, reader: Reader, notebook: NotebookRow, row: AssistantRow): Promise<NotebookAiAssistantJson> {
  return {
    id: row.id,
    notebook: (await presentNotebooks(ctx, reader, [notebook]))[0]!,
    additionalInstructionsToAi: row.additionalInstructions,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** GET /notebooks/{notebook}/ai-assistant: the settings, or null when never saved (editors only). */
export async function notebookAiAssistant(
  ctx: AppContext,
  current: CurrentUser | undefined,
  notebookId: number,
): Promise<NotebookAiAssistantJson | null> {
  const notebook = await editableNotebook(ctx, current, notebookId);
  const row = await ctx.stores.notes.assistantOf(notebook.id);
  return row ? present(ctx, current, notebook, row) : null;
}

/** PATCH /notebooks/{notebook}/ai-assistant {additionalInstructions}: upsert (blank clears them). */
export async function updateNotebookAiAssistant(
  ctx: AppContext,
  current: CurrentUser | undefined,
  notebookId: number,
  body: unknown,
): Promise<NotebookAiAssistantJson> {
  const notebook = await editableNotebook(ctx, current, notebookId);
  const raw = (body as { additionalInstructions?: unknown } | null)?.additionalInstructions;
  if (typeof raw !== "string" || raw.length > MAX_ADDITIONAL_INSTRUCTIONS_LENGTH) {
    throw new ValidationError({ additionalInstructions: `must be text of at most ${MAX_ADDITIONAL_INSTRUCTIONS_LENGTH} characters` });
  }
  const row = await ctx.stores.notes.saveAdditionalInstructions(notebook.id, raw.trim(), ctx.clock.now());
  return present(ctx, current, notebook, row);
}

/**
 * The instructions an assistant runs with: the PKM instruction, the admin's default additional
 * instructions, then the notebook's (each left out when blank; null for the default assistant).
 */
export async function assistantInstructions(ctx: AppContext, notebookId: number | null): Promise<string> {
  const notebookInstructions = notebookId === null ? "" : await notebookAdditionalInstructions(ctx, notebookId);
  return [PKM_INSTRUCTION, (await defaultAdditionalInstructions(ctx)).trim(), notebookInstructions].filter(Boolean).join("\n\n");
}

/**
 * POST /ai/assistant/recreate-notebook/{notebook}: rebuilds and stores the notebook's assistant
 * record from the current settings. For an admin or the notebook's editors (the record holds only
 * what they may already read and change); works without an AI provider.
 */
export async function recreateNotebookAssistant(
  ctx: AppContext,
  current: CurrentUser | undefined,
  notebookId: number,
): Promise<NotebookAssistantJson> {
  if (!current) throw new UnauthorizedError("Please sign in");
  const notebook = await requireNotebook(ctx, notebookId);
  if (!isAdmin(current)) await authorizeEdit(ctx, current, notebook);
  const [card] = await ctx.stores.notes.notebookCards([notebook]);
  const settings = await ctx.stores.notes.assistantOf(notebook.id);
  const notebookInstructions = settings?.additionalInstructions ?? "";
  const record: AssistantRecord = {
    name: `Assistant for notebook ${card?.head?.title ?? ""}`,
    model: await modelFor(ctx, "othersModel"),
    instructions: [PKM_INSTRUCTION, (await defaultAdditionalInstructions(ctx)).trim(), notebookInstructions].filter(Boolean).join("\n\n"),
    additionalInstructions: notebookInstructions,
  };
  const now = ctx.clock.now();
  const row = await ctx.stores.notes.saveAssistantRecord(notebook.id, JSON.stringify(record), current.user.id, now);
  return {
    id: row.id,
    creator: await loadUserReference(ctx, current, current.user.id),
    notebook: notebookJson(current, card!),
    assistantId: `engram-notebook-assistant-${notebook.id}-${now.getTime()}`,
    ...record,
    createdAt: now.toISOString(),
  };
}
