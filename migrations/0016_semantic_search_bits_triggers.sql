-- Hand-written (issue 16): 0015's triggers wrote the bits with INSERT OR REPLACE, but inside a
-- trigger fired by an upsert (the embedding job's INSERT ... ON CONFLICT DO UPDATE) the outer
-- statement's conflict handling applies and the REPLACE failed as a UNIQUE violation. Delete, then
-- insert; and quantise only dimensions sqlite-vec can (whole bytes), other vectors stay exact-only.
DROP TRIGGER `note_embedding_bits_after_insert`;
--> statement-breakpoint
DROP TRIGGER `note_embedding_bits_after_update`;
--> statement-breakpoint
CREATE TRIGGER `note_embedding_bits_after_insert` AFTER INSERT ON `note_embeddings` BEGIN
  DELETE FROM `note_embedding_bits` WHERE `note_id` = NEW.`note_id`;
  INSERT INTO `note_embedding_bits` (`note_id`, `notebook_id`, `model`, `dimensions`, `bits`)
    SELECT NEW.`note_id`, n.`notebook_id`, NEW.`model`, NEW.`dimensions`, vec_quantize_binary(NEW.`embedding`)
    FROM `notes` n WHERE n.`id` = NEW.`note_id` AND NEW.`dimensions` % 8 = 0;
  UPDATE `search_index_state` SET `bits_version` = `bits_version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `note_embedding_bits_after_update` AFTER UPDATE ON `note_embeddings` BEGIN
  DELETE FROM `note_embedding_bits` WHERE `note_id` = NEW.`note_id`;
  INSERT INTO `note_embedding_bits` (`note_id`, `notebook_id`, `model`, `dimensions`, `bits`)
    SELECT NEW.`note_id`, n.`notebook_id`, NEW.`model`, NEW.`dimensions`, vec_quantize_binary(NEW.`embedding`)
    FROM `notes` n WHERE n.`id` = NEW.`note_id` AND NEW.`dimensions` % 8 = 0;
  UPDATE `search_index_state` SET `bits_version` = `bits_version` + 1 WHERE `id` = 1;
END;
