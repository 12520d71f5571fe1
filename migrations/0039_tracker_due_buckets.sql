CREATE TABLE `tracker_due_buckets` (
	`user_id` integer NOT NULL,
	`bucket` integer NOT NULL,
	`notebook_id` integer NOT NULL,
	`trackers` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`user_id`, `bucket`, `notebook_id`)
);
