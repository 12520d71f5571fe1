CREATE TABLE `note_changes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`note_id` integer NOT NULL,
	`kind` text NOT NULL
);
--> statement-breakpoint
-- Hand-written: the triggers that fill the outbox, in the same transaction as every change of a
-- note's text or place, by any code (services, imports, undo, the admin CLI).
CREATE TRIGGER `note_changes_after_insert` AFTER INSERT ON `notes` WHEN NEW.`target_note_id` IS NULL BEGIN
  INSERT INTO `note_changes` (`note_id`, `kind`) VALUES (NEW.`id`, 'text');
END;
--> statement-breakpoint
CREATE TRIGGER `note_changes_after_details` AFTER UPDATE OF `details` ON `notes` WHEN NEW.`details` IS NOT OLD.`details` BEGIN
  INSERT INTO `note_changes` (`note_id`, `kind`) VALUES (NEW.`id`, 'text');
END;
--> statement-breakpoint
CREATE TRIGGER `note_changes_after_title` AFTER UPDATE OF `title` ON `notes` WHEN NEW.`title` IS NOT OLD.`title` BEGIN
  INSERT INTO `note_changes` (`note_id`, `kind`) VALUES (NEW.`id`, 'subtree');
END;
--> statement-breakpoint
CREATE TRIGGER `note_changes_after_move` AFTER UPDATE OF `parent_id` ON `notes` WHEN NEW.`parent_id` IS NOT OLD.`parent_id` BEGIN
  INSERT INTO `note_changes` (`note_id`, `kind`) VALUES (NEW.`id`, 'subtree');
END;
--> statement-breakpoint
CREATE TRIGGER `note_changes_after_restore` AFTER UPDATE OF `deleted_at` ON `notes` WHEN OLD.`deleted_at` IS NOT NULL AND NEW.`deleted_at` IS NULL BEGIN
  INSERT INTO `note_changes` (`note_id`, `kind`) VALUES (NEW.`id`, 'text');
END;
