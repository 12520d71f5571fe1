CREATE TABLE `note_text_revisions` (
	`note_id` integer NOT NULL,
	`field` text NOT NULL,
	`revision` integer NOT NULL,
	`text` text NOT NULL,
	PRIMARY KEY(`note_id`, `field`, `revision`),
	FOREIGN KEY (`note_id`) REFERENCES `notes`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `notes` ADD `title_revision` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `notes` ADD `details_revision` integer DEFAULT 0 NOT NULL;