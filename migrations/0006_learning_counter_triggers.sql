-- Keeps assimilation_candidates and user_tracker_counts in step with notes, notebooks and
-- memory_trackers, in the same transaction as every change. A candidate is a note of a notebook
-- the user owns that is not deleted, not skipped, and has no tracker of that user.
CREATE TRIGGER `candidates_after_note_insert` AFTER INSERT ON `notes` BEGIN
  INSERT OR IGNORE INTO assimilation_candidates (user_id, note_id, level, created_at)
  SELECT nb.creator_id, new.id, new.level, new.created_at FROM notebooks nb
  WHERE nb.id = new.notebook_id AND new.deleted_at IS NULL AND new.skip_memory_tracking = 0
    AND NOT EXISTS (SELECT 1 FROM memory_trackers m WHERE m.user_id = nb.creator_id AND m.note_id = new.id);
END;
--> statement-breakpoint
CREATE TRIGGER `candidates_after_note_update` AFTER UPDATE OF deleted_at, skip_memory_tracking, level, notebook_id, created_at ON `notes` BEGIN
  DELETE FROM assimilation_candidates WHERE note_id = new.id;
  INSERT OR IGNORE INTO assimilation_candidates (user_id, note_id, level, created_at)
  SELECT nb.creator_id, new.id, new.level, new.created_at FROM notebooks nb
  WHERE nb.id = new.notebook_id AND new.deleted_at IS NULL AND new.skip_memory_tracking = 0
    AND NOT EXISTS (SELECT 1 FROM memory_trackers m WHERE m.user_id = nb.creator_id AND m.note_id = new.id);
END;
--> statement-breakpoint
CREATE TRIGGER `candidates_after_note_delete` AFTER DELETE ON `notes` BEGIN
  DELETE FROM assimilation_candidates WHERE note_id = old.id;
END;
--> statement-breakpoint
CREATE TRIGGER `candidates_after_notebook_owner_change` AFTER UPDATE OF creator_id ON `notebooks` BEGIN
  DELETE FROM assimilation_candidates WHERE note_id IN (SELECT id FROM notes WHERE notebook_id = new.id);
  INSERT OR IGNORE INTO assimilation_candidates (user_id, note_id, level, created_at)
  SELECT new.creator_id, n.id, n.level, n.created_at FROM notes n
  WHERE n.notebook_id = new.id AND n.deleted_at IS NULL AND n.skip_memory_tracking = 0
    AND NOT EXISTS (SELECT 1 FROM memory_trackers m WHERE m.user_id = new.creator_id AND m.note_id = n.id);
END;
--> statement-breakpoint
CREATE TRIGGER `trackers_after_insert` AFTER INSERT ON `memory_trackers` BEGIN
  DELETE FROM assimilation_candidates WHERE user_id = new.user_id AND note_id = new.note_id;
  INSERT INTO user_tracker_counts (user_id, active_trackers) VALUES (new.user_id, CASE WHEN new.removed_from_tracking THEN 0 ELSE 1 END)
  ON CONFLICT (user_id) DO UPDATE SET active_trackers = active_trackers + excluded.active_trackers;
END;
--> statement-breakpoint
CREATE TRIGGER `trackers_after_removed_change` AFTER UPDATE OF removed_from_tracking ON `memory_trackers`
WHEN old.removed_from_tracking <> new.removed_from_tracking BEGIN
  UPDATE user_tracker_counts SET active_trackers = active_trackers + CASE WHEN new.removed_from_tracking THEN -1 ELSE 1 END
  WHERE user_id = new.user_id;
END;
--> statement-breakpoint
CREATE TRIGGER `trackers_after_delete` AFTER DELETE ON `memory_trackers` BEGIN
  UPDATE user_tracker_counts SET active_trackers = active_trackers - 1 WHERE user_id = old.user_id AND NOT old.removed_from_tracking;
  INSERT OR IGNORE INTO assimilation_candidates (user_id, note_id, level, created_at)
  SELECT old.user_id, n.id, n.level, n.created_at FROM notes n JOIN notebooks nb ON nb.id = n.notebook_id
  WHERE n.id = old.note_id AND nb.creator_id = old.user_id AND n.deleted_at IS NULL AND n.skip_memory_tracking = 0
    AND NOT EXISTS (SELECT 1 FROM memory_trackers m WHERE m.user_id = old.user_id AND m.note_id = n.id);
END;
--> statement-breakpoint
-- Existing data.
INSERT OR IGNORE INTO assimilation_candidates (user_id, note_id, level, created_at)
SELECT nb.creator_id, n.id, n.level, n.created_at FROM notes n JOIN notebooks nb ON nb.id = n.notebook_id
WHERE n.deleted_at IS NULL AND n.skip_memory_tracking = 0
  AND NOT EXISTS (SELECT 1 FROM memory_trackers m WHERE m.user_id = nb.creator_id AND m.note_id = n.id);
--> statement-breakpoint
INSERT OR REPLACE INTO user_tracker_counts (user_id, active_trackers)
SELECT user_id, count(*) FROM memory_trackers WHERE NOT removed_from_tracking GROUP BY user_id;
