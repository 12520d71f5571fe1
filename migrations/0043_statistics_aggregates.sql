-- Hand-written: the statistics' aggregates, kept in the same transaction as every change to what
-- they count, so /api/stats and /d/stats read a few rows per user whatever the history's size:
--   recall_log_hours           recalls per user and hour (beside recall_log_buckets' quarter hours)
--   user_tracker_counts        + the notes assimilated (active trackers that are not spelling) and the sum of intervals
--   tracker_stability_buckets  active FSRS trackers per stability bucket (< 1, 7, 30, 90, 365 days, more)
--   retrievability_crossings   when active FSRS trackers fall below each recall-probability bound, per day and quarter hour
--   recall_log_notebook_counts recalls per user and notebook (the notebook of the tracker's note)
-- A tracker's contribution is taken away where it counted and added where it now counts; a
-- crossing slot that counts nothing is deleted (a review moves every crossing of its tracker).
-- Crossings are kept within ±4e15 ms (about 127,000 years), so no slot overflows a 64-bit integer.

-- The ratios each user's crossings are counted with: the user's own (retrievability_thresholds,
-- written when their FSRS weights change), or else those of FSRS-6's default weights (decay
-- 0.1542; services/scheduling/fsrs.ts elapsedRatioAt, a test keeps the two equal).
CREATE VIEW `retrievability_ratios` AS
  SELECT `user_id`, `bound`, `ratio` FROM `retrievability_thresholds`
  UNION ALL
  SELECT u.id, d.bound, d.ratio FROM `users` u,
    (SELECT 0 AS bound, 9.287911224230818 AS ratio UNION ALL SELECT 1, 3.3159598011592966
     UNION ALL SELECT 2, 1.000000004501959 UNION ALL SELECT 3, 0.40255869380229475) d
  WHERE NOT EXISTS (SELECT 1 FROM `retrievability_thresholds` x WHERE x.user_id = u.id);
--> statement-breakpoint
CREATE TRIGGER `tracker_aggregates_after_insert` AFTER INSERT ON `memory_trackers`
WHEN NEW.removed_from_tracking = 0
BEGIN
  INSERT INTO `user_tracker_counts` (`user_id`, `active_notes`, `interval_ms`)
    VALUES (NEW.user_id, NEW.spelling = 0, NEW.next_recall_at - NEW.last_recalled_at)
    ON CONFLICT (`user_id`) DO UPDATE SET `active_notes` = `active_notes` + excluded.`active_notes`, `interval_ms` = `interval_ms` + excluded.`interval_ms`;
  INSERT INTO `tracker_stability_buckets` (`user_id`, `bucket`, `trackers`)
    SELECT NEW.user_id, CASE WHEN NEW.stability < 1 THEN 0 WHEN NEW.stability < 7 THEN 1 WHEN NEW.stability < 30 THEN 2
      WHEN NEW.stability < 90 THEN 3 WHEN NEW.stability < 365 THEN 4 ELSE 5 END, 1
    WHERE NEW.stability IS NOT NULL
    ON CONFLICT (`user_id`, `bucket`) DO UPDATE SET `trackers` = `trackers` + excluded.`trackers`;
  INSERT INTO `retrievability_crossings` (`user_id`, `span_ms`, `slot`, `bound`, `trackers`)
    SELECT NEW.user_id, sp.span_ms, floor(max(min(NEW.last_recalled_at + t.ratio * NEW.stability * 86400000, 4e15), -4e15) / sp.span_ms), t.bound, 1
    FROM `retrievability_ratios` t CROSS JOIN (SELECT 900000 AS span_ms UNION ALL SELECT 86400000) sp
    WHERE NEW.stability > 0
      AND t.user_id = NEW.user_id
    ON CONFLICT (`user_id`, `span_ms`, `slot`, `bound`) DO UPDATE SET `trackers` = `trackers` + excluded.`trackers`;
END;
--> statement-breakpoint
CREATE TRIGGER `tracker_aggregates_after_delete` AFTER DELETE ON `memory_trackers`
WHEN OLD.removed_from_tracking = 0
BEGIN
  UPDATE `user_tracker_counts` SET `active_notes` = `active_notes` - (OLD.spelling = 0),
    `interval_ms` = `interval_ms` - (OLD.next_recall_at - OLD.last_recalled_at)
    WHERE `user_id` = OLD.user_id;
  UPDATE `tracker_stability_buckets` SET `trackers` = `trackers` - 1
    WHERE OLD.stability IS NOT NULL AND `user_id` = OLD.user_id AND `bucket` = CASE WHEN OLD.stability < 1 THEN 0 WHEN OLD.stability < 7 THEN 1
      WHEN OLD.stability < 30 THEN 2 WHEN OLD.stability < 90 THEN 3 WHEN OLD.stability < 365 THEN 4 ELSE 5 END;
  UPDATE `retrievability_crossings` SET `trackers` = `trackers` - 1
    WHERE OLD.stability > 0 AND `user_id` = OLD.user_id AND (`span_ms`, `slot`, `bound`) IN
      (SELECT sp.span_ms, floor(max(min(OLD.last_recalled_at + t.ratio * OLD.stability * 86400000, 4e15), -4e15) / sp.span_ms), t.bound
       FROM `retrievability_ratios` t CROSS JOIN (SELECT 900000 AS span_ms UNION ALL SELECT 86400000) sp
       WHERE t.user_id = OLD.user_id);
  DELETE FROM `retrievability_crossings` WHERE `user_id` = OLD.user_id AND `trackers` = 0 AND (`span_ms`, `slot`, `bound`) IN
    (SELECT sp.span_ms, floor(max(min(OLD.last_recalled_at + t.ratio * OLD.stability * 86400000, 4e15), -4e15) / sp.span_ms), t.bound
     FROM `retrievability_ratios` t CROSS JOIN (SELECT 900000 AS span_ms UNION ALL SELECT 86400000) sp
     WHERE OLD.stability > 0 AND t.user_id = OLD.user_id);
END;
--> statement-breakpoint
-- A change takes the old state's contribution away (if it counted) and adds the new one's (if it
-- counts), as two triggers so that a tracker coming into tracking (an import's publishing
-- activates thousands) runs only the half it needs.
CREATE TRIGGER `tracker_aggregates_leave` AFTER UPDATE OF `removed_from_tracking`, `spelling`, `next_recall_at`, `last_recalled_at`, `stability`, `user_id` ON `memory_trackers`
WHEN OLD.removed_from_tracking = 0 AND (OLD.removed_from_tracking <> NEW.removed_from_tracking OR OLD.spelling <> NEW.spelling OR OLD.next_recall_at <> NEW.next_recall_at
  OR OLD.last_recalled_at <> NEW.last_recalled_at OR OLD.stability IS NOT NEW.stability OR OLD.user_id <> NEW.user_id)
BEGIN
  UPDATE `user_tracker_counts` SET `active_notes` = `active_notes` - (OLD.spelling = 0),
    `interval_ms` = `interval_ms` - (OLD.next_recall_at - OLD.last_recalled_at)
    WHERE `user_id` = OLD.user_id;
  UPDATE `tracker_stability_buckets` SET `trackers` = `trackers` - 1
    WHERE OLD.stability IS NOT NULL AND `user_id` = OLD.user_id AND `bucket` = CASE WHEN OLD.stability < 1 THEN 0 WHEN OLD.stability < 7 THEN 1 WHEN OLD.stability < 30 THEN 2
      WHEN OLD.stability < 90 THEN 3 WHEN OLD.stability < 365 THEN 4 ELSE 5 END;
  INSERT INTO `retrievability_crossings` (`user_id`, `span_ms`, `slot`, `bound`, `trackers`)
    SELECT OLD.user_id, sp.span_ms, floor(max(min(OLD.last_recalled_at + t.ratio * OLD.stability * 86400000, 4e15), -4e15) / sp.span_ms), t.bound, -1
    FROM `retrievability_ratios` t CROSS JOIN (SELECT 900000 AS span_ms UNION ALL SELECT 86400000) sp
    WHERE OLD.stability > 0 AND t.user_id = OLD.user_id
    ON CONFLICT (`user_id`, `span_ms`, `slot`, `bound`) DO UPDATE SET `trackers` = `trackers` + excluded.`trackers`;
  DELETE FROM `retrievability_crossings` WHERE `user_id` = OLD.user_id AND `trackers` = 0 AND (`span_ms`, `slot`, `bound`) IN
    (SELECT sp.span_ms, floor(max(min(OLD.last_recalled_at + t.ratio * OLD.stability * 86400000, 4e15), -4e15) / sp.span_ms), t.bound
     FROM `retrievability_ratios` t CROSS JOIN (SELECT 900000 AS span_ms UNION ALL SELECT 86400000) sp
     WHERE OLD.stability > 0 AND t.user_id = OLD.user_id);
END;
--> statement-breakpoint
CREATE TRIGGER `tracker_aggregates_enter` AFTER UPDATE OF `removed_from_tracking`, `spelling`, `next_recall_at`, `last_recalled_at`, `stability`, `user_id` ON `memory_trackers`
WHEN NEW.removed_from_tracking = 0 AND (OLD.removed_from_tracking <> NEW.removed_from_tracking OR OLD.spelling <> NEW.spelling OR OLD.next_recall_at <> NEW.next_recall_at
  OR OLD.last_recalled_at <> NEW.last_recalled_at OR OLD.stability IS NOT NEW.stability OR OLD.user_id <> NEW.user_id)
BEGIN
  INSERT INTO `user_tracker_counts` (`user_id`, `active_notes`, `interval_ms`)
    VALUES (NEW.user_id, NEW.spelling = 0, NEW.next_recall_at - NEW.last_recalled_at)
    ON CONFLICT (`user_id`) DO UPDATE SET `active_notes` = `active_notes` + excluded.`active_notes`, `interval_ms` = `interval_ms` + excluded.`interval_ms`;
  INSERT INTO `tracker_stability_buckets` (`user_id`, `bucket`, `trackers`)
    SELECT NEW.user_id, CASE WHEN NEW.stability < 1 THEN 0 WHEN NEW.stability < 7 THEN 1 WHEN NEW.stability < 30 THEN 2
      WHEN NEW.stability < 90 THEN 3 WHEN NEW.stability < 365 THEN 4 ELSE 5 END, 1
    WHERE NEW.stability IS NOT NULL
    ON CONFLICT (`user_id`, `bucket`) DO UPDATE SET `trackers` = `trackers` + excluded.`trackers`;
  INSERT INTO `retrievability_crossings` (`user_id`, `span_ms`, `slot`, `bound`, `trackers`)
    SELECT NEW.user_id, sp.span_ms, floor(max(min(NEW.last_recalled_at + t.ratio * NEW.stability * 86400000, 4e15), -4e15) / sp.span_ms), t.bound, 1
    FROM `retrievability_ratios` t CROSS JOIN (SELECT 900000 AS span_ms UNION ALL SELECT 86400000) sp
    WHERE NEW.stability > 0 AND t.user_id = NEW.user_id
    ON CONFLICT (`user_id`, `span_ms`, `slot`, `bound`) DO UPDATE SET `trackers` = `trackers` + excluded.`trackers`;
END;
--> statement-breakpoint
-- Recalls per notebook follow recall_log_tracker_counts (written by the recall log's trigger and
-- by an import's publishing): the tracker's note's notebook, looked up as the count changes.
CREATE TRIGGER `recall_log_notebook_counts_after_insert` AFTER INSERT ON `recall_log_tracker_counts`
BEGIN
  INSERT INTO `recall_log_notebook_counts` (`user_id`, `notebook_id`, `successes`, `failures`)
    SELECT NEW.user_id, n.notebook_id, NEW.successes, NEW.failures FROM `memory_trackers` m JOIN `notes` n ON n.id = m.note_id
    WHERE m.id = NEW.memory_tracker_id
    ON CONFLICT (`user_id`, `notebook_id`) DO UPDATE SET `successes` = `successes` + excluded.`successes`, `failures` = `failures` + excluded.`failures`;
END;
--> statement-breakpoint
CREATE TRIGGER `recall_log_notebook_counts_after_update` AFTER UPDATE OF `successes`, `failures` ON `recall_log_tracker_counts`
BEGIN
  INSERT INTO `recall_log_notebook_counts` (`user_id`, `notebook_id`, `successes`, `failures`)
    SELECT NEW.user_id, n.notebook_id, NEW.successes - OLD.successes, NEW.failures - OLD.failures
    FROM `memory_trackers` m JOIN `notes` n ON n.id = m.note_id
    WHERE m.id = NEW.memory_tracker_id
    ON CONFLICT (`user_id`, `notebook_id`) DO UPDATE SET `successes` = `successes` + excluded.`successes`, `failures` = `failures` + excluded.`failures`;
END;
--> statement-breakpoint
-- A tracker deleted: its counts go (before, while they are there; in a note's removal the note is
-- already gone and its own trigger took its trackers' counts away).
CREATE TRIGGER `recall_log_notebook_counts_tracker_delete` BEFORE DELETE ON `memory_trackers`
BEGIN
  INSERT INTO `recall_log_notebook_counts` (`user_id`, `notebook_id`, `successes`, `failures`)
    SELECT c.user_id, n.notebook_id, -c.successes, -c.failures FROM `recall_log_tracker_counts` c JOIN `notes` n ON n.id = OLD.note_id
    WHERE c.memory_tracker_id = OLD.id
    ON CONFLICT (`user_id`, `notebook_id`) DO UPDATE SET `successes` = `successes` + excluded.`successes`, `failures` = `failures` + excluded.`failures`;
END;
--> statement-breakpoint
-- A tracker moved to another note (and so maybe another notebook).
CREATE TRIGGER `recall_log_notebook_counts_tracker_moved` AFTER UPDATE OF `note_id` ON `memory_trackers`
WHEN OLD.note_id <> NEW.note_id
BEGIN
  INSERT INTO `recall_log_notebook_counts` (`user_id`, `notebook_id`, `successes`, `failures`)
    SELECT c.user_id, n.notebook_id, -c.successes, -c.failures FROM `recall_log_tracker_counts` c JOIN `notes` n ON n.id = OLD.note_id
    WHERE c.memory_tracker_id = OLD.id
    ON CONFLICT (`user_id`, `notebook_id`) DO UPDATE SET `successes` = `successes` + excluded.`successes`, `failures` = `failures` + excluded.`failures`;
  INSERT INTO `recall_log_notebook_counts` (`user_id`, `notebook_id`, `successes`, `failures`)
    SELECT c.user_id, n.notebook_id, c.successes, c.failures FROM `recall_log_tracker_counts` c JOIN `notes` n ON n.id = NEW.note_id
    WHERE c.memory_tracker_id = NEW.id
    ON CONFLICT (`user_id`, `notebook_id`) DO UPDATE SET `successes` = `successes` + excluded.`successes`, `failures` = `failures` + excluded.`failures`;
END;
--> statement-breakpoint
-- A note removed for good: its trackers' counts go (its trackers follow by cascade, after the note is gone).
CREATE TRIGGER `recall_log_notebook_counts_note_delete` BEFORE DELETE ON `notes`
BEGIN
  INSERT INTO `recall_log_notebook_counts` (`user_id`, `notebook_id`, `successes`, `failures`)
    SELECT c.user_id, OLD.notebook_id, -SUM(c.successes), -SUM(c.failures)
    FROM `memory_trackers` m JOIN `recall_log_tracker_counts` c ON c.memory_tracker_id = m.id
    WHERE m.note_id = OLD.id GROUP BY c.user_id
    ON CONFLICT (`user_id`, `notebook_id`) DO UPDATE SET `successes` = `successes` + excluded.`successes`, `failures` = `failures` + excluded.`failures`;
END;
--> statement-breakpoint
-- A note moved to another notebook takes its trackers' counts along.
CREATE TRIGGER `recall_log_notebook_counts_note_moved` AFTER UPDATE OF `notebook_id` ON `notes`
WHEN OLD.notebook_id <> NEW.notebook_id
BEGIN
  INSERT INTO `recall_log_notebook_counts` (`user_id`, `notebook_id`, `successes`, `failures`)
    SELECT c.user_id, OLD.notebook_id, -SUM(c.successes), -SUM(c.failures)
    FROM `memory_trackers` m JOIN `recall_log_tracker_counts` c ON c.memory_tracker_id = m.id
    WHERE m.note_id = OLD.id GROUP BY c.user_id
    ON CONFLICT (`user_id`, `notebook_id`) DO UPDATE SET `successes` = `successes` + excluded.`successes`, `failures` = `failures` + excluded.`failures`;
  INSERT INTO `recall_log_notebook_counts` (`user_id`, `notebook_id`, `successes`, `failures`)
    SELECT c.user_id, NEW.notebook_id, SUM(c.successes), SUM(c.failures)
    FROM `memory_trackers` m JOIN `recall_log_tracker_counts` c ON c.memory_tracker_id = m.id
    WHERE m.note_id = NEW.id GROUP BY c.user_id
    ON CONFLICT (`user_id`, `notebook_id`) DO UPDATE SET `successes` = `successes` + excluded.`successes`, `failures` = `failures` + excluded.`failures`;
END;
--> statement-breakpoint
-- The recall log's trigger counts per hour too (reviews an import holds stay out, as before).
DROP TRIGGER `recall_log_aggregates_insert`;
--> statement-breakpoint
CREATE TRIGGER `recall_log_aggregates_insert` AFTER INSERT ON `recall_log`
WHEN NEW.outcome IN ('success', 'failure') AND NEW.kind <> 'assimilation'
  AND NOT EXISTS (SELECT 1 FROM `operation_rows` WHERE `kind` = 'tracker' AND `row_id` = NEW.memory_tracker_id)
BEGIN
  INSERT INTO `recall_log_buckets` (`user_id`, `bucket`, `recalls`, `successes`)
    VALUES (NEW.user_id, NEW.reviewed_at / 900000, 1, NEW.outcome = 'success')
    ON CONFLICT (`user_id`, `bucket`) DO UPDATE SET `recalls` = `recalls` + 1, `successes` = `successes` + excluded.`successes`;
  INSERT INTO `recall_log_hours` (`user_id`, `hour`, `recalls`, `successes`)
    VALUES (NEW.user_id, NEW.reviewed_at / 3600000, 1, NEW.outcome = 'success')
    ON CONFLICT (`user_id`, `hour`) DO UPDATE SET `recalls` = `recalls` + 1, `successes` = `successes` + excluded.`successes`;
  INSERT INTO `recall_log_tracker_counts` (`memory_tracker_id`, `user_id`, `successes`, `failures`)
    VALUES (NEW.memory_tracker_id, NEW.user_id, NEW.outcome = 'success', NEW.outcome = 'failure')
    ON CONFLICT (`memory_tracker_id`) DO UPDATE SET `successes` = `successes` + excluded.`successes`, `failures` = `failures` + excluded.`failures`;
END;
--> statement-breakpoint
-- Existing data.
INSERT INTO `user_tracker_counts` (`user_id`, `active_trackers`, `active_notes`, `interval_ms`)
  SELECT `user_id`, COUNT(*), SUM(`spelling` = 0), SUM(`next_recall_at` - `last_recalled_at`) FROM `memory_trackers`
  WHERE `removed_from_tracking` = 0 GROUP BY `user_id`
  ON CONFLICT (`user_id`) DO UPDATE SET `active_notes` = excluded.`active_notes`, `interval_ms` = excluded.`interval_ms`;
--> statement-breakpoint
INSERT INTO `tracker_stability_buckets` (`user_id`, `bucket`, `trackers`)
  SELECT `user_id`, CASE WHEN `stability` < 1 THEN 0 WHEN `stability` < 7 THEN 1 WHEN `stability` < 30 THEN 2
    WHEN `stability` < 90 THEN 3 WHEN `stability` < 365 THEN 4 ELSE 5 END AS b, COUNT(*)
  FROM `memory_trackers` WHERE `removed_from_tracking` = 0 AND `stability` IS NOT NULL GROUP BY `user_id`, b;
--> statement-breakpoint
INSERT INTO `retrievability_crossings` (`user_id`, `span_ms`, `slot`, `bound`, `trackers`)
  SELECT m.user_id, sp.span_ms, floor(max(min(m.last_recalled_at + t.ratio * m.stability * 86400000, 4e15), -4e15) / sp.span_ms) AS s, t.bound, COUNT(*)
  FROM `memory_trackers` m, `retrievability_ratios` t, (SELECT 900000 AS span_ms UNION ALL SELECT 86400000) sp
  WHERE m.removed_from_tracking = 0 AND m.stability > 0 AND t.user_id = m.user_id
  GROUP BY m.user_id, sp.span_ms, s, t.bound;
--> statement-breakpoint
INSERT INTO `recall_log_notebook_counts` (`user_id`, `notebook_id`, `successes`, `failures`)
  SELECT c.user_id, n.notebook_id, SUM(c.successes), SUM(c.failures)
  FROM `recall_log_tracker_counts` c JOIN `memory_trackers` m ON m.id = c.memory_tracker_id JOIN `notes` n ON n.id = m.note_id
  GROUP BY c.user_id, n.notebook_id;
--> statement-breakpoint
INSERT INTO `recall_log_hours` (`user_id`, `hour`, `recalls`, `successes`)
  SELECT `user_id`, `bucket` / 4 AS h, SUM(`recalls`), SUM(`successes`) FROM `recall_log_buckets` GROUP BY `user_id`, h;
