CREATE TABLE `operation_rows` (
	`operation_id` integer NOT NULL,
	`kind` text NOT NULL,
	`row_id` integer NOT NULL,
	FOREIGN KEY (`operation_id`) REFERENCES `operations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `operation_rows_idx` ON `operation_rows` (`operation_id`,`kind`,`row_id`);--> statement-breakpoint
CREATE INDEX `operation_rows_row_idx` ON `operation_rows` (`kind`,`row_id`);--> statement-breakpoint
CREATE TABLE `operations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`user_id` integer NOT NULL,
	`notebook_id` integer,
	`label` text DEFAULT '' NOT NULL,
	`status` text NOT NULL,
	`phase` text DEFAULT 'reading' NOT NULL,
	`done` integer DEFAULT 0 NOT NULL,
	`total` integer,
	`result` text,
	`error` text,
	`lease_until` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`finished_at` integer,
	`dismissed_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`notebook_id`) REFERENCES `notebooks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `operations_user_idx` ON `operations` (`user_id`,`dismissed_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `operations_one_running_per_notebook_idx` ON `operations` (`notebook_id`) WHERE status = 'running' AND notebook_id IS NOT NULL;