CREATE TABLE `note_embeddings` (
	`note_id` integer PRIMARY KEY NOT NULL,
	`model` text NOT NULL,
	`dimensions` integer NOT NULL,
	`embedding` blob NOT NULL,
	`source_hash` text NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`note_id`) REFERENCES `notes`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `note_images` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`content_type` text NOT NULL,
	`bytes` blob NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `notes` ADD `url` text;--> statement-breakpoint
ALTER TABLE `notes` ADD `image_id` integer REFERENCES note_images(id);--> statement-breakpoint
ALTER TABLE `notes` ADD `image_url` text;--> statement-breakpoint
ALTER TABLE `notes` ADD `use_parent_image` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `notes` ADD `image_mask` text;