/**
 * Related notes: whatever presents a note the request did not name (a link's target or subject,
 * inbound references, graph neighbours, export entries, a tracker's or a conversation's note,
 * search hits...) asks here whether the reader of this request may read it. An unreadable note
 * is left out, or shown as a placeholder with no title and no details, never partly. The answer
 * is the notebook's role at the moment of the request (policies/index.ts), so losing access
 * takes effect at once.
 */
import type { AppContext } from "../../context";
import { notebooksOfNotes } from "../../store/sharing/access";
import type { CurrentUser } from "../users";
import { isBazaarNotebook, readableNotebookIds } from "./memberships";

/** Whoever a presenter presents for: a signed-in user, or undefined for a visitor. */
export type Reader = CurrentUser | undefined;

/** What the policy needs of a note: the notebook it is in. */
export interface InNotebook {
  notebookId: number;
}

/**
 * One reader's read rights, asked once per notebook for the life of one request's presenter.
 * Every presenter of related notes holds one of these (they take the reader to be built).
 */
export class ReadableNotes {
  private readonly notebooks = new Map<number, boolean>();

  constructor(
    private readonly ctx: AppContext,
    readonly reader: Reader,
    /** Only for an admin in the admin area (readableNotesInAdminArea in index.ts checks that): every notebook. */
    private readonly administering = false,
  ) {}

  /**
   * Whether the reader may read the notes of this notebook (an unknown notebook: no). The same
   * rule as mayRead(notebookRole(...)): the owner, a circle member and a subscriber (the reader's
   * readable notebooks, cached until access changes) or anyone for a bazaar notebook, so a
   * search's thirty hits cost no lookup per notebook.
   */
  notebook(notebookId: number): boolean {
    if (this.administering) return true;
    let readable = this.notebooks.get(notebookId);
    if (readable === undefined) {
      readable = (this.reader !== undefined && this.memberOf().has(notebookId)) || isBazaarNotebook(this.ctx, notebookId);
      this.notebooks.set(notebookId, readable);
    }
    return readable;
  }

  private member?: Set<number>;
  private memberOf(): Set<number> {
    this.member ??= new Set(readableNotebookIds(this.ctx, this.reader!.user.id, { own: true, subscriptions: true, circles: true }));
    return this.member;
  }

  /** Whether the reader may read this note. */
  note = (note: InNotebook): boolean => this.notebook(note.notebookId);

  /** The notes the reader may read, in their order. */
  filter<T extends InNotebook>(notes: T[]): T[] {
    return notes.filter(this.note);
  }

  /** The ids, among these, of notes the reader may read (unknown ids are left out). */
  ids(ids: Iterable<number>): Set<number> {
    const wanted = [...new Set(ids)];
    if (wanted.length === 0) return new Set();
    const rows = this.ctx.database.readNow((s) => notebooksOfNotes(s, wanted));
    return new Set(rows.filter(this.note).map((row) => row.id));
  }
}

/** The ids, among these, of notes the reader may read now: the one question every presenter of related notes asks. */
export function readableNoteIds(ctx: AppContext, reader: Reader, ids: Iterable<number>): Set<number> {
  return new ReadableNotes(ctx, reader).ids(ids);
}
