CREATE INDEX `assessment_attempts_notebook_idx` ON `assessment_attempts` (`notebook_id`);--> statement-breakpoint
CREATE INDEX `certificates_notebook_idx` ON `certificates` (`notebook_id`);