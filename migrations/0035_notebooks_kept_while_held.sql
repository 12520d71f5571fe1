-- A notebook that learners hold something of (a subscription, a certificate, an assessment attempt,
-- its bazaar entry) is never deleted: its rows would otherwise go with it through ON DELETE CASCADE.
-- Whatever code path asks, the database refuses (a move that folds one notebook into another checks
-- this first and answers a clear error).
CREATE TRIGGER `notebooks_kept_while_held` BEFORE DELETE ON `notebooks`
WHEN EXISTS (SELECT 1 FROM `subscriptions` WHERE `notebook_id` = OLD.`id`)
  OR EXISTS (SELECT 1 FROM `certificates` WHERE `notebook_id` = OLD.`id`)
  OR EXISTS (SELECT 1 FROM `assessment_attempts` WHERE `notebook_id` = OLD.`id`)
  OR EXISTS (SELECT 1 FROM `bazaar_notebooks` WHERE `notebook_id` = OLD.`id`)
BEGIN
  SELECT RAISE(ABORT, 'A notebook that others hold something of (subscriptions, certificates, assessment attempts, a bazaar entry) cannot be deleted');
END;
