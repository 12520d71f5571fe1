CREATE TABLE `assimilation_candidates` (
	`user_id` integer NOT NULL,
	`note_id` integer NOT NULL,
	`level` integer NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `note_id`)
);
--> statement-breakpoint
CREATE INDEX `assimilation_candidates_order_idx` ON `assimilation_candidates` (`user_id`,`level`,`created_at`,`note_id`);--> statement-breakpoint
CREATE INDEX `assimilation_candidates_note_idx` ON `assimilation_candidates` (`note_id`);--> statement-breakpoint
CREATE TABLE `user_tracker_counts` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`active_trackers` integer DEFAULT 0 NOT NULL
);
