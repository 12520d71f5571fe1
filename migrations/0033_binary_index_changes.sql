CREATE TABLE `note_embedding_bits_changes` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`note_id` integer NOT NULL
);
--> statement-breakpoint
-- Hand-written: the triggers that keep note_embedding_bits (0015, 0016) record which note changed,
-- in order, instead of raising one counter for the whole table: a server keeping the bits in
-- memory refreshes those notes only, instead of reloading every note's bits.
DROP TRIGGER `note_embedding_bits_after_insert`;
--> statement-breakpoint
DROP TRIGGER `note_embedding_bits_after_update`;
--> statement-breakpoint
DROP TRIGGER `note_embedding_bits_after_delete`;
--> statement-breakpoint
DROP TRIGGER `note_embedding_bits_note_moved`;
--> statement-breakpoint
CREATE TRIGGER `note_embedding_bits_after_insert` AFTER INSERT ON `note_embeddings` BEGIN
  DELETE FROM `note_embedding_bits` WHERE `note_id` = NEW.`note_id`;
  INSERT INTO `note_embedding_bits` (`note_id`, `notebook_id`, `model`, `dimensions`, `bits`)
    SELECT NEW.`note_id`, n.`notebook_id`, NEW.`model`, NEW.`dimensions`, vec_quantize_binary(NEW.`embedding`)
    FROM `notes` n WHERE n.`id` = NEW.`note_id` AND NEW.`dimensions` % 8 = 0;
  INSERT INTO `note_embedding_bits_changes` (`note_id`) VALUES (NEW.`note_id`);
END;
--> statement-breakpoint
CREATE TRIGGER `note_embedding_bits_after_update` AFTER UPDATE ON `note_embeddings` BEGIN
  DELETE FROM `note_embedding_bits` WHERE `note_id` = NEW.`note_id`;
  INSERT INTO `note_embedding_bits` (`note_id`, `notebook_id`, `model`, `dimensions`, `bits`)
    SELECT NEW.`note_id`, n.`notebook_id`, NEW.`model`, NEW.`dimensions`, vec_quantize_binary(NEW.`embedding`)
    FROM `notes` n WHERE n.`id` = NEW.`note_id` AND NEW.`dimensions` % 8 = 0;
  INSERT INTO `note_embedding_bits_changes` (`note_id`) VALUES (NEW.`note_id`);
END;
--> statement-breakpoint
CREATE TRIGGER `note_embedding_bits_after_delete` AFTER DELETE ON `note_embeddings` BEGIN
  DELETE FROM `note_embedding_bits` WHERE `note_id` = OLD.`note_id`;
  INSERT INTO `note_embedding_bits_changes` (`note_id`) VALUES (OLD.`note_id`);
END;
--> statement-breakpoint
CREATE TRIGGER `note_embedding_bits_note_moved` AFTER UPDATE OF `notebook_id` ON `notes` WHEN NEW.`notebook_id` <> OLD.`notebook_id` BEGIN
  UPDATE `note_embedding_bits` SET `notebook_id` = NEW.`notebook_id` WHERE `note_id` = NEW.`id`;
  INSERT INTO `note_embedding_bits_changes` (`note_id`) SELECT NEW.`id` WHERE EXISTS (SELECT 1 FROM `note_embedding_bits` WHERE `note_id` = NEW.`id`);
END;
