import type { AppContext } from "../../context";
import { NotFoundError } from "../errors";
import { presentLiveNotebooks } from "../notebooks";
import type { NotebookJson } from "../notes/presenters";
import { requireNotebook } from "../notes/rows";
import { authorizeAdmin, authorizeShare, type Reader } from "../policies";
import type { CurrentUser } from "../users";

/** BazaarNotebook JSON: the entry's id and its notebook. */
export interface BazaarNotebookJson {
  id: number;
  notebook: NotebookJson;
}

/** Every bazaar entry whose notebook still has its head note, newest first. */
export async function bazaar(ctx: AppContext, reader: Reader): Promise<BazaarNotebookJson[]> {
  const entries = await ctx.stores.sharing.bazaarEntries();
  if (entries.length === 0) return [];
  const entryOf = new Map(entries.map((e) => [e.notebookId, e.id]));
  return (await presentLiveNotebooks(ctx, reader, { ids: [...entryOf.keys()] })).map((notebook) => ({
    id: entryOf.get(notebook.id)!,
    notebook,
  }));
}

/** "Share notebook to bazaar" (owner or circle member); sharing again changes nothing. Answers the Notebook, as the contract does. */
export async function shareToBazaar(ctx: AppContext, current: CurrentUser | undefined, notebookId: number): Promise<NotebookJson> {
  const notebook = await requireNotebook(ctx, notebookId);
  await authorizeShare(ctx, current, notebook);
  await ctx.stores.sharing.shareToBazaar(notebook.id, ctx.clock.now());
  const entry = (await bazaar(ctx, current)).find((e) => e.notebook.id === notebook.id);
  if (!entry) throw new NotFoundError("Notebook"); // its head note is deleted
  return entry.notebook;
}

/** An admin removes an entry; answers the bazaar that remains. */
export async function removeFromBazaar(ctx: AppContext, current: CurrentUser | undefined, entryId: number): Promise<BazaarNotebookJson[]> {
  authorizeAdmin(current, "Only an administrator can remove a notebook from the bazaar");
  if (!(await ctx.stores.sharing.removeFromBazaar(entryId))) throw new NotFoundError("Bazaar notebook");
  return bazaar(ctx, current);
}
