import { aiClient } from "../../ai/client";
import type { AppContext } from "../../context";
import { requireNotebook } from "../notes/rows";
import { authorizeEdit } from "../policies";
import type { CurrentUser } from "../users";
import { embedNotes } from "./note-embeddings";

/** The notebook, when the user may edit it and an AI provider is configured (else 403/404/503). */
async function indexableNotebook(ctx: AppContext, current: CurrentUser, notebookId: number) {
  const notebook = await requireNotebook(ctx, notebookId);
  await authorizeEdit(ctx, current, notebook);
  aiClient(ctx);
  return notebook;
}

/**
 * "Update index": embeds, now, every note of the notebook whose embedding is missing or out of
 * date (text, path or model changed). Answers how many notes were embedded.
 */
export async function updateNotebookIndex(ctx: AppContext, current: CurrentUser, notebookId: number): Promise<number> {
  const notebook = await indexableNotebook(ctx, current, notebookId);
  return embedNotes(ctx, await ctx.stores.search.embeddableNotesOf(notebook.id));
}

/** "Reset index": forgets every embedding of the notebook's notes, then embeds them all again. */
export async function resetNotebookIndex(ctx: AppContext, current: CurrentUser, notebookId: number): Promise<number> {
  const notebook = await indexableNotebook(ctx, current, notebookId);
  await ctx.stores.search.forgetNotebookEmbeddings(notebook.id);
  return embedNotes(ctx, await ctx.stores.search.embeddableNotesOf(notebook.id));
}
