import type { AppContext } from "../../context";
import { ancestorsOf, childrenOf, findNote, inboundReferencesOf, type NoteRow } from "../notes/rows";
import type { ReadableNotes } from "../policies";
import type { NoteLookup } from "./bare-note";

/**
 * The notes around a focus note, for one reader, loaded lazily and cached for one graph build.
 * Every list leaves out deleted notes and notes the reader may not read (links can reach into
 * other people's notebooks): the policy is asked for each (policies/readable-notes.ts). A
 * signed-out reader (undefined) reads bazaar notebooks only.
 */
export class Neighbourhood implements NoteLookup {
  private readonly rows = new Map<number, NoteRow | undefined>();
  private readonly childLists = new Map<number, NoteRow[]>();
  readonly readable: ReadableNotes;

  constructor(
    private readonly ctx: AppContext,
    readable: ReadableNotes,
  ) {
    this.readable = readable;
  }

  get(id: number): NoteRow | undefined {
    if (!this.rows.has(id)) this.rows.set(id, findNote(this.ctx, id));
    return this.rows.get(id);
  }

  private remember(rows: NoteRow[]): NoteRow[] {
    for (const row of rows) this.rows.set(row.id, row);
    return rows;
  }

  /** Undeleted and readable by the viewer. */
  visible = (note: NoteRow | undefined): note is NoteRow => !!note && !note.deletedAt && this.readable.note(note);

  /** The parent (or, for a link note, its subject), when visible. */
  parentOf(note: NoteRow | undefined): NoteRow | undefined {
    const parent = note?.parentId != null ? this.get(note.parentId) : undefined;
    return this.visible(parent) ? parent : undefined;
  }

  /** The target (the object) of a link note, when visible. */
  targetOf(note: NoteRow | undefined): NoteRow | undefined {
    const target = note?.targetNoteId != null ? this.get(note.targetNoteId) : undefined;
    return this.visible(target) ? target : undefined;
  }

  /** Children in sibling order. */
  children(note: NoteRow | undefined): NoteRow[] {
    if (!note) return [];
    if (!this.childLists.has(note.id)) this.childLists.set(note.id, this.remember(childrenOf(this.ctx, note.id)).filter(this.visible));
    return this.childLists.get(note.id)!;
  }

  /** The note and its siblings in sibling order: its parent's children ([] for a notebook's head note). */
  siblingsAndSelf(note: NoteRow | undefined): NoteRow[] {
    const parent = note?.parentId != null ? this.get(note.parentId) : undefined;
    return this.children(parent);
  }

  /** Ancestors, root first. */
  ancestors(note: NoteRow | undefined): NoteRow[] {
    if (!note) return [];
    return this.remember(ancestorsOf(this.ctx, note)).filter(this.visible);
  }

  /** Undeleted link notes whose target is the note, oldest first. */
  inboundReferences(note: NoteRow | undefined): NoteRow[] {
    if (!note) return [];
    return this.remember(inboundReferencesOf(this.ctx, this.readable, note.id)).filter(this.visible);
  }

  shuffle(notes: NoteRow[]): NoteRow[] {
    return this.ctx.randomizer.shuffle(notes);
  }
}
