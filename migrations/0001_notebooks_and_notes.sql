CREATE TABLE `notebooks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`creator_id` integer NOT NULL,
	`head_note_id` integer,
	`skip_memory_tracking_entirely` integer DEFAULT false NOT NULL,
	`number_of_questions_in_assessment` integer,
	`certificate_expiry` text DEFAULT '1y' NOT NULL,
	`certifiable` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`creator_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`head_note_id`) REFERENCES `notes`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `notebooks_creator_id_idx` ON `notebooks` (`creator_id`);--> statement-breakpoint
CREATE TABLE `notes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`notebook_id` integer NOT NULL,
	`parent_id` integer,
	`target_note_id` integer,
	`title` text NOT NULL,
	`details` text DEFAULT '' NOT NULL,
	`sibling_order` integer NOT NULL,
	`wikidata_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`deleted_at` integer,
	FOREIGN KEY (`notebook_id`) REFERENCES `notebooks`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`parent_id`) REFERENCES `notes`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`target_note_id`) REFERENCES `notes`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `notes_parent_order_idx` ON `notes` (`parent_id`,`sibling_order`);--> statement-breakpoint
CREATE INDEX `notes_notebook_id_idx` ON `notes` (`notebook_id`);--> statement-breakpoint
CREATE INDEX `notes_target_note_id_idx` ON `notes` (`target_note_id`);--> statement-breakpoint
CREATE INDEX `notes_updated_at_idx` ON `notes` (`updated_at`);