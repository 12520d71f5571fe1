-- Hand-written: every change of a note's title or details, by any writer (the note page, MCP,
-- imports, link types, Wikidata), raises its revision and keeps the new text under it, with the
-- text it replaced (the first time, for notes older than this), so that a save based on an
-- earlier revision can be merged with what changed since. Only the last 50 revisions of each
-- field are kept.
CREATE TRIGGER `note_title_revision_after_update` AFTER UPDATE OF `title` ON `notes` WHEN NEW.`title` IS NOT OLD.`title` BEGIN
  INSERT OR IGNORE INTO `note_text_revisions` (`note_id`, `field`, `revision`, `text`) VALUES (NEW.`id`, 'title', OLD.`title_revision`, OLD.`title`);
  UPDATE `notes` SET `title_revision` = OLD.`title_revision` + 1 WHERE `id` = NEW.`id`;
  INSERT OR REPLACE INTO `note_text_revisions` (`note_id`, `field`, `revision`, `text`) VALUES (NEW.`id`, 'title', OLD.`title_revision` + 1, NEW.`title`);
  DELETE FROM `note_text_revisions` WHERE `note_id` = NEW.`id` AND `field` = 'title' AND `revision` <= OLD.`title_revision` + 1 - 50;
END;
--> statement-breakpoint
CREATE TRIGGER `note_details_revision_after_update` AFTER UPDATE OF `details` ON `notes` WHEN NEW.`details` IS NOT OLD.`details` BEGIN
  INSERT OR IGNORE INTO `note_text_revisions` (`note_id`, `field`, `revision`, `text`) VALUES (NEW.`id`, 'details', OLD.`details_revision`, OLD.`details`);
  UPDATE `notes` SET `details_revision` = OLD.`details_revision` + 1 WHERE `id` = NEW.`id`;
  INSERT OR REPLACE INTO `note_text_revisions` (`note_id`, `field`, `revision`, `text`) VALUES (NEW.`id`, 'details', OLD.`details_revision` + 1, NEW.`details`);
  DELETE FROM `note_text_revisions` WHERE `note_id` = NEW.`id` AND `field` = 'details' AND `revision` <= OLD.`details_revision` + 1 - 50;
END;
