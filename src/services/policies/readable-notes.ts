/**
 * Related notes: whatever presents a note the request did not name (a link's target or subject,
 * inbound references, graph neighbours, export entries, a tracker's or a conversation's note,
 * search hits...) asks here whether the reader of this request may read it. An unreadable note
 * is left out, or shown as a placeholder with no title and no details, never partly. The answer
 * is the notebook's role at the moment of the request (policies/index.ts), so losing access
 * takes effect at once.
 */
import type { AppContext } from "../../context";
import type { CurrentUser } from "../users";
import { readableNotebookIdsAt } from "./memberships";

/** Whoever a presenter presents for: a signed-in user, or undefined for a visitor. */
export type Reader = CurrentUser | undefined;

/** What the policy needs of a note: the notebook it is in. */
export interface InNotebook {
  notebookId: number;
}

/**
 * One reader's read rights, read once (ReadableNotes.of) for the life of one request's presenter;
 * its questions are then answered from memory, synchronously, so a presenter or a store body's
 * filter can ask them between reads. Every presenter of related notes holds one of these.
 */
export class ReadableNotes {
  private constructor(
    private readonly ctx: AppContext,
    readonly reader: Reader,
    /** The reader's own, subscribed and circle notebooks, and the bazaar's; undefined: every notebook. */
    private readonly readable: { member: ReadonlySet<number>; bazaar: ReadonlySet<number> } | undefined,
  ) {}

  /**
   * The read rights of a reader: the notebooks they read as owner, circle member or subscriber
   * (cached until their access changes) and the bazaar's notebooks (anyone reads those), read in
   * one snapshot.
   */
  static async of(ctx: AppContext, reader: Reader): Promise<ReadableNotes> {
    const userId = reader?.user.id;
    const { accessVersion, bazaar } = await ctx.stores.sharing.readerAccess(userId);
    const member =
      userId === undefined || accessVersion === undefined
        ? []
        : await readableNotebookIdsAt(ctx, userId, { own: true, subscriptions: true, circles: true }, accessVersion);
    return new ReadableNotes(ctx, reader, { member: new Set(member), bazaar: new Set(bazaar) });
  }

  /** Only for an admin in the admin area (readableNotesInAdminArea in index.ts checks that): every notebook. */
  static everything(ctx: AppContext, admin: CurrentUser): ReadableNotes {
    return new ReadableNotes(ctx, admin, undefined);
  }

  /**
   * Whether the reader may read the notes of this notebook (an unknown notebook: no). The same
   * rule as mayRead(notebookRole(...)): the owner, a circle member and a subscriber, or anyone
   * for a bazaar notebook, so a search's thirty hits cost no lookup per notebook.
   */
  notebook(notebookId: number): boolean {
    if (this.readable === undefined) return true;
    return this.readable.member.has(notebookId) || this.readable.bazaar.has(notebookId);
  }

  /** Whether the reader may read this note. */
  note = (note: InNotebook): boolean => this.notebook(note.notebookId);

  /** The notes the reader may read, in their order. */
  filter<T extends InNotebook>(notes: T[]): T[] {
    return notes.filter(this.note);
  }

  /** The ids, among these, of notes the reader may read (unknown ids are left out). */
  async ids(ids: Iterable<number>): Promise<Set<number>> {
    const wanted = [...new Set(ids)];
    if (wanted.length === 0) return new Set();
    const rows = await this.ctx.stores.sharing.notebooksOfNotes(wanted);
    return new Set(rows.filter(this.note).map((row) => row.id));
  }
}

/** The ids, among these, of notes the reader may read now: the one question every presenter of related notes asks. */
export async function readableNoteIds(ctx: AppContext, reader: Reader, ids: Iterable<number>): Promise<Set<number>> {
  return (await ReadableNotes.of(ctx, reader)).ids(ids);
}
