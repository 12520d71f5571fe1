CREATE TABLE `suggested_questions_for_fine_tuning` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`preserved_note_content` text NOT NULL,
	`preserved_question` text NOT NULL,
	`positive_feedback` integer NOT NULL,
	`comment` text DEFAULT '' NOT NULL,
	`real_correct_answers` text DEFAULT '' NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `suggested_questions_for_fine_tuning_created_idx` ON `suggested_questions_for_fine_tuning` (`created_at`);