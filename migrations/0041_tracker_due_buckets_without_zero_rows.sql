-- Hand-written: tracker_due_buckets keeps only buckets that count something. A review moves a
-- tracker out of a bucket that is then usually empty; left behind, those rows grew by one per
-- 15 minutes of learning and every forecast and Recall badge summed them. Each trigger now
-- deletes the (user, bucket) rows its -1 brought to zero (only when it took one away: an import
-- bringing thousands of trackers and notes in has nothing to clean); the existing zeros go at once.
DROP TRIGGER `tracker_due_buckets_tracker_delete`;
--> statement-breakpoint
DROP TRIGGER `tracker_due_buckets_tracker_update`;
--> statement-breakpoint
DROP TRIGGER `tracker_due_buckets_note_update`;
--> statement-breakpoint
DROP TRIGGER `tracker_due_buckets_note_delete`;
--> statement-breakpoint
CREATE TRIGGER `tracker_due_buckets_tracker_delete` AFTER DELETE ON `memory_trackers`
WHEN OLD.removed_from_tracking = 0
BEGIN
  INSERT INTO `tracker_due_buckets` (`user_id`, `bucket`, `notebook_id`, `trackers`)
    SELECT OLD.user_id, OLD.next_recall_at / 900000, n.notebook_id, -1 FROM `notes` n WHERE n.id = OLD.note_id AND n.deleted_at IS NULL
    ON CONFLICT (`user_id`, `bucket`, `notebook_id`) DO UPDATE SET `trackers` = `trackers` + excluded.`trackers`;
  DELETE FROM `tracker_due_buckets` WHERE `user_id` = OLD.user_id AND `bucket` = OLD.next_recall_at / 900000 AND `trackers` = 0;
END;
--> statement-breakpoint
CREATE TRIGGER `tracker_due_buckets_tracker_update` AFTER UPDATE OF `next_recall_at`, `removed_from_tracking`, `note_id`, `user_id` ON `memory_trackers`
WHEN OLD.next_recall_at / 900000 <> NEW.next_recall_at / 900000 OR OLD.removed_from_tracking <> NEW.removed_from_tracking
  OR OLD.note_id <> NEW.note_id OR OLD.user_id <> NEW.user_id
BEGIN
  INSERT INTO `tracker_due_buckets` (`user_id`, `bucket`, `notebook_id`, `trackers`)
    SELECT OLD.user_id, OLD.next_recall_at / 900000, n.notebook_id, -1 FROM `notes` n
    WHERE OLD.removed_from_tracking = 0 AND n.id = OLD.note_id AND n.deleted_at IS NULL
    ON CONFLICT (`user_id`, `bucket`, `notebook_id`) DO UPDATE SET `trackers` = `trackers` + excluded.`trackers`;
  INSERT INTO `tracker_due_buckets` (`user_id`, `bucket`, `notebook_id`, `trackers`)
    SELECT NEW.user_id, NEW.next_recall_at / 900000, n.notebook_id, 1 FROM `notes` n
    WHERE NEW.removed_from_tracking = 0 AND n.id = NEW.note_id AND n.deleted_at IS NULL
    ON CONFLICT (`user_id`, `bucket`, `notebook_id`) DO UPDATE SET `trackers` = `trackers` + excluded.`trackers`;
  DELETE FROM `tracker_due_buckets`
    WHERE OLD.removed_from_tracking = 0 AND `user_id` = OLD.user_id AND `bucket` = OLD.next_recall_at / 900000 AND `trackers` = 0;
END;
--> statement-breakpoint
-- A note deleted or restored, or moved to another notebook, moves all its trackers' counts.
CREATE TRIGGER `tracker_due_buckets_note_update` AFTER UPDATE OF `deleted_at`, `notebook_id` ON `notes`
WHEN (OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL) OR OLD.notebook_id <> NEW.notebook_id
BEGIN
  INSERT INTO `tracker_due_buckets` (`user_id`, `bucket`, `notebook_id`, `trackers`)
    SELECT m.user_id, m.next_recall_at / 900000, OLD.notebook_id, -COUNT(*) FROM `memory_trackers` m
    WHERE OLD.deleted_at IS NULL AND m.note_id = OLD.id AND m.removed_from_tracking = 0
    GROUP BY m.user_id, m.next_recall_at / 900000
    ON CONFLICT (`user_id`, `bucket`, `notebook_id`) DO UPDATE SET `trackers` = `trackers` + excluded.`trackers`;
  INSERT INTO `tracker_due_buckets` (`user_id`, `bucket`, `notebook_id`, `trackers`)
    SELECT m.user_id, m.next_recall_at / 900000, NEW.notebook_id, COUNT(*) FROM `memory_trackers` m
    WHERE NEW.deleted_at IS NULL AND m.note_id = NEW.id AND m.removed_from_tracking = 0
    GROUP BY m.user_id, m.next_recall_at / 900000
    ON CONFLICT (`user_id`, `bucket`, `notebook_id`) DO UPDATE SET `trackers` = `trackers` + excluded.`trackers`;
  DELETE FROM `tracker_due_buckets` WHERE OLD.deleted_at IS NULL AND `trackers` = 0 AND (`user_id`, `bucket`) IN
    (SELECT m.user_id, m.next_recall_at / 900000 FROM `memory_trackers` m WHERE m.note_id = OLD.id AND m.removed_from_tracking = 0);
END;
--> statement-breakpoint
-- A note removed for good (its trackers go with it by cascade, after the note is gone).
CREATE TRIGGER `tracker_due_buckets_note_delete` BEFORE DELETE ON `notes`
WHEN OLD.deleted_at IS NULL
BEGIN
  INSERT INTO `tracker_due_buckets` (`user_id`, `bucket`, `notebook_id`, `trackers`)
    SELECT m.user_id, m.next_recall_at / 900000, OLD.notebook_id, -COUNT(*) FROM `memory_trackers` m
    WHERE m.note_id = OLD.id AND m.removed_from_tracking = 0
    GROUP BY m.user_id, m.next_recall_at / 900000
    ON CONFLICT (`user_id`, `bucket`, `notebook_id`) DO UPDATE SET `trackers` = `trackers` + excluded.`trackers`;
  DELETE FROM `tracker_due_buckets` WHERE `trackers` = 0 AND (`user_id`, `bucket`) IN
    (SELECT m.user_id, m.next_recall_at / 900000 FROM `memory_trackers` m WHERE m.note_id = OLD.id AND m.removed_from_tracking = 0);
END;
--> statement-breakpoint
DELETE FROM `tracker_due_buckets` WHERE `trackers` = 0;
