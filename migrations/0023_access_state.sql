-- Hand-written (issue 16): one counter that every change to what decides who a request is (its
-- session, account and user) and which notebooks they may read (notebooks' owners and circles,
-- subscriptions, circle memberships) raises, by triggers, in the same transaction. The server keeps
-- those answers in memory and reads only this row per request; any change, by any process (the
-- admin CLI too), makes the next request read them again (services/access-cache.ts).
CREATE TABLE `access_state` (
	`id` integer PRIMARY KEY NOT NULL,
	`version` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
INSERT INTO `access_state` (`id`, `version`) VALUES (1, 0);
--> statement-breakpoint
CREATE TRIGGER `access_state_after_sessions_insert` AFTER INSERT ON `sessions` BEGIN
  UPDATE `access_state` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `access_state_after_sessions_update` AFTER UPDATE ON `sessions` BEGIN
  UPDATE `access_state` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `access_state_after_sessions_delete` AFTER DELETE ON `sessions` BEGIN
  UPDATE `access_state` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `access_state_after_accounts_insert` AFTER INSERT ON `accounts` BEGIN
  UPDATE `access_state` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `access_state_after_accounts_update` AFTER UPDATE ON `accounts` BEGIN
  UPDATE `access_state` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `access_state_after_accounts_delete` AFTER DELETE ON `accounts` BEGIN
  UPDATE `access_state` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `access_state_after_users_insert` AFTER INSERT ON `users` BEGIN
  UPDATE `access_state` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `access_state_after_users_update` AFTER UPDATE ON `users` BEGIN
  UPDATE `access_state` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `access_state_after_users_delete` AFTER DELETE ON `users` BEGIN
  UPDATE `access_state` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `access_state_after_notebooks_insert` AFTER INSERT ON `notebooks` BEGIN
  UPDATE `access_state` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `access_state_after_notebooks_update` AFTER UPDATE OF `creator_id`, `circle_id` ON `notebooks` BEGIN
  UPDATE `access_state` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `access_state_after_notebooks_delete` AFTER DELETE ON `notebooks` BEGIN
  UPDATE `access_state` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `access_state_after_subscriptions_insert` AFTER INSERT ON `subscriptions` BEGIN
  UPDATE `access_state` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `access_state_after_subscriptions_update` AFTER UPDATE ON `subscriptions` BEGIN
  UPDATE `access_state` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `access_state_after_subscriptions_delete` AFTER DELETE ON `subscriptions` BEGIN
  UPDATE `access_state` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `access_state_after_circle_members_insert` AFTER INSERT ON `circle_members` BEGIN
  UPDATE `access_state` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `access_state_after_circle_members_update` AFTER UPDATE ON `circle_members` BEGIN
  UPDATE `access_state` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `access_state_after_circle_members_delete` AFTER DELETE ON `circle_members` BEGIN
  UPDATE `access_state` SET `version` = `version` + 1 WHERE `id` = 1;
END;
