/**
 * Note search: literal (FTS5 in literal-sqlite.ts, pg_trgm in literal-postgres.ts) and semantic
 * (sqlite-vec in semantic-sqlite.ts, distances computed in semantic-postgres.ts),
 * and the embeddings they compare (note_embeddings: written here only; their binary copy and its
 * log follow by trigger, binary-index-store.ts). Every method that answers notes is given the
 * scope the policy allowed (the reader's notebooks), and answers only notes in it.
 */
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { defineStore, read, type StoreOf, write } from "../define";
import { all, byDialect, rawAll, run, type Session, type Step } from "../session";
import { prune, takeLogWritersTurn } from "./binary-index-store";
import { literalSearch as literalOnPostgres } from "./literal-postgres";
import type { SearchHit, SearchScope } from "./literal-ranking";
import { literalSearch } from "./literal-sqlite";
import * as semanticPostgres from "./semantic-postgres";
import * as semanticSqlite from "./semantic-sqlite";

export type { NoteText, SearchHit, SearchScope } from "./literal-ranking";

/** A note to embed: its text, its ancestors' titles (root first) and the hash of what it was last embedded from. */
export interface EmbeddingSourceRow {
  id: number;
  title: string;
  details: string;
  ancestorTitles: string[];
  currentHash: string | undefined;
}

/** A vector to store for a note. */
export interface NewEmbedding {
  noteId: number;
  model: string;
  dimensions: number;
  /** float32 little-endian. */
  embedding: Buffer;
  sourceHash: string;
}

function* literal(s: Session, scope: SearchScope, key: string): Step<SearchHit[]> {
  return yield* byDialect(s, { sqlite: () => literalSearch(s, scope, key), postgres: () => literalOnPostgres(s, scope, key) });
}

function* rankCandidates(
  s: Session,
  scope: SearchScope,
  candidates: number[],
  model: string,
  vector: Buffer,
  dimensions: number,
  maxDistance: number,
): Step<SearchHit[]> {
  return yield* byDialect(s, {
    sqlite: () => semanticSqlite.rankCandidates(s, scope, candidates, model, vector, dimensions, maxDistance),
    postgres: () => semanticPostgres.rankCandidates(s, scope, candidates, model, vector, dimensions, maxDistance),
  });
}

function* exactScan(s: Session, scope: SearchScope, model: string, vector: Buffer, dimensions: number, maxDistance: number) {
  return yield* byDialect(s, {
    sqlite: () => semanticSqlite.exactScan(s, scope, model, vector, dimensions, maxDistance),
    postgres: () => semanticPostgres.exactScan(s, scope, model, vector, dimensions, maxDistance),
  });
}

function* scopeHoldsAtMost(s: Session, notebookIds: readonly number[], count: number): Step<boolean> {
  return yield* byDialect(s, {
    sqlite: () => semanticSqlite.scopeHoldsAtMost(s, notebookIds, count),
    postgres: () => semanticPostgres.scopeHoldsAtMost(s, notebookIds, count),
  });
}

function* noteTexts(s: Session, noteIds: number[]) {
  return yield* byDialect(s, {
    sqlite: () => semanticSqlite.noteTexts(s, noteIds),
    postgres: () => semanticPostgres.noteTexts(s, noteIds),
  });
}

function* someNoteUnembedded(s: Session): Step<boolean> {
  return yield* byDialect(s, {
    sqlite: () => semanticSqlite.someNoteUnembedded(s),
    postgres: () => semanticPostgres.someNoteUnembedded(s),
  });
}

function* embeddedCount(s: Session, notebookIds: readonly number[], jobKinds: string[]) {
  return yield* byDialect(s, {
    sqlite: () => semanticSqlite.embeddedCount(s, notebookIds, jobKinds),
    postgres: () => semanticPostgres.embeddedCount(s, notebookIds, jobKinds),
  });
}

function* embeddableNotesAfter(s: Session, afterNoteId: number, limit: number): Step<number[]> {
  return yield* byDialect(s, {
    sqlite: () => semanticSqlite.embeddableNotesAfter(s, afterNoteId, limit),
    postgres: () => semanticPostgres.embeddableNotesAfter(s, afterNoteId, limit),
  });
}

function* embeddableNotesOf(s: Session, notebookId: number): Step<number[]> {
  return yield* byDialect(s, {
    sqlite: () => semanticSqlite.embeddableNotesOf(s, notebookId),
    postgres: () => semanticPostgres.embeddableNotesOf(s, notebookId),
  });
}

