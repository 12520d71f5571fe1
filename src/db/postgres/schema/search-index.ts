// The PostgreSQL twin of src/db/schema/search-index.ts (see src/db/postgres/schema/common.ts).
import { bigint, index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { bytea } from "./common";
import { notes } from "./notes";

export const noteEmbeddingBits = pgTable(
  "note_embedding_bits",
  {
    noteId: integer("note_id")
      .primaryKey()
      .references(() => notes.id, { onDelete: "cascade" }),
    notebookId: integer("notebook_id").notNull(),
    model: text("model").notNull(),
    dimensions: integer("dimensions").notNull(),
    bits: bytea("bits").notNull(),
  },
  (table) => [index("note_embedding_bits_model").on(table.model, table.dimensions)],
);

export const searchIndexState = pgTable("search_index_state", {
  id: integer("id").primaryKey(),
  // A generation is a wall-clock time in milliseconds (the test reset), past 2³¹.
  bitsVersion: bigint("bits_version", { mode: "number" }).notNull().default(0),
});

export const noteEmbeddingBitsChanges = pgTable("note_embedding_bits_changes", {
  seq: integer("seq").primaryKey().generatedByDefaultAsIdentity(),
  noteId: integer("note_id").notNull(),
});
