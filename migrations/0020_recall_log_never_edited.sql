-- The recall log is written once per review and never edited (issue 17): refuse updates.
CREATE TRIGGER `recall_log_never_edited` BEFORE UPDATE ON `recall_log`
BEGIN
  SELECT RAISE(ABORT, 'the recall log is never edited');
END;