/** The ancestor titles of each note, root first, in one recursive query. */
function* ancestorTitles(s: Session, noteIds: number[]): Step<Map<number, string[]>> {
  const parent = s.t.notes;
  const note = alias(parent, "note");
  const rows = yield* rawAll<{ startId: number; title: string }>(
    s,
    sql`WITH RECURSIVE chain(start_id, parent_id, title, depth) AS (
         SELECT ${note.id}, ${parent.parentId}, ${parent.title}, 1 FROM ${parent} ${note} JOIN ${parent} ON ${parent.id} = ${note.parentId}
         WHERE ${inArray(note.id, noteIds)}
         UNION ALL
         SELECT chain.start_id, ${parent.parentId}, ${parent.title}, chain.depth + 1 FROM chain JOIN ${parent} ON ${parent.id} = chain.parent_id
       ) SELECT start_id AS "startId", title FROM chain ORDER BY start_id, depth DESC`,
  );
  const titles = new Map<number, string[]>();
  for (const row of rows) {
    const list = titles.get(row.startId) ?? [];
    list.push(row.title);
    titles.set(row.startId, list);
  }
  return titles;
}

/**
 * The embeddable notes among the ids (not deleted, not links), in id order, each with its text,
 * its ancestors' titles and the hash its stored embedding was made from (if any). For a batch of
 * one embeddings request (a few dozen notes).
 */
function* embeddingSources(s: Session, noteIds: number[]): Step<EmbeddingSourceRow[]> {
  if (noteIds.length === 0) return [];
  const { notes: n, noteEmbeddings: e } = s.t;
  const rows = yield* all(
    s,
    s.db
      .select({ id: n.id, title: n.title, details: n.details, currentHash: e.sourceHash })
      .from(n)
      .leftJoin(e, eq(e.noteId, n.id))
      .where(and(inArray(n.id, noteIds), isNull(n.deletedAt), isNull(n.targetNoteId)))
      .orderBy(n.id),
  );
  const paths = yield* ancestorTitles(
    s,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({ ...row, currentHash: row.currentHash ?? undefined, ancestorTitles: paths.get(row.id) ?? [] }));
}

/**
 * Stores the notes' vectors (replacing older ones), for the notes that still exist (one may have
 * gone meanwhile: deleted for good, or a test reset), then prunes the binary copy's change log to
 * its newest `keepChanges` rows. Answers how many were stored.
 */
function* storeEmbeddings(s: Session, embeddings: NewEmbedding[], keepChanges: number, now: number): Step<number> {
  if (embeddings.length === 0) return 0;
  yield* takeLogWritersTurn(s);
  const { notes: n, noteEmbeddings: e } = s.t;
  const existing = new Set(
    (yield* all(
      s,
      s.db
        .select({ id: n.id })
        .from(n)
        .where(
          inArray(
            n.id,
            embeddings.map((row) => row.noteId),
          ),
        ),
    )).map((row) => row.id),
  );
  const kept = embeddings.filter((row) => existing.has(row.noteId));
  const updatedAt = new Date(now);
  for (const row of kept) {
    const values = { model: row.model, dimensions: row.dimensions, embedding: row.embedding, sourceHash: row.sourceHash, updatedAt };
    yield* run(
      s,
      s.db
        .insert(e)
        .values({ noteId: row.noteId, ...values })
        .onConflictDoUpdate({ target: e.noteId, set: values }),
    );
  }
  yield* prune(s, keepChanges);
  return kept.length;
}

/** Forgets every embedding of the notebook's notes ("Reset index"). */
function* forgetNotebookEmbeddings(s: Session, notebookId: number): Step<number> {
  yield* takeLogWritersTurn(s);
  const { notes: n, noteEmbeddings: e } = s.t;
  return yield* run(s, s.db.delete(e).where(inArray(e.noteId, s.db.select({ id: n.id }).from(n).where(eq(n.notebookId, notebookId)))));
}

export const searchStore = defineStore({
  literal: read(literal),
  rankCandidates: read(rankCandidates),
  exactScan: read(exactScan),
  scopeHoldsAtMost: read(scopeHoldsAtMost),
  noteTexts: read(noteTexts),
  someNoteUnembedded: read(someNoteUnembedded),
  embeddedCount: read(embeddedCount),
  embeddableNotesAfter: read(embeddableNotesAfter),
  embeddableNotesOf: read(embeddableNotesOf),
  embeddingSources: read(embeddingSources),
  storeEmbeddings: write(storeEmbeddings),
  forgetNotebookEmbeddings: write(forgetNotebookEmbeddings),
});
export type SearchStore = StoreOf<typeof searchStore>;
