-- Hand-written (issue 16): versions of what the server keeps in memory between requests
-- (services/cache-versions.ts). Triggers raise a version in the same transaction as any change to
-- what its answers are made of, by any process (the admin CLI too); a request reads the version
-- row and finds the kept answers gone when it moved.
--   access    who a session token belongs to (sessions, accounts, users) and which notebooks a
--             user may read (notebooks' owners and circles, subscriptions, circle memberships)
--   learning  every page's menu badges: notes to assimilate, to recall, unread conversations
--             (notes' places and deletion, trackers, candidates, settings, notebooks,
--             subscriptions, memberships, conversations and messages; not a note's text)
CREATE TABLE `cache_versions` (
	`name` text PRIMARY KEY NOT NULL,
	`version` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
INSERT INTO `cache_versions` (`name`, `version`) VALUES ('access', 0), ('learning', 0);
--> statement-breakpoint
CREATE TRIGGER `access_version_after_sessions_insert` AFTER INSERT ON `sessions` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'access';
END;
--> statement-breakpoint
CREATE TRIGGER `access_version_after_sessions_update` AFTER UPDATE ON `sessions` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'access';
END;
--> statement-breakpoint
CREATE TRIGGER `access_version_after_sessions_delete` AFTER DELETE ON `sessions` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'access';
END;
--> statement-breakpoint
CREATE TRIGGER `access_version_after_accounts_insert` AFTER INSERT ON `accounts` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'access';
END;
--> statement-breakpoint
CREATE TRIGGER `access_version_after_accounts_update` AFTER UPDATE ON `accounts` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'access';
END;
--> statement-breakpoint
CREATE TRIGGER `access_version_after_accounts_delete` AFTER DELETE ON `accounts` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'access';
END;
--> statement-breakpoint
CREATE TRIGGER `access_version_after_users_insert` AFTER INSERT ON `users` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'access';
END;
--> statement-breakpoint
CREATE TRIGGER `access_version_after_users_update` AFTER UPDATE ON `users` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'access';
END;
--> statement-breakpoint
CREATE TRIGGER `access_version_after_users_delete` AFTER DELETE ON `users` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'access';
END;
--> statement-breakpoint
CREATE TRIGGER `access_version_after_notebooks_insert` AFTER INSERT ON `notebooks` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'access';
END;
--> statement-breakpoint
CREATE TRIGGER `access_version_after_notebooks_update` AFTER UPDATE OF `creator_id`, `circle_id` ON `notebooks` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'access';
END;
--> statement-breakpoint
CREATE TRIGGER `access_version_after_notebooks_delete` AFTER DELETE ON `notebooks` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'access';
END;
--> statement-breakpoint
CREATE TRIGGER `access_version_after_subscriptions_insert` AFTER INSERT ON `subscriptions` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'access';
END;
--> statement-breakpoint
CREATE TRIGGER `access_version_after_subscriptions_update` AFTER UPDATE ON `subscriptions` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'access';
END;
--> statement-breakpoint
CREATE TRIGGER `access_version_after_subscriptions_delete` AFTER DELETE ON `subscriptions` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'access';
END;
--> statement-breakpoint
CREATE TRIGGER `access_version_after_circle_members_insert` AFTER INSERT ON `circle_members` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'access';
END;
--> statement-breakpoint
CREATE TRIGGER `access_version_after_circle_members_update` AFTER UPDATE ON `circle_members` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'access';
END;
--> statement-breakpoint
CREATE TRIGGER `access_version_after_circle_members_delete` AFTER DELETE ON `circle_members` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'access';
END;
--> statement-breakpoint
CREATE TRIGGER `learning_version_after_notes_insert` AFTER INSERT ON `notes` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'learning';
END;
--> statement-breakpoint
CREATE TRIGGER `learning_version_after_notes_update` AFTER UPDATE OF `deleted_at`, `skip_memory_tracking`, `notebook_id`, `parent_id`, `level`, `target_note_id` ON `notes` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'learning';
END;
--> statement-breakpoint
CREATE TRIGGER `learning_version_after_notes_delete` AFTER DELETE ON `notes` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'learning';
END;
--> statement-breakpoint
CREATE TRIGGER `learning_version_after_memory_trackers_insert` AFTER INSERT ON `memory_trackers` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'learning';
END;
--> statement-breakpoint
CREATE TRIGGER `learning_version_after_memory_trackers_update` AFTER UPDATE ON `memory_trackers` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'learning';
END;
--> statement-breakpoint
CREATE TRIGGER `learning_version_after_memory_trackers_delete` AFTER DELETE ON `memory_trackers` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'learning';
END;
--> statement-breakpoint
CREATE TRIGGER `learning_version_after_assimilation_candidates_insert` AFTER INSERT ON `assimilation_candidates` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'learning';
END;
--> statement-breakpoint
CREATE TRIGGER `learning_version_after_assimilation_candidates_update` AFTER UPDATE ON `assimilation_candidates` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'learning';
END;
--> statement-breakpoint
CREATE TRIGGER `learning_version_after_assimilation_candidates_delete` AFTER DELETE ON `assimilation_candidates` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'learning';
END;
--> statement-breakpoint
CREATE TRIGGER `learning_version_after_users_insert` AFTER INSERT ON `users` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'learning';
END;
--> statement-breakpoint
CREATE TRIGGER `learning_version_after_users_update` AFTER UPDATE ON `users` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'learning';
END;
--> statement-breakpoint
CREATE TRIGGER `learning_version_after_users_delete` AFTER DELETE ON `users` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'learning';
END;
--> statement-breakpoint
CREATE TRIGGER `learning_version_after_notebooks_insert` AFTER INSERT ON `notebooks` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'learning';
END;
--> statement-breakpoint
CREATE TRIGGER `learning_version_after_notebooks_update` AFTER UPDATE ON `notebooks` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'learning';
END;
--> statement-breakpoint
CREATE TRIGGER `learning_version_after_notebooks_delete` AFTER DELETE ON `notebooks` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'learning';
END;
--> statement-breakpoint
CREATE TRIGGER `learning_version_after_subscriptions_insert` AFTER INSERT ON `subscriptions` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'learning';
END;
--> statement-breakpoint
CREATE TRIGGER `learning_version_after_subscriptions_update` AFTER UPDATE ON `subscriptions` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'learning';
END;
--> statement-breakpoint
CREATE TRIGGER `learning_version_after_subscriptions_delete` AFTER DELETE ON `subscriptions` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'learning';
END;
--> statement-breakpoint
CREATE TRIGGER `learning_version_after_circle_members_insert` AFTER INSERT ON `circle_members` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'learning';
END;
--> statement-breakpoint
CREATE TRIGGER `learning_version_after_circle_members_update` AFTER UPDATE ON `circle_members` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'learning';
END;
--> statement-breakpoint
CREATE TRIGGER `learning_version_after_circle_members_delete` AFTER DELETE ON `circle_members` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'learning';
END;
--> statement-breakpoint
CREATE TRIGGER `learning_version_after_conversations_insert` AFTER INSERT ON `conversations` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'learning';
END;
--> statement-breakpoint
CREATE TRIGGER `learning_version_after_conversations_update` AFTER UPDATE ON `conversations` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'learning';
END;
--> statement-breakpoint
CREATE TRIGGER `learning_version_after_conversations_delete` AFTER DELETE ON `conversations` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'learning';
END;
--> statement-breakpoint
CREATE TRIGGER `learning_version_after_conversation_messages_insert` AFTER INSERT ON `conversation_messages` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'learning';
END;
--> statement-breakpoint
CREATE TRIGGER `learning_version_after_conversation_messages_update` AFTER UPDATE ON `conversation_messages` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'learning';
END;
--> statement-breakpoint
CREATE TRIGGER `learning_version_after_conversation_messages_delete` AFTER DELETE ON `conversation_messages` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'learning';
END;
