CREATE TABLE `bazaar_notebooks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`notebook_id` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`notebook_id`) REFERENCES `notebooks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `bazaar_notebooks_notebook_id_unique` ON `bazaar_notebooks` (`notebook_id`);--> statement-breakpoint
CREATE TABLE `circle_members` (
	`circle_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`joined_at` integer NOT NULL,
	PRIMARY KEY(`circle_id`, `user_id`),
	FOREIGN KEY (`circle_id`) REFERENCES `circles`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `circle_members_user_id_idx` ON `circle_members` (`user_id`);--> statement-breakpoint
CREATE TABLE `circles` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`invitation_code` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `circles_invitation_code_unique` ON `circles` (`invitation_code`);--> statement-breakpoint
CREATE TABLE `subscriptions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`notebook_id` integer NOT NULL,
	`daily_target_of_new_notes` integer DEFAULT 5 NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`notebook_id`) REFERENCES `notebooks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `subscriptions_user_notebook_idx` ON `subscriptions` (`user_id`,`notebook_id`);--> statement-breakpoint
CREATE INDEX `subscriptions_notebook_id_idx` ON `subscriptions` (`notebook_id`);--> statement-breakpoint
ALTER TABLE `notebooks` ADD `circle_id` integer REFERENCES circles(id);--> statement-breakpoint
CREATE INDEX `notebooks_circle_id_idx` ON `notebooks` (`circle_id`);