import { blob, index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { notes } from "./notes";

/**
 * The binary-quantised copy of every note embedding: one bit per dimension (sqlite-vec's
 * vec_quantize_binary: set when the value is positive), 32× smaller than the float vector, so the
 * semantic search can find its few hundred candidates by Hamming distance and re-rank only those
 * by exact cosine distance. Kept by triggers on note_embeddings (and on a note's notebook) in the
 * migration, never written by the application; notebook_id is the note's, for the search's scope.
 */
export const noteEmbeddingBits = sqliteTable(
  "note_embedding_bits",
  {
    noteId: integer("note_id")
      .primaryKey()
      .references(() => notes.id, { onDelete: "cascade" }),
    notebookId: integer("notebook_id").notNull(),
    model: text("model").notNull(),
    dimensions: integer("dimensions").notNull(),
    bits: blob("bits", { mode: "buffer" }).notNull(),
  },
  (table) => [index("note_embedding_bits_model").on(table.model, table.dimensions)],
);

/**
 * One row (id 1): the generation of note_embedding_bits as a whole. It changes only when every
 * table is emptied (the test reset): a server that keeps the bits in memory then loads them whole
 * again; otherwise it follows note_embedding_bits_changes.
 */
export const searchIndexState = sqliteTable("search_index_state", {
  id: integer("id").primaryKey(),
  bitsVersion: integer("bits_version").notNull().default(0),
});

/**
 * Which notes' bits changed (written, rewritten, deleted, moved to another notebook), in order:
 * one row per change, written by the triggers that keep note_embedding_bits (migration 0033). A
 * server that keeps the bits in memory reads the changes after the last one it applied and
 * refreshes only those notes. Old rows are pruned; a server that fell further behind loads whole.
 */
export const noteEmbeddingBitsChanges = sqliteTable("note_embedding_bits_changes", {
  seq: integer("seq").primaryKey({ autoIncrement: true }),
  noteId: integer("note_id").notNull(),
});
