CREATE TABLE `recall_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`memory_tracker_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`reviewed_at` integer NOT NULL,
	`kind` text NOT NULL,
	`outcome` text NOT NULL,
	`thinking_time_ms` integer,
	`scheduled_hours` real,
	`elapsed_hours` real,
	`state_before` text,
	`state_after` text NOT NULL,
	FOREIGN KEY (`memory_tracker_id`) REFERENCES `memory_trackers`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `recall_log_tracker_idx` ON `recall_log` (`memory_tracker_id`,`reviewed_at`);--> statement-breakpoint
CREATE INDEX `recall_log_user_time_idx` ON `recall_log` (`user_id`,`reviewed_at`);--> statement-breakpoint
ALTER TABLE `users` ADD `scheduler` text DEFAULT 'forgetting-curve' NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `desired_retention` real DEFAULT 0.9 NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `maximum_interval_days` integer DEFAULT 36500 NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `fsrs_weights` text;--> statement-breakpoint
ALTER TABLE `memory_trackers` ADD `stability` real;--> statement-breakpoint
ALTER TABLE `memory_trackers` ADD `difficulty` real;