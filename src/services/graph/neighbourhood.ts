import type { AppContext } from "../../context";
import { inboundReferencesOf } from "../notes/presenters";
import { ancestorsOf, childrenOf, findNote, getNotebook, type NoteRow } from "../notes/rows";
import { notebookAccess } from "../policies";
import type { CurrentUser } from "../users";
import type { NoteLookup } from "./bare-note";

/** Whom a graph is for: only notes its viewer (undefined when signed out) may read appear. */
export interface GraphAudience {
  viewer: CurrentUser | undefined;
}

/**
 * The notes around a focus note, loaded lazily and cached for one graph build. Every list
 * leaves out deleted notes and, when an audience is given, notes in notebooks its viewer may not
 * read (links can reach into other people's notebooks). A signed-out viewer (undefined) reads
 * bazaar notebooks only.
 */
export class Neighbourhood implements NoteLookup {
  private readonly rows = new Map<number, NoteRow | undefined>();
  private readonly childLists = new Map<number, NoteRow[]>();
  private readonly readableNotebooks = new Map<number, boolean>();

  constructor(
    private readonly ctx: AppContext,
    private readonly audience?: GraphAudience,
  ) {}

  get(id: number): NoteRow | undefined {
    if (!this.rows.has(id)) this.rows.set(id, findNote(this.ctx, id));
    return this.rows.get(id);
  }

  private remember(rows: NoteRow[]): NoteRow[] {
    for (const row of rows) this.rows.set(row.id, row);
    return rows;
  }

  /** Undeleted and readable by the viewer. */
  visible = (note: NoteRow | undefined): note is NoteRow => {
    if (!note || note.deletedAt) return false;
    if (!this.audience) return true;
    if (!this.readableNotebooks.has(note.notebookId)) {
      const access = notebookAccess(this.ctx, this.audience.viewer, getNotebook(this.ctx, note.notebookId));
      this.readableNotebooks.set(note.notebookId, access !== "none");
    }
    return this.readableNotebooks.get(note.notebookId)!;
  };

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
    return this.remember(inboundReferencesOf(this.ctx, note.id)).filter(this.visible);
  }

  shuffle(notes: NoteRow[]): NoteRow[] {
    return this.ctx.randomizer.shuffle(notes);
  }
}
