-- Hand-written (issue 16): a trigram FTS5 index of note titles alone, beside notes_fts (titles and
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
