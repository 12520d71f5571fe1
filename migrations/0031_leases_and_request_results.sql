CREATE TABLE `leases` (
	`name` text PRIMARY KEY NOT NULL,
	`holder` text NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `request_results` (
	`scope` text NOT NULL,
	`user_id` integer NOT NULL,
	`request_id` text NOT NULL,
	`result` text,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`scope`, `user_id`, `request_id`)
);
--> statement-breakpoint
CREATE INDEX `request_results_created_at_idx` ON `request_results` (`created_at`);