-- Hand-written (issue 16): the (notebook, title) index holds only the notes a search can find
-- (undeleted, not links), so a one- or two-character key's title-prefix range is read from the
-- index alone, without fetching each note's row to check it (services/search/literal.ts,
-- titlePrefixSearch). It replaces notes_notebook_title, which held every note.
DROP INDEX IF EXISTS `notes_notebook_title`;--> statement-breakpoint
CREATE INDEX `notes_searchable_title` ON `notes` (`notebook_id`, `title` COLLATE NOCASE) WHERE `deleted_at` IS NULL AND `target_note_id` IS NULL;
