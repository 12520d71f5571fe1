-- Hand-written: reviews of a tracker an import has not published yet (listed in operation_rows)
-- stay out of the recall-log aggregates; publishing adds them in bulk, and a failed import
-- removes them with their trackers, so the statistics never count a deck that did not arrive.
DROP TRIGGER `recall_log_aggregates_insert`;
--> statement-breakpoint
CREATE TRIGGER `recall_log_aggregates_insert` AFTER INSERT ON `recall_log`
WHEN NEW.outcome IN ('success', 'failure') AND NEW.kind <> 'assimilation'
  AND NOT EXISTS (SELECT 1 FROM `operation_rows` WHERE `kind` = 'tracker' AND `row_id` = NEW.memory_tracker_id)
BEGIN
  INSERT INTO `recall_log_buckets` (`user_id`, `bucket`, `recalls`, `successes`)
    VALUES (NEW.user_id, NEW.reviewed_at / 900000, 1, NEW.outcome = 'success')
    ON CONFLICT (`user_id`, `bucket`) DO UPDATE SET `recalls` = `recalls` + 1, `successes` = `successes` + excluded.`successes`;
  INSERT INTO `recall_log_tracker_counts` (`memory_tracker_id`, `user_id`, `successes`, `failures`)
    VALUES (NEW.memory_tracker_id, NEW.user_id, NEW.outcome = 'success', NEW.outcome = 'failure')
    ON CONFLICT (`memory_tracker_id`) DO UPDATE SET `successes` = `successes` + excluded.`successes`, `failures` = `failures` + excluded.`failures`;
END;
