CREATE TABLE `retrievability_crossings` (
	`user_id` integer NOT NULL,
	`span_ms` integer NOT NULL,
	`slot` integer NOT NULL,
	`bound` integer NOT NULL,
	`trackers` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`user_id`, `span_ms`, `slot`, `bound`)
);
--> statement-breakpoint
CREATE TABLE `retrievability_thresholds` (
	`user_id` integer NOT NULL,
	`bound` integer NOT NULL,
	`ratio` real NOT NULL,
	PRIMARY KEY(`user_id`, `bound`)
);
--> statement-breakpoint
CREATE TABLE `tracker_stability_buckets` (
	`user_id` integer NOT NULL,
	`bucket` integer NOT NULL,
	`trackers` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`user_id`, `bucket`)
);
--> statement-breakpoint
CREATE TABLE `recall_log_hours` (
	`user_id` integer NOT NULL,
	`hour` integer NOT NULL,
	`recalls` integer DEFAULT 0 NOT NULL,
	`successes` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`user_id`, `hour`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `recall_log_notebook_counts` (
	`user_id` integer NOT NULL,
	`notebook_id` integer NOT NULL,
	`successes` integer DEFAULT 0 NOT NULL,
	`failures` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`user_id`, `notebook_id`)
);
--> statement-breakpoint
ALTER TABLE `user_tracker_counts` ADD `active_notes` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `user_tracker_counts` ADD `interval_ms` integer DEFAULT 0 NOT NULL;