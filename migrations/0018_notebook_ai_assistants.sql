CREATE TABLE `notebook_ai_assistants` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`notebook_id` integer NOT NULL,
	`additional_instructions` text DEFAULT '' NOT NULL,
	`assistant_record` text,
	`assistant_creator_id` integer,
	`assistant_created_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`notebook_id`) REFERENCES `notebooks`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`assistant_creator_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `notebook_ai_assistants_notebook_id_unique` ON `notebook_ai_assistants` (`notebook_id`);