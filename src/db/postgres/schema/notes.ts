// The PostgreSQL twin of src/db/schema/notes.ts (see src/db/postgres/schema/common.ts).
import { type AnyPgColumn, index, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { circles } from "./circles";
import { bool, bytea, id, timestamp } from "./common";
import { users } from "./users";

export const notebooks = pgTable(
  "notebooks",
  {
    id: id(),
    creatorId: integer("creator_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    headNoteId: integer("head_note_id").references((): AnyPgColumn => notes.id),
    skipMemoryTrackingEntirely: bool("skip_memory_tracking_entirely").notNull().default(false),
    numberOfQuestionsInAssessment: integer("number_of_questions_in_assessment"),
    certificateExpiry: text("certificate_expiry").notNull().default("1y"),
    certifiable: bool("certifiable").notNull().default(false),
    circleId: integer("circle_id").references((): AnyPgColumn => circles.id),
    createdAt: timestamp("created_at").notNull(),
    updatedAt: timestamp("updated_at").notNull(),
  },
  (table) => [index("notebooks_creator_id_idx").on(table.creatorId), index("notebooks_circle_id_idx").on(table.circleId)],
);

export const notes = pgTable(
  "notes",
  {
    id: id(),
    notebookId: integer("notebook_id")
      .notNull()
      .references((): AnyPgColumn => notebooks.id, { onDelete: "cascade" }),
    parentId: integer("parent_id").references((): AnyPgColumn => notes.id),
    targetNoteId: integer("target_note_id").references((): AnyPgColumn => notes.id),
    title: text("title").notNull(),
    details: text("details").notNull().default(""),
    siblingOrder: integer("sibling_order").notNull(),
    wikidataId: text("wikidata_id"),
    url: text("url"),
    imageId: integer("image_id").references((): AnyPgColumn => noteImages.id, { onDelete: "set null" }),
    imageUrl: text("image_url"),
    useParentImage: bool("use_parent_image").notNull().default(false),
    imageMask: text("image_mask"),
    level: integer("level").notNull().default(0),
    rememberSpelling: bool("remember_spelling").notNull().default(false),
    skipMemoryTracking: bool("skip_memory_tracking").notNull().default(false),
    createdAt: timestamp("created_at").notNull(),
    updatedAt: timestamp("updated_at").notNull(),
    deletedAt: timestamp("deleted_at"),
    deletionRootId: integer("deletion_root_id"),
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

export const noteTextRevisions = pgTable(
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

export const noteImages = pgTable("note_images", {
  id: id(),
  userId: integer("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  contentType: text("content_type").notNull(),
  bytes: bytea("bytes").notNull(),
  createdAt: timestamp("created_at").notNull(),
});

export const noteEmbeddings = pgTable("note_embeddings", {
  noteId: integer("note_id")
    .primaryKey()
    .references(() => notes.id, { onDelete: "cascade" }),
  model: text("model").notNull(),
  dimensions: integer("dimensions").notNull(),
  embedding: bytea("embedding").notNull(),
  sourceHash: text("source_hash").notNull(),
  updatedAt: timestamp("updated_at").notNull(),
});

export const noteChanges = pgTable("note_changes", {
  id: id(),
  noteId: integer("note_id").notNull(),
  kind: text("kind", { enum: ["text", "subtree"] }).notNull(),
});
