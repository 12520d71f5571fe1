import type { AppContext } from "../../context";
import type { NeighbourhoodRequest } from "../../store/notes/notes-store";
import type { NoteRow } from "../notes/rows";
import type { ReadableNotes } from "../policies";
import type { NoteLookup } from "./bare-note";

/** A row or list asked of the neighbourhood before it was loaded: what to load, then ask again. */
export class NotLoaded extends Error {
  constructor(readonly request: NeighbourhoodRequest) {
    super("a note of the neighbourhood was asked for before it was loaded");
    this.name = "NotLoaded";
  }
}

/**
 * The notes around a focus note, for one reader, for one graph build or presenter. Rows are
 * loaded by `load` (a whole level at a time: one store call for many notes) and then read
 * synchronously; reading one that was not loaded throws `NotLoaded` with what to load.
 * Every list leaves out deleted notes and notes the reader may not read (links can reach into
 * other people's notebooks): the policy is asked for each (policies/readable-notes.ts). A
 * signed-out reader (undefined) reads bazaar notebooks only.
 */
export class Neighbourhood implements NoteLookup {
  /** Rows by id; undefined: loaded, and no such note. */
  private readonly rows = new Map<number, NoteRow | undefined>();
  /** Undeleted children by parent id, in sibling order (before the reader's filter). */
  private readonly childLists = new Map<number, NoteRow[]>();
  /** Undeleted link notes by target id, oldest first (before the reader's filter). */
  private readonly inboundLists = new Map<number, NoteRow[]>();
  readonly readable: ReadableNotes;

  constructor(
    private readonly ctx: AppContext,
    readable: ReadableNotes,
  ) {
    this.readable = readable;
  }

  /** Loads, in one store call, what the request names and is not loaded yet. */
  async load(request: NeighbourhoodRequest): Promise<void> {
    const missing = (ids: number[] | undefined, known: Map<number, unknown>) => [...new Set(ids ?? [])].filter((id) => !known.has(id));
    const wanted: NeighbourhoodRequest = {
      notes: missing(request.notes, this.rows),
      // A chain is loaded when its note and every ancestor are.
      ancestorsOf: [...new Set(request.ancestorsOf ?? [])].filter((id) => !this.chainLoaded(id)),
      childrenOf: missing(request.childrenOf, this.childLists),
      grandchildrenOf: [...new Set(request.grandchildrenOf ?? [])].filter(
        (id) => !this.childLists.has(id) || this.childLists.get(id)!.some((child) => !this.childLists.has(child.id)),
      ),
      inboundReferencesTo: missing(request.inboundReferencesTo, this.inboundLists),
    };
    if (Object.values(wanted).every((ids) => ids.length === 0)) return;
    const loaded = await this.ctx.stores.notes.neighbourhoodRows(wanted);
    this.remember(loaded.rows);
    for (const id of [...wanted.notes!, ...wanted.ancestorsOf!]) if (!this.rows.has(id)) this.rows.set(id, undefined);
    const rowOf = (id: number) => this.rows.get(id)!;
    for (const [parentId, ids] of loaded.children) this.childLists.set(parentId, ids.map(rowOf));
    for (const [targetId, ids] of loaded.inbound) this.inboundLists.set(targetId, ids.map(rowOf));
  }

  /** Loads the rows `bareNote` shows beside these notes: their parents and link targets. */
  loadEnds(notes: NoteRow[]): Promise<void> {
    this.remember(notes);
    return this.load({ notes: notes.flatMap((note) => [note.parentId, note.targetNoteId]).filter((id): id is number => id !== null) });
  }

  /** The ids of the parents and link targets of every row loaded that are not loaded themselves. */
  missingEnds(): number[] {
    const ids = new Set<number>();
    for (const row of this.rows.values()) {
      for (const id of [row?.parentId, row?.targetNoteId]) if (id != null && !this.rows.has(id)) ids.add(id);
    }
    return [...ids];
  }

  private chainLoaded(id: number): boolean {
    const seen = new Set<number>();
    for (let at: number | null | undefined = id; at != null && !seen.has(at); at = this.rows.get(at)?.parentId) {
      if (!this.rows.has(at)) return false;
      seen.add(at);
    }
    return true;
  }

  get(id: number): NoteRow | undefined {
    if (!this.rows.has(id)) throw new NotLoaded({ notes: [id] });
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
    const children = this.childLists.get(note.id);
    if (!children) throw new NotLoaded({ childrenOf: [note.id] });
    return children.filter(this.visible);
  }

  /** The note and its siblings in sibling order: its parent's children ([] for a notebook's head note). */
  siblingsAndSelf(note: NoteRow | undefined): NoteRow[] {
    const parent = note?.parentId != null ? this.get(note.parentId) : undefined;
    return this.children(parent);
  }

  /** Ancestors, root first. */
  ancestors(note: NoteRow | undefined): NoteRow[] {
    if (!note) return [];
    const chain: NoteRow[] = [];
    const seen = new Set<number>([note.id]);
    for (let id = note.parentId; id !== null && !seen.has(id); ) {
      if (!this.rows.has(id)) throw new NotLoaded({ ancestorsOf: [note.id] });
      const row = this.rows.get(id);
      if (!row) break;
      chain.unshift(row);
      seen.add(id);
      id = row.parentId;
    }
    return chain.filter(this.visible);
  }

  /** Undeleted link notes whose target is the note, oldest first. */
  inboundReferences(note: NoteRow | undefined): NoteRow[] {
    if (!note) return [];
    const references = this.inboundLists.get(note.id);
    if (!references) throw new NotLoaded({ inboundReferencesTo: [note.id] });
    return references.filter(this.visible);
  }

  shuffle(notes: NoteRow[]): NoteRow[] {
    return this.ctx.randomizer.shuffle(notes);
  }
}
