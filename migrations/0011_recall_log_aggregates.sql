CREATE TABLE `recall_log_buckets` (
	`user_id` integer NOT NULL,
	`bucket` integer NOT NULL,
	`recalls` integer DEFAULT 0 NOT NULL,
	`successes` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`user_id`, `bucket`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `recall_log_tracker_counts` (
	`memory_tracker_id` integer PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`successes` integer DEFAULT 0 NOT NULL,
	`failures` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`memory_tracker_id`) REFERENCES `memory_trackers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `recall_log_tracker_counts_failures_idx` ON `recall_log_tracker_counts` (`user_id`,`failures`);--> statement-breakpoint
CREATE TRIGGER `recall_log_aggregates_insert` AFTER INSERT ON `recall_log`
WHEN NEW.outcome IN ('success', 'failure') AND NEW.kind <> 'assimilation'
BEGIN
  INSERT INTO `recall_log_buckets` (`user_id`, `bucket`, `recalls`, `successes`)
    VALUES (NEW.user_id, NEW.reviewed_at / 900000, 1, NEW.outcome = 'success')
    ON CONFLICT (`user_id`, `bucket`) DO UPDATE SET `recalls` = `recalls` + 1, `successes` = `successes` + excluded.`successes`;
  INSERT INTO `recall_log_tracker_counts` (`memory_tracker_id`, `user_id`, `successes`, `failures`)
    VALUES (NEW.memory_tracker_id, NEW.user_id, NEW.outcome = 'success', NEW.outcome = 'failure')
    ON CONFLICT (`memory_tracker_id`) DO UPDATE SET `successes` = `successes` + excluded.`successes`, `failures` = `failures` + excluded.`failures`;
END;
--> statement-breakpoint
INSERT INTO `recall_log_buckets` (`user_id`, `bucket`, `recalls`, `successes`)
  SELECT user_id, reviewed_at / 900000, COUNT(*), SUM(outcome = 'success') FROM recall_log
  WHERE outcome IN ('success', 'failure') AND kind <> 'assimilation' GROUP BY user_id, reviewed_at / 900000;
--> statement-breakpoint
INSERT INTO `recall_log_tracker_counts` (`memory_tracker_id`, `user_id`, `successes`, `failures`)
  SELECT memory_tracker_id, user_id, SUM(outcome = 'success'), SUM(outcome = 'failure') FROM recall_log
  WHERE outcome IN ('success', 'failure') AND kind <> 'assimilation' GROUP BY memory_tracker_id;
