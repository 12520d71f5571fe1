-- Wake-ups (docs/architecture.md, "Nothing only one process knows"): a NOTIFY on one channel,
-- sent by the write's own transaction (delivered at its commit, dropped with its rollback), that
-- wakes the processes polling for it at once. Polling stays the carrier: a lost notification only
-- delays. One notification per statement and topic (PostgreSQL folds identical ones per transaction).
CREATE FUNCTION engram_wake() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('engram_wake', TG_ARGV[0]);
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- A run cancelled through another process: the process streaming it stops it.
CREATE TRIGGER wake_ai_runs AFTER UPDATE OF status ON ai_runs FOR EACH STATEMENT EXECUTE FUNCTION engram_wake('ai-runs');
--> statement-breakpoint
-- A note's text saved through another process: the processes with the note open send it.
CREATE TRIGGER wake_note_revisions AFTER UPDATE OF title, details ON notes FOR EACH STATEMENT EXECUTE FUNCTION engram_wake('note-revisions');
--> statement-breakpoint
-- A job queued: the workers claim it.
CREATE TRIGGER wake_jobs AFTER INSERT ON jobs FOR EACH STATEMENT EXECUTE FUNCTION engram_wake('jobs');
