import { type AnySQLiteColumn, blob, index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { circles } from "./circles";
import { bool, id, timestamp } from "./common";
import { users } from "./users";

/** A notebook: a tree of notes under one head note, owned by its creator, or by a circle when circleId is set. */
export const notebooks = sqliteTable(
  "notebooks",
  {
    id: id(),
    creatorId: integer("creator_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Set right after the head note is created, in the same transaction. */
    headNoteId: integer("head_note_id").references((): AnySQLiteColumn => notes.id),
    skipMemoryTrackingEntirely: bool("skip_memory_tracking_entirely").notNull().default(false),
    numberOfQuestionsInAssessment: integer("number_of_questions_in_assessment"),
    certificateExpiry: text("certificate_expiry").notNull().default("1y"),
    certifiable: bool("certifiable").notNull().default(false),
    /** The circle that owns the notebook (its members read and edit it); null for a personal notebook. */
    circleId: integer("circle_id").references((): AnySQLiteColumn => circles.id),
    createdAt: timestamp("created_at").notNull(),
    updatedAt: timestamp("updated_at").notNull(),
  },
  (table) => [index("notebooks_creator_id_idx").on(table.creatorId), index("notebooks_circle_id_idx").on(table.circleId)],
);

/**
 * A note. Its place in the tree is (parentId, siblingOrder); a note with a targetNoteId is a link
 * ("reification") whose title is the link type. Deleting stamps deletedAt (soft delete, undoable).
 */
export const notes = sqliteTable(
  "notes",
  {
    id: id(),
    notebookId: integer("notebook_id")
      .notNull()
      .references((): AnySQLiteColumn => notebooks.id, { onDelete: "cascade" }),
    parentId: integer("parent_id").references((): AnySQLiteColumn => notes.id),
    targetNoteId: integer("target_note_id").references((): AnySQLiteColumn => notes.id),
    title: text("title").notNull(),
    details: text("details").notNull().default(""),
    siblingOrder: integer("sibling_order").notNull(),
    wikidataId: text("wikidata_id"),
    /** Accessories: a URL, and an image (uploaded, by URL, or the parent's) with a mask. */
    url: text("url"),
    imageId: integer("image_id").references((): AnySQLiteColumn => noteImages.id, { onDelete: "set null" }),
    imageUrl: text("image_url"),
    useParentImage: bool("use_parent_image").notNull().default(false),
    imageMask: text("image_mask"),
    /** Recall settings: level 0-6 orders assimilation; spelling adds a spelling tracker; skip keeps it out. */
    level: integer("level").notNull().default(0),
    rememberSpelling: bool("remember_spelling").notNull().default(false),
    skipMemoryTracking: bool("skip_memory_tracking").notNull().default(false),
    createdAt: timestamp("created_at").notNull(),
    updatedAt: timestamp("updated_at").notNull(),
    deletedAt: timestamp("deleted_at"),
    /** The note whose deletion deleted this one (itself or an ancestor): undo restores exactly that batch. */
    deletionRootId: integer("deletion_root_id"),
    /**
     * How many times the title and the details have changed: the version an editor's save says it
     * was based on. Raised by triggers on every change, by any writer (note_text_revisions).
     */
    titleRevision: integer("title_revision").notNull().default(0),
    detailsRevision: integer("details_revision").notNull().default(0),
  },
  (table) => [
    index("notes_parent_order_idx").on(table.parentId, table.siblingOrder),
    index("notes_notebook_id_idx").on(table.notebookId),
    index("notes_target_note_id_idx").on(table.targetNoteId),
    index("notes_updated_at_idx").on(table.updatedAt),
  ],
);

/**
 * The recent texts of a note's title and details, by revision: the base a save was made on, for
 * merging it with what others saved since (services/notes/text-merge-save.ts). Kept by triggers;
 * only the last revisions are kept (a save based on an older one is answered as a conflict).
 */
export const noteTextRevisions = sqliteTable(
  "note_text_revisions",
  {
    noteId: integer("note_id")
      .notNull()
      .references(() => notes.id, { onDelete: "cascade" }),
    field: text("field", { enum: ["title", "details"] }).notNull(),
    revision: integer("revision").notNull(),
    text: text("text").notNull(),
  },
  (table) => [primaryKey({ columns: [table.noteId, table.field, table.revision] })],
);

/** Images uploaded for notes, stored in the database file (a backup stays one file). */
export const noteImages = sqliteTable("note_images", {
  id: id(),
  userId: integer("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  contentType: text("content_type").notNull(),
  bytes: blob("bytes", { mode: "buffer" }).notNull(),
  createdAt: timestamp("created_at").notNull(),
});

/**
 * Embeddings of notes for semantic search: the note's path, title and details embedded by the
 * configured model. Compared with sqlite-vec's distance functions, after filtering to the notes
 * the user may read.
 */
export const noteEmbeddings = sqliteTable("note_embeddings", {
  noteId: integer("note_id")
    .primaryKey()
    .references(() => notes.id, { onDelete: "cascade" }),
  model: text("model").notNull(),
  dimensions: integer("dimensions").notNull(),
  /** float32 little-endian, as sqlite-vec reads it. */
  embedding: blob("embedding", { mode: "buffer" }).notNull(),
  /** The text that was embedded, hashed: unchanged notes are not embedded again. */
  sourceHash: text("source_hash").notNull(),
  updatedAt: timestamp("updated_at").notNull(),
});

/**
 * The outbox of note changes that others follow (re-embedding): one row per change of a note's
 * text or place, written by triggers (migration 0030) in the same transaction as the change,
 * whichever code wrote the note; src/store/note-changes takes the rows and queues their work.
 *   text     the note's own embedded text changed (created, details edited, restored)
 *   subtree  the note's title or parent changed: its text and every descendant's context changed
 */
export const noteChanges = sqliteTable("note_changes", {
  id: id(),
  noteId: integer("note_id").notNull(),
  kind: text("kind", { enum: ["text", "subtree"] }).notNull(),
});
