import type { AppContext } from "../../context";
import type { NotebookCard } from "../../store/notes/notebooks";
import type { RealmRows } from "../../store/notes/realm";
import { NotFoundError } from "../errors";
import { ReadableNotes, type Reader } from "../policies/readable-notes";
import { plainTextOfMarkdown } from "./plain-text";
import type { NotebookRow, NoteRow } from "./rows";

/** The NoteTopology JSON: the title (or link type), short details and, for links, subject and object. */
export interface NoteTopologyJson {
  id: number;
  titleOrPredicate: string;
  shortDetails: string;
  linkType?: string;
  parentOrSubjectNoteTopology?: NoteTopologyJson;
  objectNoteTopology?: NoteTopologyJson;
  /** A note the reader may not read (an Engram addition): no title, no details; shown as "a note you cannot read". */
  unreadable?: true;
}

/**
 * A note's name in text: its title, or for a link note the sentence "subject — link type —
 * object" (its own title is only the link type), as islands/lib/note-title.tsx shows it.
 */
export function topologyText(topology: NoteTopologyJson): string {
  if (!topology.linkType) return topology.titleOrPredicate;
  return [topology.parentOrSubjectNoteTopology?.titleOrPredicate, topology.linkType, topology.objectNoteTopology?.titleOrPredicate]
    .filter((part): part is string => part !== undefined)
    .join(" — ");
}

export interface NoteJson {
  id: number;
  noteTopology: NoteTopologyJson;
  details: string;
  parentId: number | null;
  createdAt: string;
  updatedAt: string;
  /** How many times the title and the details have changed: a save says which one it was made from. */
  titleRevision: number;
  detailsRevision: number;
  deletedAt?: string;
  wikidataId?: string;
  /** Undeleted children (an Engram addition that lets the note tree show counts without loading each child). */
  childrenCount?: number;
  /** How many of those children are links (an Engram addition: the tree leaves links out); absent for none. */
  linkCount?: number;
  /** A placeholder for a note the reader may not read (an Engram addition). */
  unreadable?: true;
}

/** A circle as other JSON names it (Circle in the reference). */
export interface CircleJson {
  id: number;
  name: string;
}

export interface NotebookJson {
  id: number;
  title: string;
  shortDetails: string;
  headNoteId: number;
  /** The creator's login: given to the creator alone (for "is this mine?"), never to anyone else. */
  creatorId?: string;
  /** The creator's display name (an Engram addition): how the bazaar and the admin pages name the author. */
  creatorName: string;
  certifiable: boolean;
  notebookSettings: {
    skipMemoryTrackingEntirely: boolean;
    numberOfQuestionsInAssessment: number | null;
    certificateExpiry: string;
  };
  /** The circle that owns the notebook, when it is a circle notebook. */
  circle?: CircleJson;
  updated_at: string;
}

/**
 * A child in a realm: its title and short details (in noteTopology) without its full details, so
 * opening a note, or its parent in the tree, never downloads every sibling's text.
 */
export type ChildNoteJson = Omit<NoteJson, "details">;

export interface NoteRealmJson {
  id: number;
  note: NoteJson;
  /**
   * The first CHILDREN_PAGE_SIZE children in sibling order (all of them when there are no more);
   * `note.childrenCount` says how many there are in all.
   */
  children?: ChildNoteJson[];
  /**
   * Present only when the note has more children than `children` lists: the id of the last child
   * listed, to pass as `after` to GET /api/notes/{note}/children for the next page (an Engram addition).
   */
  moreChildrenAfter?: number;
  inboundReferences?: NoteJson[];
  notebook?: NotebookJson;
  fromBazaar?: boolean;
}

/** One page of a note's children (GET /api/notes/{note}/children), after the realm's first page. */
export interface ChildrenPageJson {
  children: ChildNoteJson[];
  /** Present only when more children follow: the id of the last child listed, the next page's `after`. */
  moreChildrenAfter?: number;
}

/**
 * How many children a realm lists (the note page shows as many, and loads the rest as the reader
 * scrolls): a note with 1,000 children costs about what a note with 40 does.
 */
export const CHILDREN_PAGE_SIZE = 40;
/** The most children one GET /api/notes/{note}/children answers. */
export const MAX_CHILDREN_PAGE_SIZE = 200;

const SHORT_DETAILS_LENGTH = 50;

