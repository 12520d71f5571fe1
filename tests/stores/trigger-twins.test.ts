/**
 * Every SQLite trigger has its PostgreSQL counterpart (migrations-postgres/*_triggers.sql): the map
 * below names, for each trigger the SQLite migrations leave, the PostgreSQL trigger that does its
 * work. A trigger added on SQLite only fails here until its PL/pgSQL twin is written (and tested
 * in triggers.test.ts or note-triggers.test.ts). On PostgreSQL each named twin must exist.
 */
import { describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { openDatabase } from "../../src/db/connection";
import { rawAll } from "../../src/store/session";
import { databaseUnderTestOfFile, postgresTestUrl } from "../support/database-under-test";

/** FTS5's triggers have no twin: literal search on PostgreSQL reads pg_trgm GIN indexes on notes. */
const TRIGRAM_INDEXES = "pg_trgm GIN indexes";

const POSTGRES_TWIN: Record<string, string> = {
  cache_versions_after_accounts_delete: "cache_versions_after_accounts",
  cache_versions_after_accounts_update: "cache_versions_after_accounts",
  cache_versions_after_assimilation_candidates_delete: "cache_versions_after_assimilation_candidates",
  cache_versions_after_assimilation_candidates_insert: "cache_versions_after_assimilation_candidates",
  cache_versions_after_assimilation_candidates_update: "cache_versions_after_assimilation_candidates",
  cache_versions_after_circle_members_delete: "cache_versions_after_circle_members",
  cache_versions_after_circle_members_insert: "cache_versions_after_circle_members",
  cache_versions_after_circle_members_update: "cache_versions_after_circle_members",
  cache_versions_after_conversation_messages_delete: "cache_versions_after_conversation_messages",
  cache_versions_after_conversation_messages_insert: "cache_versions_after_conversation_messages",
  cache_versions_after_conversation_messages_update: "cache_versions_after_conversation_messages",
  cache_versions_after_conversations_delete: "cache_versions_after_conversations",
  cache_versions_after_conversations_insert: "cache_versions_after_conversations",
  cache_versions_after_conversations_update: "cache_versions_after_conversations",
  cache_versions_after_memory_trackers_delete: "cache_versions_after_memory_trackers",
  cache_versions_after_memory_trackers_insert: "cache_versions_after_memory_trackers",
  cache_versions_after_memory_trackers_review: "cache_versions_after_memory_trackers",
  cache_versions_after_memory_trackers_update: "cache_versions_after_memory_trackers",
  cache_versions_after_notebooks_delete: "cache_versions_after_notebooks",
  cache_versions_after_notebooks_insert: "cache_versions_after_notebooks",
  cache_versions_after_notebooks_owner: "cache_versions_after_notebooks",
  cache_versions_after_notebooks_update: "cache_versions_after_notebooks",
  cache_versions_after_notes_delete: "cache_versions_after_notes_insert_delete",
  cache_versions_after_notes_insert: "cache_versions_after_notes_insert_delete",
  cache_versions_after_notes_update: "cache_versions_after_notes_update",
  cache_versions_after_sessions_delete: "cache_versions_after_sessions",
  cache_versions_after_sessions_insert: "cache_versions_after_sessions",
  cache_versions_after_sessions_update: "cache_versions_after_sessions",
  cache_versions_after_subscriptions_delete: "cache_versions_after_subscriptions",
  cache_versions_after_subscriptions_insert: "cache_versions_after_subscriptions",
  cache_versions_after_subscriptions_update: "cache_versions_after_subscriptions",
  cache_versions_after_users_delete: "cache_versions_after_users",
  cache_versions_after_users_insert: "cache_versions_after_users",
  cache_versions_after_users_update: "cache_versions_after_users",
  candidates_after_note_delete: "candidates_after_note_delete",
  candidates_after_note_insert: "candidates_after_note_insert",
  candidates_after_note_update: "candidates_after_note_update",
  candidates_after_notebook_owner_change: "candidates_after_notebook_owner_change",
  note_changes_after_details: "note_changes_after_update",
  note_changes_after_insert: "note_changes_after_insert",
  note_changes_after_move: "note_changes_after_update",
  note_changes_after_restore: "note_changes_after_update",
  note_changes_after_title: "note_changes_after_update",
  note_details_revision_after_update: "note_text_revisions",
  note_embedding_bits_after_delete: "note_embedding_bits_after_delete",
  note_embedding_bits_after_insert: "note_embedding_bits_after_insert",
  note_embedding_bits_after_update: "note_embedding_bits_after_update",
  note_embedding_bits_note_moved: "note_embedding_bits_note_moved",
  note_title_revision_after_update: "note_text_revisions",
  notebooks_kept_while_held: "notebooks_kept_while_held",
  notes_fts_after_delete: TRIGRAM_INDEXES,
  notes_fts_after_insert: TRIGRAM_INDEXES,
  notes_fts_after_update: TRIGRAM_INDEXES,
  notes_title_fts_after_delete: TRIGRAM_INDEXES,
  notes_title_fts_after_insert: TRIGRAM_INDEXES,
  notes_title_fts_after_update: TRIGRAM_INDEXES,
  recall_log_aggregates_insert: "recall_log_aggregates_insert",
  recall_log_never_edited: "recall_log_never_edited",
  recall_log_notebook_counts_after_insert: "recall_log_notebook_counts_after_insert",
  recall_log_notebook_counts_after_update: "recall_log_notebook_counts_after_update",
  recall_log_notebook_counts_note_delete: "recall_log_notebook_counts_note_delete",
  recall_log_notebook_counts_note_moved: "recall_log_notebook_counts_note_moved",
  recall_log_notebook_counts_tracker_delete: "recall_log_notebook_counts_tracker_delete",
  recall_log_notebook_counts_tracker_moved: "recall_log_notebook_counts_tracker_moved",
  tracker_aggregates_after_delete: "tracker_aggregates_after_delete",
  tracker_aggregates_after_insert: "tracker_aggregates_after_insert",
  tracker_aggregates_enter: "tracker_aggregates_after_update",
  tracker_aggregates_leave: "tracker_aggregates_after_update",
  tracker_due_buckets_note_delete: "tracker_due_buckets_note_delete",
  tracker_due_buckets_note_update: "tracker_due_buckets_note_update",
  tracker_due_buckets_tracker_delete: "tracker_due_buckets_tracker_delete",
  tracker_due_buckets_tracker_insert: "tracker_due_buckets_tracker_insert",
  tracker_due_buckets_tracker_update: "tracker_due_buckets_tracker_update",
  trackers_after_delete: "trackers_after_delete",
  trackers_after_insert: "trackers_after_insert",
  trackers_after_removed_change: "trackers_after_removed_change",
};

const under = databaseUnderTestOfFile();

describe("the triggers of both databases", () => {
  test("every SQLite trigger has a PostgreSQL twin named in the map, and the map names no trigger SQLite lacks", () => {
    const { sqlite } = openDatabase(":memory:");
    const names = sqlite
      .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name")
      .all()
      .map((row) => row.name);
    sqlite.close();
    expect(names).toEqual(Object.keys(POSTGRES_TWIN).sort());
  });

  test.skipIf(!postgresTestUrl())("on PostgreSQL, every twin exists, and so do the trigram indexes", async () => {
    const triggers = await under.database.read((s) =>
      rawAll<{ name: string }>(s, sql`SELECT tgname AS name FROM pg_trigger WHERE NOT tgisinternal`),
    );
    const present = new Set(triggers.map((row) => row.name));
    for (const twin of new Set(Object.values(POSTGRES_TWIN))) {
      if (twin !== TRIGRAM_INDEXES) expect({ twin, present: present.has(twin) }).toEqual({ twin, present: true });
    }
    const indexes = await under.database.read((s) =>
      rawAll<{ name: string }>(
        s,
        sql`SELECT indexname AS name FROM pg_indexes WHERE tablename = 'notes' AND indexdef LIKE '%gin_trgm_ops%'`,
      ),
    );
    expect(indexes.map((row) => row.name).sort()).toEqual(["notes_details_trgm_idx", "notes_title_trgm_idx"]);
  });
});
