CREATE TABLE `applied_answers` (
	`user_id` integer NOT NULL,
	`idempotency_key` text NOT NULL,
	`memory_tracker_id` integer NOT NULL,
	`answered_at` integer NOT NULL,
	`applied_at` integer NOT NULL,
	`outcome` text NOT NULL,
	PRIMARY KEY(`user_id`, `idempotency_key`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `applied_answers_applied_idx` ON `applied_answers` (`applied_at`);