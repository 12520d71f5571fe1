-- Literal search: an FTS5 index over note titles and details, with the trigram tokenizer so that
-- substrings match (not only whole words). External content: the text lives once, in notes.
-- Triggers keep it in step in the same transaction as every change to a note.
CREATE VIRTUAL TABLE `notes_fts` USING fts5(title, details, content='notes', content_rowid='id', tokenize='trigram');
--> statement-breakpoint
CREATE TRIGGER `notes_fts_after_insert` AFTER INSERT ON `notes` BEGIN
  INSERT INTO notes_fts(rowid, title, details) VALUES (new.id, new.title, new.details);
END;
--> statement-breakpoint
CREATE TRIGGER `notes_fts_after_delete` AFTER DELETE ON `notes` BEGIN
  INSERT INTO notes_fts(notes_fts, rowid, title, details) VALUES ('delete', old.id, old.title, old.details);
END;
--> statement-breakpoint
CREATE TRIGGER `notes_fts_after_update` AFTER UPDATE OF title, details ON `notes` BEGIN
  INSERT INTO notes_fts(notes_fts, rowid, title, details) VALUES ('delete', old.id, old.title, old.details);
  INSERT INTO notes_fts(rowid, title, details) VALUES (new.id, new.title, new.details);
END;
--> statement-breakpoint
INSERT INTO notes_fts(notes_fts) VALUES ('rebuild');
