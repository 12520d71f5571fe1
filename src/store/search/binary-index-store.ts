/**
 * The binary-quantised embeddings (note_embedding_bits, kept by triggers) as the semantic search
 * keeps them in memory: read whole once, then followed through the ordered log of the notes whose
 * bits changed (note_embedding_bits_changes), so a process refreshes only what changed, whoever
 * changed it. The generation (search_index_state) changes only when every table is emptied.
 */
import { and, asc, eq, gt, inArray, lte, sql } from "drizzle-orm";
import { defineStore, read, type StoreOf, write } from "../define";
import { all, one, rawAll, run, type Session, type Step } from "../session";

export interface BitsRow {
  noteId: number;
  notebookId: number;
  bits: Uint8Array;
}

/** Where the log stands: its generation and the sequence numbers it holds (0 when empty). */
export interface BitsLogState {
  generation: number;
  lastSeq: number;
  firstSeq: number;
}

function* logState(s: Session): Step<BitsLogState> {
  const { searchIndexState: state, noteEmbeddingBitsChanges: changes } = s.t;
  const [row] = yield* rawAll<{ generation: number | null; lastSeq: number | null; firstSeq: number | null }>(
    s,
    sql`SELECT (SELECT ${state.bitsVersion} FROM ${state} WHERE ${state.id} = 1) AS generation,
               (SELECT max(${changes.seq}) FROM ${changes}) AS "lastSeq",
               (SELECT min(${changes.seq}) FROM ${changes}) AS "firstSeq"`,
  );
  return { generation: Number(row?.generation ?? 0), lastSeq: Number(row?.lastSeq ?? 0), firstSeq: Number(row?.firstSeq ?? 0) };
}

/** Every note's bits of one model and dimension, by notebook, with the log's state at that moment. */
export function* loadAll(s: Session, model: string, dimensions: number): Step<{ state: BitsLogState; rows: BitsRow[] }> {
  const bits = s.t.noteEmbeddingBits;
  const state = yield* logState(s);
  const rows = yield* all(
    s,
    s.db
      .select({ noteId: bits.noteId, notebookId: bits.notebookId, bits: bits.bits })
      .from(bits)
      .where(and(eq(bits.model, model), eq(bits.dimensions, dimensions)))
      .orderBy(asc(bits.notebookId), asc(bits.noteId)),
  );
  return { state, rows };
}

export type BitsRefresh =
  | { kind: "current" }
  /** The copy cannot follow (another generation, or the log was pruned past it): load it whole. */
  | { kind: "reload" }
  /** The notes changed after `since`, each with its bits now (null: gone, or of another model or dimension). */
  | { kind: "changes"; lastSeq: number; notes: { noteId: number; row: BitsRow | null }[] };

/**
 * What changed after the copy's `since` (of `generation`), up to `limit` notes: more than that and
 * loading whole is cheaper.
 */
export function* changesSince(
  s: Session,
  generation: number,
  since: number,
  model: string,
  dimensions: number,
  limit: number,
): Step<BitsRefresh> {
  const state = yield* logState(s);
  if (state.generation !== generation || (state.firstSeq > 0 && state.firstSeq > since + 1)) return { kind: "reload" };
  if (state.lastSeq <= since) return { kind: "current" };
  const { noteEmbeddingBitsChanges: changes, noteEmbeddingBits: bits } = s.t;
  const changed = yield* all(
    s,
    s.db
      .selectDistinct({ noteId: changes.noteId })
      .from(changes)
      .where(and(gt(changes.seq, since), lte(changes.seq, state.lastSeq)))
      .limit(limit + 1),
  );
  if (changed.length > limit) return { kind: "reload" };
  const ids = changed.map((row) => row.noteId);
  const rows = yield* all(
    s,
    s.db
      .select({ noteId: bits.noteId, notebookId: bits.notebookId, bits: bits.bits })
      .from(bits)
      .where(and(inArray(bits.noteId, ids), eq(bits.model, model), eq(bits.dimensions, dimensions))),
  );
  const byNote = new Map(rows.map((row) => [row.noteId, row]));
  return { kind: "changes", lastSeq: state.lastSeq, notes: ids.map((noteId) => ({ noteId, row: byNote.get(noteId) ?? null })) };
}

/** The log's generation, for a copy in memory to know whether it still follows the same data. */
export function* generation(s: Session): Step<number> {
  return (yield* logState(s)).generation;
}

/** The advisory lock the log's writers take turns on (PostgreSQL): any number, the same for every process. */
const LOG_WRITERS_LOCK = 7_363_771_501;

/**
 * Takes this unit's turn to write what the log records (embeddings, a note's notebook), until the
 * unit ends: call it before the first such write, and before locking any row. The log numbers its
 * changes as they are written, but units commit in their own order, and a copy that saw change n+1
 * moves past n for good, so a unit that logged n and committed later was never seen. Taking turns,
 * the writers commit in the order of their numbers. On SQLite a write unit is the only writer already.
 */
export function* takeLogWritersTurn(s: Session): Step<void> {
  if (s.dialect === "sqlite") return;
  yield* rawAll(s, sql`SELECT pg_advisory_xact_lock(${LOG_WRITERS_LOCK})`);
}

/** Drops the log's rows but the newest `keep` (a copy further behind loads whole). */
export function* prune(s: Session, keep: number): Step<number> {
  const changes = s.t.noteEmbeddingBitsChanges;
  const state = yield* logState(s);
  if (state.lastSeq - state.firstSeq < keep) return 0;
  return yield* run(s, s.db.delete(changes).where(lte(changes.seq, state.lastSeq - keep)));
}

/** A new generation (after every table was emptied): every copy in memory loads whole again. */
export function* restartGeneration(s: Session, generation: number): Step<void> {
  const state = s.t.searchIndexState;
  const existing = yield* one(s, s.db.select({ id: state.id }).from(state).where(eq(state.id, 1)));
  if (existing) yield* run(s, s.db.update(state).set({ bitsVersion: generation }).where(eq(state.id, 1)));
  else yield* run(s, s.db.insert(state).values({ id: 1, bitsVersion: generation }));
}

export const binaryIndexStore = defineStore({
  loadAll: read(loadAll),
  changesSince: read(changesSince),
  generation: read(generation),
  prune: write(prune),
  restartGeneration: write(restartGeneration),
});
export type BinaryIndexStore = StoreOf<typeof binaryIndexStore>;
