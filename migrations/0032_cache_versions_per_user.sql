-- Hand-written: cache versions per user, per account and per notebook instead of two global
-- rows (0023), so one learner's review no longer empties everyone's kept badges and one sign-in
-- everyone's kept sessions (services/cache-versions.ts). A version only grows, raised by triggers
-- in the same transaction as any change to what its kept answers are made of, by any process:
--   account        (account id)  a session's account, its user and the account's sessions
--   user-access    (user id)     the notebooks the user may read: their own, their circles', their subscriptions
--   user-learning  (user id)     the user's menu badges: trackers, candidates, settings, subscriptions,
--                                memberships, the conversations they are a party of and their messages
--   notebook       (notebook id) what a notebook's readers count: its notes' places and deletion, its settings
-- A missing row is version 0. Rows are never deleted (the test reset leaves the table), so a
-- version never repeats.
DROP TRIGGER `access_version_after_sessions_insert`;
--> statement-breakpoint
DROP TRIGGER `access_version_after_sessions_update`;
--> statement-breakpoint
DROP TRIGGER `access_version_after_sessions_delete`;
--> statement-breakpoint
DROP TRIGGER `access_version_after_accounts_insert`;
--> statement-breakpoint
DROP TRIGGER `access_version_after_accounts_update`;
--> statement-breakpoint
DROP TRIGGER `access_version_after_accounts_delete`;
--> statement-breakpoint
DROP TRIGGER `access_version_after_users_insert`;
--> statement-breakpoint
DROP TRIGGER `access_version_after_users_update`;
--> statement-breakpoint
DROP TRIGGER `access_version_after_users_delete`;
--> statement-breakpoint
DROP TRIGGER `access_version_after_notebooks_insert`;
--> statement-breakpoint
DROP TRIGGER `access_version_after_notebooks_update`;
--> statement-breakpoint
DROP TRIGGER `access_version_after_notebooks_delete`;
--> statement-breakpoint
DROP TRIGGER `access_version_after_subscriptions_insert`;
--> statement-breakpoint
DROP TRIGGER `access_version_after_subscriptions_update`;
--> statement-breakpoint
DROP TRIGGER `access_version_after_subscriptions_delete`;
--> statement-breakpoint
DROP TRIGGER `access_version_after_circle_members_insert`;
--> statement-breakpoint
DROP TRIGGER `access_version_after_circle_members_update`;
--> statement-breakpoint
DROP TRIGGER `access_version_after_circle_members_delete`;
--> statement-breakpoint
DROP TRIGGER `learning_version_after_notes_insert`;
--> statement-breakpoint
DROP TRIGGER `learning_version_after_notes_update`;
--> statement-breakpoint
DROP TRIGGER `learning_version_after_notes_delete`;
--> statement-breakpoint
DROP TRIGGER `learning_version_after_memory_trackers_insert`;
--> statement-breakpoint
DROP TRIGGER `learning_version_after_memory_trackers_update`;
--> statement-breakpoint
DROP TRIGGER `learning_version_after_memory_trackers_delete`;
--> statement-breakpoint
DROP TRIGGER `learning_version_after_assimilation_candidates_insert`;
--> statement-breakpoint
DROP TRIGGER `learning_version_after_assimilation_candidates_update`;
--> statement-breakpoint
DROP TRIGGER `learning_version_after_assimilation_candidates_delete`;
--> statement-breakpoint
DROP TRIGGER `learning_version_after_users_insert`;
--> statement-breakpoint
DROP TRIGGER `learning_version_after_users_update`;
--> statement-breakpoint
DROP TRIGGER `learning_version_after_users_delete`;
--> statement-breakpoint
DROP TRIGGER `learning_version_after_notebooks_insert`;
--> statement-breakpoint
DROP TRIGGER `learning_version_after_notebooks_update`;
--> statement-breakpoint
DROP TRIGGER `learning_version_after_notebooks_delete`;
--> statement-breakpoint
DROP TRIGGER `learning_version_after_subscriptions_insert`;
--> statement-breakpoint
DROP TRIGGER `learning_version_after_subscriptions_update`;
--> statement-breakpoint
DROP TRIGGER `learning_version_after_subscriptions_delete`;
--> statement-breakpoint
DROP TRIGGER `learning_version_after_circle_members_insert`;
--> statement-breakpoint
DROP TRIGGER `learning_version_after_circle_members_update`;
--> statement-breakpoint
DROP TRIGGER `learning_version_after_circle_members_delete`;
--> statement-breakpoint
DROP TRIGGER `learning_version_after_conversations_insert`;
--> statement-breakpoint
DROP TRIGGER `learning_version_after_conversations_update`;
--> statement-breakpoint
DROP TRIGGER `learning_version_after_conversations_delete`;
--> statement-breakpoint
DROP TRIGGER `learning_version_after_conversation_messages_insert`;
--> statement-breakpoint
DROP TRIGGER `learning_version_after_conversation_messages_update`;
--> statement-breakpoint
DROP TRIGGER `learning_version_after_conversation_messages_delete`;
--> statement-breakpoint
DROP TABLE `cache_versions`;
--> statement-breakpoint
CREATE TABLE `cache_versions` (
	`scope` text NOT NULL,
	`id` integer NOT NULL,
	`version` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`scope`, `id`)
);
--> statement-breakpoint
CREATE TRIGGER `cache_versions_after_sessions_insert` AFTER INSERT ON `sessions` BEGIN
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) VALUES ('account', NEW.`account_id`, 1) ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `cache_versions_after_sessions_update` AFTER UPDATE ON `sessions` BEGIN
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) VALUES ('account', NEW.`account_id`, 1) ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) VALUES ('account', OLD.`account_id`, 1) ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `cache_versions_after_sessions_delete` AFTER DELETE ON `sessions` BEGIN
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) VALUES ('account', OLD.`account_id`, 1) ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `cache_versions_after_accounts_update` AFTER UPDATE ON `accounts` BEGIN
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) VALUES ('account', NEW.`id`, 1) ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `cache_versions_after_accounts_delete` AFTER DELETE ON `accounts` BEGIN
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) VALUES ('account', OLD.`id`, 1) ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `cache_versions_after_users_insert` AFTER INSERT ON `users` BEGIN
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) VALUES ('account', NEW.`account_id`, 1) ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) VALUES ('user-learning', NEW.`id`, 1) ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `cache_versions_after_users_update` AFTER UPDATE ON `users` BEGIN
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) VALUES ('account', NEW.`account_id`, 1) ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) VALUES ('user-learning', NEW.`id`, 1) ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `cache_versions_after_users_delete` AFTER DELETE ON `users` BEGIN
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) VALUES ('account', OLD.`account_id`, 1) ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) VALUES ('user-learning', OLD.`id`, 1) ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `cache_versions_after_notebooks_insert` AFTER INSERT ON `notebooks` BEGIN
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) VALUES ('user-access', NEW.`creator_id`, 1) ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) SELECT 'user-access', `user_id`, 1 FROM `circle_members` WHERE `circle_id` = NEW.`circle_id`
    ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) VALUES ('notebook', NEW.`id`, 1) ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `cache_versions_after_notebooks_owner` AFTER UPDATE OF `creator_id`, `circle_id` ON `notebooks` BEGIN
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) VALUES ('user-access', OLD.`creator_id`, 1) ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) VALUES ('user-access', NEW.`creator_id`, 1) ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) SELECT 'user-access', `user_id`, 1 FROM `circle_members` WHERE `circle_id` = OLD.`circle_id`
    ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) SELECT 'user-access', `user_id`, 1 FROM `circle_members` WHERE `circle_id` = NEW.`circle_id`
    ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `cache_versions_after_notebooks_update` AFTER UPDATE ON `notebooks` BEGIN
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) VALUES ('notebook', NEW.`id`, 1) ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `cache_versions_after_notebooks_delete` AFTER DELETE ON `notebooks` BEGIN
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) VALUES ('user-access', OLD.`creator_id`, 1) ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) SELECT 'user-access', `user_id`, 1 FROM `circle_members` WHERE `circle_id` = OLD.`circle_id`
    ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) VALUES ('notebook', OLD.`id`, 1) ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `cache_versions_after_subscriptions_insert` AFTER INSERT ON `subscriptions` BEGIN
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) VALUES ('user-access', NEW.`user_id`, 1) ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) VALUES ('user-learning', NEW.`user_id`, 1) ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `cache_versions_after_subscriptions_update` AFTER UPDATE ON `subscriptions` BEGIN
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) VALUES ('user-access', NEW.`user_id`, 1) ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) VALUES ('user-learning', NEW.`user_id`, 1) ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) VALUES ('user-access', OLD.`user_id`, 1) ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) VALUES ('user-learning', OLD.`user_id`, 1) ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `cache_versions_after_subscriptions_delete` AFTER DELETE ON `subscriptions` BEGIN
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) VALUES ('user-access', OLD.`user_id`, 1) ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) VALUES ('user-learning', OLD.`user_id`, 1) ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `cache_versions_after_circle_members_insert` AFTER INSERT ON `circle_members` BEGIN
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) VALUES ('user-access', NEW.`user_id`, 1) ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) VALUES ('user-learning', NEW.`user_id`, 1) ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `cache_versions_after_circle_members_update` AFTER UPDATE ON `circle_members` BEGIN
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) VALUES ('user-access', NEW.`user_id`, 1) ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) VALUES ('user-learning', NEW.`user_id`, 1) ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) VALUES ('user-access', OLD.`user_id`, 1) ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) VALUES ('user-learning', OLD.`user_id`, 1) ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `cache_versions_after_circle_members_delete` AFTER DELETE ON `circle_members` BEGIN
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) VALUES ('user-access', OLD.`user_id`, 1) ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) VALUES ('user-learning', OLD.`user_id`, 1) ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `cache_versions_after_notes_insert` AFTER INSERT ON `notes` BEGIN
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) VALUES ('notebook', NEW.`notebook_id`, 1) ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `cache_versions_after_notes_update` AFTER UPDATE OF `deleted_at`, `skip_memory_tracking`, `notebook_id`, `parent_id`, `level`, `target_note_id` ON `notes` BEGIN
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) VALUES ('notebook', NEW.`notebook_id`, 1) ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) VALUES ('notebook', OLD.`notebook_id`, 1) ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `cache_versions_after_notes_delete` AFTER DELETE ON `notes` BEGIN
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) VALUES ('notebook', OLD.`notebook_id`, 1) ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `cache_versions_after_memory_trackers_insert` AFTER INSERT ON `memory_trackers` BEGIN
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) VALUES ('user-learning', NEW.`user_id`, 1) ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `cache_versions_after_memory_trackers_update` AFTER UPDATE ON `memory_trackers` BEGIN
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) VALUES ('user-learning', NEW.`user_id`, 1) ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) VALUES ('user-learning', OLD.`user_id`, 1) ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `cache_versions_after_memory_trackers_delete` AFTER DELETE ON `memory_trackers` BEGIN
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) VALUES ('user-learning', OLD.`user_id`, 1) ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `cache_versions_after_assimilation_candidates_insert` AFTER INSERT ON `assimilation_candidates` BEGIN
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) VALUES ('user-learning', NEW.`user_id`, 1) ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `cache_versions_after_assimilation_candidates_update` AFTER UPDATE ON `assimilation_candidates` BEGIN
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) VALUES ('user-learning', NEW.`user_id`, 1) ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) VALUES ('user-learning', OLD.`user_id`, 1) ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `cache_versions_after_assimilation_candidates_delete` AFTER DELETE ON `assimilation_candidates` BEGIN
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) VALUES ('user-learning', OLD.`user_id`, 1) ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `cache_versions_after_conversations_insert` AFTER INSERT ON `conversations` BEGIN
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) VALUES ('user-learning', NEW.`initiator_user_id`, 1) ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) SELECT 'user-learning', NEW.`owner_user_id`, 1 WHERE NEW.`owner_user_id` IS NOT NULL
    ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) SELECT 'user-learning', `user_id`, 1 FROM `circle_members` WHERE `circle_id` = NEW.`owner_circle_id`
    ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `cache_versions_after_conversations_update` AFTER UPDATE ON `conversations` BEGIN
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) VALUES ('user-learning', NEW.`initiator_user_id`, 1) ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) SELECT 'user-learning', NEW.`owner_user_id`, 1 WHERE NEW.`owner_user_id` IS NOT NULL
    ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) SELECT 'user-learning', `user_id`, 1 FROM `circle_members` WHERE `circle_id` = NEW.`owner_circle_id`
    ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) VALUES ('user-learning', OLD.`initiator_user_id`, 1) ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) SELECT 'user-learning', OLD.`owner_user_id`, 1 WHERE OLD.`owner_user_id` IS NOT NULL
    ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) SELECT 'user-learning', `user_id`, 1 FROM `circle_members` WHERE `circle_id` = OLD.`owner_circle_id`
    ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `cache_versions_after_conversations_delete` AFTER DELETE ON `conversations` BEGIN
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) VALUES ('user-learning', OLD.`initiator_user_id`, 1) ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) SELECT 'user-learning', OLD.`owner_user_id`, 1 WHERE OLD.`owner_user_id` IS NOT NULL
    ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
  INSERT INTO `cache_versions` (`scope`, `id`, `version`) SELECT 'user-learning', `user_id`, 1 FROM `circle_members` WHERE `circle_id` = OLD.`owner_circle_id`
    ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `cache_versions_after_conversation_messages_insert` AFTER INSERT ON `conversation_messages` BEGIN
  INSERT INTO `cache_versions` (`scope`, `id`, `version`)
    SELECT 'user-learning', `party`, 1 FROM (
      SELECT `initiator_user_id` AS `party` FROM `conversations` WHERE `id` = NEW.`conversation_id`
      UNION SELECT `owner_user_id` FROM `conversations` WHERE `id` = NEW.`conversation_id` AND `owner_user_id` IS NOT NULL
      UNION SELECT m.`user_id` FROM `conversations` c JOIN `circle_members` m ON m.`circle_id` = c.`owner_circle_id` WHERE c.`id` = NEW.`conversation_id`
    ) WHERE true
    ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `cache_versions_after_conversation_messages_update` AFTER UPDATE ON `conversation_messages` BEGIN
  INSERT INTO `cache_versions` (`scope`, `id`, `version`)
    SELECT 'user-learning', `party`, 1 FROM (
      SELECT `initiator_user_id` AS `party` FROM `conversations` WHERE `id` = NEW.`conversation_id`
      UNION SELECT `owner_user_id` FROM `conversations` WHERE `id` = NEW.`conversation_id` AND `owner_user_id` IS NOT NULL
      UNION SELECT m.`user_id` FROM `conversations` c JOIN `circle_members` m ON m.`circle_id` = c.`owner_circle_id` WHERE c.`id` = NEW.`conversation_id`
    ) WHERE true
    ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `cache_versions_after_conversation_messages_delete` AFTER DELETE ON `conversation_messages` BEGIN
  INSERT INTO `cache_versions` (`scope`, `id`, `version`)
    SELECT 'user-learning', `party`, 1 FROM (
      SELECT `initiator_user_id` AS `party` FROM `conversations` WHERE `id` = OLD.`conversation_id`
      UNION SELECT `owner_user_id` FROM `conversations` WHERE `id` = OLD.`conversation_id` AND `owner_user_id` IS NOT NULL
      UNION SELECT m.`user_id` FROM `conversations` c JOIN `circle_members` m ON m.`circle_id` = c.`owner_circle_id` WHERE c.`id` = OLD.`conversation_id`
    ) WHERE true
    ON CONFLICT (`scope`, `id`) DO UPDATE SET `version` = `version` + 1;
END;
