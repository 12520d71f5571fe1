/**
 * The rows around some notes, in one read unit: what the note graph needs (notes by id, their
 * ancestors, children and grandchildren, the link notes pointing at them), asked for a whole
 * level of the graph at once rather than note by note. Deleted notes are left out of the lists
 * (children, grandchildren, inbound references) as in `note-rows.ts`; ancestors are kept.
 */
import { and, asc, inArray, isNull, sql } from "drizzle-orm";
import { all, type Session, type Step } from "../session";
import type { NoteRow } from "./note-rows";

export interface NeighbourhoodRequest {
  /** Notes by id. */
  notes?: number[];
  /** Each note's ancestors (the rows of its whole chain, the note's own row too). */
  ancestorsOf?: number[];
  /** Each note's undeleted children, in sibling order. */
  childrenOf?: number[];
  /** Each note's undeleted children and, for each of them, its undeleted children. */
  grandchildrenOf?: number[];
  /** The undeleted link notes whose target is each note, oldest first. */
  inboundReferencesTo?: number[];
}

export interface NeighbourhoodRows {
  /** Every row loaded (notes, ancestors, children, references), each once. */
  rows: NoteRow[];
  /** Parent id and its children's ids in sibling order, for every parent asked (an empty list too). */
  children: [number, number[]][];
  /** Target id and its inbound references' ids, oldest first, for every target asked. */
  inbound: [number, number[]][];
}

/** Lists of ids go to the database this many at a time (well under either database's parameter limit). */
const CHUNK = 500;

function* inChunks(ids: number[], query: (chunk: number[]) => Step<NoteRow[]>): Step<NoteRow[]> {
  const rows: NoteRow[] = [];
  const unique = [...new Set(ids)];
  for (let i = 0; i < unique.length; i += CHUNK) rows.push(...(yield* query(unique.slice(i, i + CHUNK))));
  return rows;
}

function* notesWithIds(s: Session, ids: number[]): Step<NoteRow[]> {
  const { notes } = s.t;
  return yield* inChunks(ids, (chunk) => all(s, s.db.select().from(notes).where(inArray(notes.id, chunk))));
}

/** The rows of the notes and of every ancestor of theirs: one recursive query per chunk. */
function* chainsOf(s: Session, ids: number[]): Step<NoteRow[]> {
  const { notes } = s.t;
  return yield* inChunks(ids, (chunk) => {
    const starts = sql.join(
      chunk.map((id) => sql`${id}`),
      sql`, `,
    );
    const chain = sql`WITH RECURSIVE chain(id, parent_id) AS (
        SELECT ${notes.id}, ${notes.parentId} FROM ${notes} WHERE ${notes.id} IN (${starts})
        UNION
        SELECT ${notes.id}, ${notes.parentId} FROM ${notes} JOIN chain ON ${notes.id} = chain.parent_id
      ) SELECT id FROM chain`;
    return all(s, s.db.select().from(notes).where(sql`${notes.id} IN (${chain})`));
  });
}

function* childrenOfAll(s: Session, parentIds: number[]): Step<NoteRow[]> {
  const { notes } = s.t;
  return yield* inChunks(parentIds, (chunk) =>
    all(
      s,
      s.db
        .select()
        .from(notes)
        .where(and(inArray(notes.parentId, chunk), isNull(notes.deletedAt)))
        .orderBy(asc(notes.parentId), asc(notes.siblingOrder), asc(notes.id)),
    ),
  );
}

function* referencesToAll(s: Session, targetIds: number[]): Step<NoteRow[]> {
  const { notes } = s.t;
  return yield* inChunks(targetIds, (chunk) =>
    all(
      s,
      s.db
        .select()
        .from(notes)
        .where(and(inArray(notes.targetNoteId, chunk), isNull(notes.deletedAt)))
        .orderBy(asc(notes.id)),
    ),
  );
}

/** Groups rows by a key, keeping their order, with an empty list for every key asked that has none. */
function grouped(keys: number[], rows: NoteRow[], keyOf: (row: NoteRow) => number | null): [number, number[]][] {
  const groups = new Map<number, number[]>(keys.map((key) => [key, []]));
  for (const row of rows) groups.get(keyOf(row)!)?.push(row.id);
  return [...groups];
}

export function* neighbourhoodRows(s: Session, request: NeighbourhoodRequest): Step<NeighbourhoodRows> {
  const loaded = new Map<number, NoteRow>();
  const keep = (rows: NoteRow[]) => {
    for (const row of rows) loaded.set(row.id, row);
    return rows;
  };
  keep(yield* notesWithIds(s, request.notes ?? []));
  keep(yield* chainsOf(s, request.ancestorsOf ?? []));
  const grandparents = request.grandchildrenOf ?? [];
  const middle = keep(yield* childrenOfAll(s, grandparents));
  const parents = [...(request.childrenOf ?? []), ...middle.map((row) => row.id)];
  const children = keep(yield* childrenOfAll(s, parents));
  const targets = request.inboundReferencesTo ?? [];
  const references = keep(yield* referencesToAll(s, targets));
  return {
    rows: [...loaded.values()],
    children: [...grouped(grandparents, middle, (row) => row.parentId), ...grouped(parents, children, (row) => row.parentId)],
    inbound: grouped(targets, references, (row) => row.targetNoteId),
  };
}
