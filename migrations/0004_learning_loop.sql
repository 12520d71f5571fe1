CREATE TABLE `memory_trackers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`note_id` integer NOT NULL,
	`spelling` integer DEFAULT false NOT NULL,
	`assimilated_at` integer NOT NULL,
	`last_recalled_at` integer NOT NULL,
	`next_recall_at` integer NOT NULL,
	`repetition_count` integer DEFAULT 0 NOT NULL,
	`forgetting_curve_index` integer DEFAULT 100 NOT NULL,
	`removed_from_tracking` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`note_id`) REFERENCES `notes`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `memory_trackers_user_note_spelling_idx` ON `memory_trackers` (`user_id`,`note_id`,`spelling`);--> statement-breakpoint
CREATE INDEX `memory_trackers_due_idx` ON `memory_trackers` (`user_id`,`removed_from_tracking`,`next_recall_at`);--> statement-breakpoint
CREATE INDEX `memory_trackers_assimilated_idx` ON `memory_trackers` (`user_id`,`assimilated_at`);--> statement-breakpoint
CREATE INDEX `memory_trackers_recalled_idx` ON `memory_trackers` (`user_id`,`last_recalled_at`);--> statement-breakpoint
CREATE INDEX `memory_trackers_note_idx` ON `memory_trackers` (`note_id`);--> statement-breakpoint
CREATE TABLE `predefined_questions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`note_id` integer NOT NULL,
	`multiple_choices_question` text NOT NULL,
	`correct_answer_index` integer NOT NULL,
	`approved` integer DEFAULT false NOT NULL,
	`contested` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`note_id`) REFERENCES `notes`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `predefined_questions_note_idx` ON `predefined_questions` (`note_id`);--> statement-breakpoint
CREATE TABLE `recall_prompts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`memory_tracker_id` integer NOT NULL,
	`predefined_question_id` integer NOT NULL,
	`answer_choice_index` integer,
	`answer_correct` integer,
	`answered_at` integer,
	`contest_advice` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`memory_tracker_id`) REFERENCES `memory_trackers`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`predefined_question_id`) REFERENCES `predefined_questions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `recall_prompts_tracker_idx` ON `recall_prompts` (`memory_tracker_id`);--> statement-breakpoint
ALTER TABLE `notes` ADD `level` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `notes` ADD `remember_spelling` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `notes` ADD `skip_memory_tracking` integer DEFAULT false NOT NULL;