/**
 * What can make a text's first characters read differently once its Markdown is read: a mark of
 * inline syntax, an entity or escape, whitespace other than single spaces between words (a
 * newline can start a block), or what opens a block at the start of the text (a list item, front
 * matter, a thematic break).
 */
const NEEDS_CLEANUP = /[[#>*_`~<&\\|]|[^\S ]| {2}|^ |^[-+]|^\d{1,9}[.)]/;

/**
 * Whether the first characters of the details (`head`, at most one past the cut) read the same
 * once the Markdown is read. A space just past the cut never shows, and the text goes on past it
 * when a letter or digit follows; otherwise trailing spaces would be trimmed, so Markdown decides.
 */
export function readsAsWritten(head: string, details: string): boolean {
  return !NEEDS_CLEANUP.test(head) && (!head.endsWith(" ") || /[A-Za-z0-9]/.test(details.charAt(head.length)));
}

/** How much of long details is read for their short details (more when that shows too few words). */
const SHORT_DETAILS_PREFIX = 4000;

/** At most SHORT_DETAILS_LENGTH characters of a plain text, "..." when cut. */
const cut = (plain: string) => (plain.length > SHORT_DETAILS_LENGTH ? `${plain.slice(0, SHORT_DETAILS_LENGTH)}...` : plain);

/** The first words of the details as plain text, for cards and search results. */
export function shortDetailsOf(details: string, prefixLength = SHORT_DETAILS_PREFIX): string {
  // Details that begin with plain words are their own first characters: no reading of the whole
  // text (a search presents 30 of them; details can be 100,000 characters).
  const head = details.length > SHORT_DETAILS_LENGTH ? details.slice(0, SHORT_DETAILS_LENGTH + 1) : details;
  if (readsAsWritten(head, details)) return cut(head);
  // Long details are read up to a blank line past the prefix (a block boundary), more while that
  // gives too few words: reference links defined further down are the only text this can miss.
  for (let length = prefixLength; length < details.length; length *= 2) {
    const blank = details.indexOf("\n\n", length);
    if (blank < 0) break;
    const plain = plainTextOfMarkdown(details.slice(0, blank));
    if (plain.length > SHORT_DETAILS_LENGTH) return cut(plain);
  }
  return cleanShortDetails(details);
}

/**
 * shortDetailsOf from the first characters of longer details (at least SHORT_DETAILS_LENGTH + 2),
 * when they are the answer; undefined when the whole text must be read.
 */
export function shortDetailsFromHead(head: string): string | undefined {
  if (head.length < SHORT_DETAILS_LENGTH + 2) return undefined;
  const first = head.slice(0, SHORT_DETAILS_LENGTH + 1);
  return readsAsWritten(first, head) ? cut(first) : undefined;
}

/** shortDetailsOf by reading the whole text as Markdown. */
export function cleanShortDetails(details: string): string {
  return cut(plainTextOfMarkdown(details));
}

function bareTopology(note: NoteRow): NoteTopologyJson {
  return { id: note.id, titleOrPredicate: note.title, shortDetails: shortDetailsOf(note.details) };
}

/**
 * What stands for a note the reader may not read (a tracker's or a conversation's note that left
 * the notebooks the reader may read): its id, and no title, details or place.
 */
function placeholderTopology(note: Pick<NoteRow, "id">): NoteTopologyJson {
  return { id: note.id, titleOrPredicate: "", shortDetails: "", unreadable: true };
}

/**
 * Presents notes for one reader, loading what their topologies need (link subjects and objects)
 * in batches. Every note it shows is asked of the policy for that reader (policies/readable-notes.ts):
 * a related note the reader may not read is left out of a topology (a link then names no object),
 * and a note presented for itself becomes a placeholder with no title or details.
 * `withAncestors` gives the focus note its whole ancestor chain (for breadcrumbs).
 */
export class NotePresenter {
  private readonly related = new Map<number, NoteRow>();
  private rights?: ReadableNotes;

  /** A presenter for a reader reads their rights in load(); one given a ReadableNotes has them. */
  constructor(ctx: AppContext, reader: Reader);
  constructor(ctx: AppContext, readable: ReadableNotes);
  constructor(
    private readonly ctx: AppContext,
    private readonly reader: Reader | ReadableNotes,
  ) {
    if (reader instanceof ReadableNotes) this.rights = reader;
  }

  /** A presenter with the reader's rights read, for notes that are all known already (know). */
  static async of(ctx: AppContext, reader: Reader | ReadableNotes): Promise<NotePresenter> {
    return new NotePresenter(ctx, reader instanceof ReadableNotes ? reader : await ReadableNotes.of(ctx, reader));
  }

  /** The reader's read rights (read by load() or given). */
  get readable(): ReadableNotes {
    if (!this.rights) throw new Error("NotePresenter: load() before presenting: the reader's rights are read there");
    return this.rights;
  }

  /** Notes (and the rows their topologies need) already loaded: nothing is read. */
  know(rows: NoteRow[]) {
    for (const row of rows) this.related.set(row.id, row);
    return this;
  }

  /** Loads the subjects and objects of the link notes among these notes (shown only where the reader may read them). */
  async load(rows: NoteRow[]) {
    this.rights ??= await ReadableNotes.of(this.ctx, this.reader as Reader);
    this.know(rows);
    // Most lists hold no link notes: nothing to read then.
    if (!rows.some((row) => row.targetNoteId !== null)) return this;
    return this.know(await this.ctx.stores.notes.relatedOf(rows));
  }

  /** A loaded note the reader may read. */
  private shown(id: number): NoteRow | undefined {
    const row = this.related.get(id);
    return row && this.readable.note(row) ? row : undefined;
  }

  topology(note: NoteRow, ancestors?: NoteRow[]): NoteTopologyJson {
    if (!this.readable.note(note)) return placeholderTopology(note);
    const topology = bareTopology(note);
    if (note.targetNoteId !== null) {
      topology.linkType = note.title;
      const target = this.shown(note.targetNoteId);
      if (target) topology.objectNoteTopology = bareTopology(target);
    }
    const path = ancestors?.filter(this.readable.note);
    if (path && path.length > 0) {
      topology.parentOrSubjectNoteTopology = path.reduce<NoteTopologyJson | undefined>((parent, ancestor) => {
        const t = this.related.has(ancestor.id) && ancestor.targetNoteId !== null ? this.topology(ancestor) : bareTopology(ancestor);
        if (parent) t.parentOrSubjectNoteTopology = parent;
        return t;
      }, undefined);
    } else if (note.targetNoteId !== null && note.parentId !== null) {
      const subject = this.shown(note.parentId);
      if (subject) topology.parentOrSubjectNoteTopology = bareTopology(subject);
    }
    return topology;
  }

  note(note: NoteRow, extra: { ancestors?: NoteRow[]; childrenCount?: number; linkCount?: number } = {}): NoteJson {
    if (!this.readable.note(note)) return placeholderNote(note);
    return {
      id: note.id,
      noteTopology: this.topology(note, extra.ancestors),
      details: note.details,
      parentId: note.parentId,
      createdAt: note.createdAt.toISOString(),
      updatedAt: note.updatedAt.toISOString(),
      titleRevision: note.titleRevision,
      detailsRevision: note.detailsRevision,
      ...(note.deletedAt ? { deletedAt: note.deletedAt.toISOString() } : {}),
      ...(note.wikidataId ? { wikidataId: note.wikidataId } : {}),
      ...(extra.childrenCount !== undefined ? { childrenCount: extra.childrenCount } : {}),
      ...(extra.linkCount ? { linkCount: extra.linkCount } : {}),
    };
  }

  /** A child of a realm: everything but its full details (its short details are in its topology). */
  child(note: NoteRow, counts: { children: number; links: number } = { children: 0, links: 0 }): ChildNoteJson {
    const { details: _omitted, ...rest } = this.note(note, { childrenCount: counts.children, linkCount: counts.links });
    return rest;
  }
}

/** A note the reader may not read, as Note JSON: its id and when it was made, nothing of its text. */
export function placeholderNote(note: Pick<NoteRow, "id" | "createdAt">): NoteJson {
  const createdAt = note.createdAt.toISOString();
  return {
    id: note.id,
    noteTopology: placeholderTopology(note),
    details: "",
    parentId: null,
    createdAt,
    updatedAt: createdAt,
    titleRevision: 0,
    detailsRevision: 0,
    unreadable: true,
  };
}

/**
 * Notebook JSON for the reader, from its card (head note, creator's name, circle). The author is
 * named by their display name; their login (creatorId), which would let anyone aim sign-in
 * attempts at the account, goes to the creator alone.
 */
export function notebookJson(reader: Reader, { notebook, head, creatorName, circle }: NotebookCard): NotebookJson {
  const isCreator = reader !== undefined && reader.user.id === notebook.creatorId;
  return {
    id: notebook.id,
    title: head?.title ?? "",
    shortDetails: head ? shortDetailsOf(head.details) : "",
    headNoteId: notebook.headNoteId ?? 0,
    ...(isCreator ? { creatorId: reader.account.externalIdentifier } : {}),
    creatorName: creatorName ?? "",
    certifiable: notebook.certifiable,
    notebookSettings: {
      skipMemoryTrackingEntirely: notebook.skipMemoryTrackingEntirely,
      numberOfQuestionsInAssessment: notebook.numberOfQuestionsInAssessment,
      certificateExpiry: notebook.certificateExpiry,
    },
    ...(circle ? { circle } : {}),
    updated_at: notebook.updatedAt.toISOString(),
  };
}

/** Notebook JSON of these notebooks for the reader, in their order; `heads` may hold their head notes already loaded. */
export async function presentNotebooks(
  ctx: AppContext,
  reader: Reader,
  notebooks: NotebookRow[],
  heads: NoteRow[] = [],
): Promise<NotebookJson[]> {
  return (await ctx.stores.notes.notebookCards(notebooks, heads)).map((card) => notebookJson(reader, card));
}

/** presentNotebooks for one notebook. */
export async function presentNotebook(ctx: AppContext, reader: Reader, notebook: NotebookRow, headNote?: NoteRow): Promise<NotebookJson> {
  const [json] = await presentNotebooks(ctx, reader, [notebook], headNote ? [headNote] : []);
  return json!;
}

/** How many children a realm lists: a page (the default), or every one (e.g. MCP's get_note). */
export type ChildrenLimit = number | "all";

/** The NoteRealm JSON of loaded realm rows for the reader (whose read rights `readable` holds, as realmRows was given them). */
export function presentRealm(ctx: AppContext, readable: ReadableNotes, rows: RealmRows, fromBazaar = false): NoteRealmJson {
  const { note, ancestors, children, more, counts, own, inbound, related, card } = rows;
  const reader = readable.reader;
  const presenter = new NotePresenter(ctx, readable).know([note, ...ancestors, ...children, ...inbound, ...related]);
  return {
    id: note.id,
    note: presenter.note(note, { ancestors, childrenCount: own.children, linkCount: own.links }),
    children: children.map((child) => presenter.child(child, counts.get(child.id))),
    ...(more ? { moreChildrenAfter: children.at(-1)!.id } : {}),
    inboundReferences: inbound.map((ref) => presenter.note(ref)),
    notebook: notebookJson(reader, card),
    fromBazaar,
  };
}

/**
 * The NoteRealm of a note, loaded in one snapshot: the note with its ancestors, the first page of
 * its children (with their counts; `childrenLimit: "all"` for every one), the inbound references
 * the reader may read and the notebook. 404 when the note is gone. The caller has authorised the read.
 */
export async function noteRealm(
  ctx: AppContext,
  reader: Reader,
  noteId: number,
  { childrenLimit = CHILDREN_PAGE_SIZE, fromBazaar = false }: { childrenLimit?: ChildrenLimit; fromBazaar?: boolean } = {},
): Promise<NoteRealmJson> {
  const readable = await ReadableNotes.of(ctx, reader);
  const rows = await ctx.stores.notes.realmRows(noteId, childrenLimit, (notebookId) => readable.notebook(notebookId));
  if (!rows) throw new NotFoundError("Note");
  return presentRealm(ctx, readable, rows, fromBazaar);
}

/** The NoteRealm of a note for the reader (for answers after a change). */
export function realmOf(ctx: AppContext, reader: Reader, note: Pick<NoteRow, "id">): Promise<NoteRealmJson> {
  return noteRealm(ctx, reader, note.id);
}

/**
 * The children of a note after the child `after` (a row already checked to be one of its
 * children), `limit` of them, as GET /api/notes/{note}/children answers.
 */
export async function presentChildrenPage(
  ctx: AppContext,
  reader: Reader,
  noteId: number,
  limit: number,
  after?: NoteRow,
): Promise<ChildrenPageJson> {
  const { rows, more, counts, related } = await ctx.stores.notes.childrenPageRows(
    noteId,
    limit,
    after && { siblingOrder: after.siblingOrder, id: after.id },
  );
  const presenter = (await NotePresenter.of(ctx, reader)).know([...rows, ...related]);
  return {
    children: rows.map((child) => presenter.child(child, counts.get(child.id))),
    ...(more ? { moreChildrenAfter: rows.at(-1)!.id } : {}),
  };
}
