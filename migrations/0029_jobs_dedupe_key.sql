ALTER TABLE `jobs` ADD `dedupe_key` text;--> statement-breakpoint
CREATE UNIQUE INDEX `jobs_queued_dedupe_key_idx` ON `jobs` (`dedupe_key`) WHERE status = 'queued';--> statement-breakpoint
-- Hand-added: jobs queued before this migration keep being de-duplicated (one key per kind and payload).
UPDATE `jobs` SET `dedupe_key` = `kind` || ':' || `payload`
  WHERE `status` = 'queued' AND `id` IN (SELECT min(`id`) FROM `jobs` WHERE `status` = 'queued' GROUP BY `kind`, `payload`);
