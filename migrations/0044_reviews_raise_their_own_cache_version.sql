-- Hand-written: a review (a tracker's schedule changing, nothing else about it) raises the user's
-- "user-recall" version instead of "user-learning". The Recall badge and the statistics are kept at
-- both; the Assimilate and Messages badges only at "user-learning", so a review no longer counts
-- them again. Any other change to a tracker (its note, its user, spelling, when it was assimilated,
-- whether it is tracked) raises "user-learning" as before.
DROP TRIGGER `cache_versions_after_memory_trackers_update`;
--> statement-breakpoint
CREATE TRIGGER `cache_versions_after_memory_trackers_update` AFTER UPDATE ON `memory_trackers`
WHEN OLD.user_id <> NEW.user_id OR OLD.note_id <> NEW.note_id OR OLD.spelling <> NEW.spelling
  OR OLD.assimilated_at <> NEW.assimilated_at OR OLD.removed_from_tracking <> NEW.removed_from_tracking
BEGIN
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) VALUES ('user-learning', NEW.`user_id`, 1) ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) VALUES ('user-learning', OLD.`user_id`, 1) ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `cache_versions_after_memory_trackers_review` AFTER UPDATE ON `memory_trackers`
WHEN OLD.user_id = NEW.user_id AND OLD.note_id = NEW.note_id AND OLD.spelling = NEW.spelling
  AND OLD.assimilated_at = NEW.assimilated_at AND OLD.removed_from_tracking = NEW.removed_from_tracking
BEGIN
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) VALUES ('user-recall', NEW.`user_id`, 1) ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
END;
