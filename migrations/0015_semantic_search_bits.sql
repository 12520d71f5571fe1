CREATE TABLE `note_embedding_bits` (
	`note_id` integer PRIMARY KEY NOT NULL,
	`notebook_id` integer NOT NULL,
	`model` text NOT NULL,
	`dimensions` integer NOT NULL,
	`bits` blob NOT NULL,
	FOREIGN KEY (`note_id`) REFERENCES `notes`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `note_embedding_bits_model` ON `note_embedding_bits` (`model`,`dimensions`);--> statement-breakpoint
CREATE TABLE `search_index_state` (
	`id` integer PRIMARY KEY NOT NULL,
	`bits_version` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- Hand-written (issue 16): the bits follow note_embeddings and the note's notebook through triggers,
-- so every writer (the embedding job, a reset index, a bench seeding the table) keeps them current.
CREATE TRIGGER `note_embedding_bits_after_insert` AFTER INSERT ON `note_embeddings` BEGIN
  INSERT OR REPLACE INTO `note_embedding_bits` (`note_id`, `notebook_id`, `model`, `dimensions`, `bits`)
    SELECT NEW.`note_id`, n.`notebook_id`, NEW.`model`, NEW.`dimensions`, vec_quantize_binary(NEW.`embedding`) FROM `notes` n WHERE n.`id` = NEW.`note_id`;
  UPDATE `search_index_state` SET `bits_version` = `bits_version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `note_embedding_bits_after_update` AFTER UPDATE ON `note_embeddings` BEGIN
  INSERT OR REPLACE INTO `note_embedding_bits` (`note_id`, `notebook_id`, `model`, `dimensions`, `bits`)
    SELECT NEW.`note_id`, n.`notebook_id`, NEW.`model`, NEW.`dimensions`, vec_quantize_binary(NEW.`embedding`) FROM `notes` n WHERE n.`id` = NEW.`note_id`;
  UPDATE `search_index_state` SET `bits_version` = `bits_version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `note_embedding_bits_after_delete` AFTER DELETE ON `note_embeddings` BEGIN
  DELETE FROM `note_embedding_bits` WHERE `note_id` = OLD.`note_id`;
  UPDATE `search_index_state` SET `bits_version` = `bits_version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `note_embedding_bits_note_moved` AFTER UPDATE OF `notebook_id` ON `notes` WHEN NEW.`notebook_id` <> OLD.`notebook_id` BEGIN
  UPDATE `note_embedding_bits` SET `notebook_id` = NEW.`notebook_id` WHERE `note_id` = NEW.`id`;
  UPDATE `search_index_state` SET `bits_version` = `bits_version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
INSERT INTO `search_index_state` (`id`, `bits_version`) VALUES (1, 0);
--> statement-breakpoint
INSERT INTO `note_embedding_bits` (`note_id`, `notebook_id`, `model`, `dimensions`, `bits`)
  SELECT e.`note_id`, n.`notebook_id`, e.`model`, e.`dimensions`, vec_quantize_binary(e.`embedding`)
  FROM `note_embeddings` e JOIN `notes` n ON n.`id` = e.`note_id`;
