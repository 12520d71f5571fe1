-- Hand-written (issue 16). First, a trigram FTS5 index of note titles alone, beside notes_fts (titles and
-- details). Literal search looks titles up first and stops when they fill the page; reading them
-- from notes_fts meant reading the details' postings too (8× larger at 100,000 notes), since a
-- column filter only drops hits after the postings are read. External content, kept by triggers in
-- the same transaction as every change to a note, like notes_fts.
CREATE VIRTUAL TABLE `notes_title_fts` USING fts5(title, content='notes', content_rowid='id', tokenize='trigram');
--> statement-breakpoint
CREATE TRIGGER `notes_title_fts_after_insert` AFTER INSERT ON `notes` BEGIN
  INSERT INTO notes_title_fts(rowid, title) VALUES (new.id, new.title);
END;
--> statement-breakpoint
CREATE TRIGGER `notes_title_fts_after_delete` AFTER DELETE ON `notes` BEGIN
  INSERT INTO notes_title_fts(notes_title_fts, rowid, title) VALUES ('delete', old.id, old.title);
END;
--> statement-breakpoint
CREATE TRIGGER `notes_title_fts_after_update` AFTER UPDATE OF title ON `notes` BEGIN
  INSERT INTO notes_title_fts(notes_title_fts, rowid, title) VALUES ('delete', old.id, old.title);
  INSERT INTO notes_title_fts(rowid, title) VALUES (new.id, new.title);
END;
--> statement-breakpoint
INSERT INTO notes_title_fts(notes_title_fts) VALUES ('rebuild');
--> statement-breakpoint
-- The short-key search's (notebook, title) index also holds the two columns its condition names,
-- so SQLite reads the titles from the index alone (before, it looked each row up in notes to check
-- them, although the index's own WHERE already says so).
DROP INDEX IF EXISTS `notes_searchable_title`;--> statement-breakpoint
CREATE INDEX `notes_searchable_title` ON `notes` (`notebook_id`, `title` COLLATE NOCASE, `deleted_at`, `target_note_id`) WHERE `deleted_at` IS NULL AND `target_note_id` IS NULL;
