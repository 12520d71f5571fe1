-- A review (a tracker's schedule changing, nothing else about it) raises "user-recall" instead of
-- "user-learning" (migrations/*_reviews_raise_their_own_cache_version.sql).
CREATE FUNCTION engram_cache_versions_memory_trackers() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND (OLD.user_id, OLD.note_id, OLD.spelling, OLD.assimilated_at, OLD.removed_from_tracking)
    IS NOT DISTINCT FROM (NEW.user_id, NEW.note_id, NEW.spelling, NEW.assimilated_at, NEW.removed_from_tracking) THEN
    PERFORM engram_bump('user-recall', NEW.user_id);
    RETURN NULL;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN PERFORM engram_bump('user-learning', NEW.user_id); END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN PERFORM engram_bump('user-learning', OLD.user_id); END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
DROP TRIGGER cache_versions_after_memory_trackers ON memory_trackers;
--> statement-breakpoint
CREATE TRIGGER cache_versions_after_memory_trackers AFTER INSERT OR UPDATE OR DELETE ON memory_trackers
  FOR EACH ROW EXECUTE FUNCTION engram_cache_versions_memory_trackers();
