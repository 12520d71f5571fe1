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
 * One row (id 1): a counter the same triggers raise on every change of note_embedding_bits, so a
 * server that keeps the bits in memory knows with one lookup whether its copy is current.
 */
export const searchIndexState = sqliteTable("search_index_state", {
  id: integer("id").primaryKey(),
  bitsVersion: integer("bits_version").notNull().default(0),
});
