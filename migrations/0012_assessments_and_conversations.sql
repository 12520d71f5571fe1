CREATE TABLE `assessment_attempts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`notebook_id` integer NOT NULL,
	`total_question_count` integer NOT NULL,
	`answers_correct` integer DEFAULT 0 NOT NULL,
	`submitted_at` integer,
	`is_pass` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`notebook_id`) REFERENCES `notebooks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `assessment_attempts_user_idx` ON `assessment_attempts` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `assessment_question_instances` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`attempt_id` integer NOT NULL,
	`predefined_question_id` integer,
	`position` integer NOT NULL,
	`multiple_choices_question` text NOT NULL,
	`correct_answer_index` integer NOT NULL,
	`answer_choice_index` integer,
	`answer_correct` integer,
	`answered_at` integer,
	FOREIGN KEY (`attempt_id`) REFERENCES `assessment_attempts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`predefined_question_id`) REFERENCES `predefined_questions`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `assessment_question_instances_attempt_idx` ON `assessment_question_instances` (`attempt_id`,`position`);--> statement-breakpoint
CREATE TABLE `certificates` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`notebook_id` integer NOT NULL,
	`start_date` integer NOT NULL,
	`expiry_date` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`notebook_id`) REFERENCES `notebooks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `certificates_user_notebook_idx` ON `certificates` (`user_id`,`notebook_id`);--> statement-breakpoint
CREATE TABLE `notebook_certificate_approvals` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`notebook_id` integer NOT NULL,
	`last_approval_time` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`notebook_id`) REFERENCES `notebooks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `notebook_certificate_approvals_notebook_id_unique` ON `notebook_certificate_approvals` (`notebook_id`);--> statement-breakpoint
CREATE TABLE `conversation_messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`conversation_id` integer NOT NULL,
	`sender_user_id` integer,
	`message` text NOT NULL,
	`read_by_receiver` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`sender_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `conversation_messages_conversation_idx` ON `conversation_messages` (`conversation_id`,`id`);--> statement-breakpoint
CREATE TABLE `conversations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`initiator_user_id` integer NOT NULL,
	`subject_note_id` integer,
	`subject_recall_prompt_id` integer,
	`subject_assessment_question_id` integer,
	`owner_user_id` integer,
	`owner_circle_id` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`initiator_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`subject_note_id`) REFERENCES `notes`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`owner_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`owner_circle_id`) REFERENCES `circles`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `conversations_initiator_idx` ON `conversations` (`initiator_user_id`);--> statement-breakpoint
CREATE INDEX `conversations_owner_user_idx` ON `conversations` (`owner_user_id`);--> statement-breakpoint
CREATE INDEX `conversations_owner_circle_idx` ON `conversations` (`owner_circle_id`);