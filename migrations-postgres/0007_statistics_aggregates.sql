-- The statistics' aggregates (migrations/*_statistics_aggregates.sql) as PL/pgSQL, with the same
-- effect on the same rows: recalls per hour, the notes assimilated and the sum of intervals per
-- user, the stability spread, when trackers cross each recall-probability bound, and recalls per notebook.

-- The ratios each user's crossings are counted with: the user's own, or else the default weights'.
CREATE VIEW retrievability_ratios AS
  SELECT user_id, bound, ratio FROM retrievability_thresholds
  UNION ALL
  SELECT u.id, d.bound, d.ratio FROM users u
    CROSS JOIN (VALUES (0, 9.287911224230818::float8), (1, 3.3159598011592966::float8), (2, 1.000000004501959::float8),
      (3, 0.40255869380229475::float8)) AS d(bound, ratio)
  WHERE NOT EXISTS (SELECT 1 FROM retrievability_thresholds x WHERE x.user_id = u.id);
--> statement-breakpoint
CREATE FUNCTION engram_stability_bucket(stability double precision) RETURNS integer LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN stability < 1 THEN 0 WHEN stability < 7 THEN 1 WHEN stability < 30 THEN 2
    WHEN stability < 90 THEN 3 WHEN stability < 365 THEN 4 ELSE 5 END
$$;
--> statement-breakpoint
-- The slots (per quarter hour and per day) where a tracker last recalled at `last_at`, of stability
-- `stab`, crosses each bound, with the user's ratios.
CREATE FUNCTION engram_crossing_slots(who integer, last_at timestamptz, stab double precision)
  RETURNS TABLE (span_ms integer, slot bigint, bound integer) LANGUAGE sql STABLE AS $$
  SELECT sp.span_ms, floor(greatest(least(engram_ms(last_at) + t.ratio * stab * 86400000, 4e15), -4e15) / sp.span_ms)::bigint, t.bound
  FROM retrievability_ratios t CROSS JOIN (VALUES (900000), (86400000)) AS sp(span_ms)
  WHERE stab > 0 AND t.user_id = who
$$;
--> statement-breakpoint
-- One active tracker's state counted into (delta 1) or out of (delta -1) the user's aggregates.
CREATE FUNCTION engram_tracker_aggregates_add(who integer, is_spelling boolean, next_at timestamptz, last_at timestamptz,
  stab double precision, delta integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO user_tracker_counts (user_id, active_notes, interval_ms)
    VALUES (who, CASE WHEN is_spelling THEN 0 ELSE delta END, delta * (engram_ms(next_at) - engram_ms(last_at)))
    ON CONFLICT (user_id) DO UPDATE SET active_notes = user_tracker_counts.active_notes + excluded.active_notes,
      interval_ms = user_tracker_counts.interval_ms + excluded.interval_ms;
  IF stab IS NOT NULL THEN
    INSERT INTO tracker_stability_buckets (user_id, bucket, trackers) VALUES (who, engram_stability_bucket(stab), delta)
      ON CONFLICT (user_id, bucket) DO UPDATE SET trackers = tracker_stability_buckets.trackers + excluded.trackers;
  END IF;
  IF stab > 0 THEN
    INSERT INTO retrievability_crossings (user_id, span_ms, slot, bound, trackers)
      SELECT who, c.span_ms, c.slot, c.bound, delta FROM engram_crossing_slots(who, last_at, stab) c
      ON CONFLICT (user_id, span_ms, slot, bound) DO UPDATE SET trackers = retrievability_crossings.trackers + excluded.trackers;
    IF delta < 0 THEN
      DELETE FROM retrievability_crossings r WHERE r.user_id = who AND r.trackers = 0
        AND (r.span_ms, r.slot, r.bound) IN (SELECT c.span_ms, c.slot, c.bound FROM engram_crossing_slots(who, last_at, stab) c);
    END IF;
  END IF;
END
$$;
--> statement-breakpoint
CREATE FUNCTION engram_tracker_aggregates() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND NOT OLD.removed_from_tracking THEN
    PERFORM engram_tracker_aggregates_add(OLD.user_id, OLD.spelling, OLD.next_recall_at, OLD.last_recalled_at, OLD.stability, -1);
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') AND NOT NEW.removed_from_tracking THEN
    PERFORM engram_tracker_aggregates_add(NEW.user_id, NEW.spelling, NEW.next_recall_at, NEW.last_recalled_at, NEW.stability, 1);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER tracker_aggregates_after_insert AFTER INSERT ON memory_trackers FOR EACH ROW
  WHEN (NOT NEW.removed_from_tracking) EXECUTE FUNCTION engram_tracker_aggregates();
--> statement-breakpoint
CREATE TRIGGER tracker_aggregates_after_delete AFTER DELETE ON memory_trackers FOR EACH ROW
  WHEN (NOT OLD.removed_from_tracking) EXECUTE FUNCTION engram_tracker_aggregates();
--> statement-breakpoint
CREATE TRIGGER tracker_aggregates_after_update
  AFTER UPDATE OF removed_from_tracking, spelling, next_recall_at, last_recalled_at, stability, user_id ON memory_trackers FOR EACH ROW
  WHEN ((OLD.removed_from_tracking, OLD.spelling, OLD.next_recall_at, OLD.last_recalled_at, OLD.stability, OLD.user_id)
    IS DISTINCT FROM (NEW.removed_from_tracking, NEW.spelling, NEW.next_recall_at, NEW.last_recalled_at, NEW.stability, NEW.user_id))
  EXECUTE FUNCTION engram_tracker_aggregates();
--> statement-breakpoint

-- Recalls per notebook follow recall_log_tracker_counts: the tracker's note's notebook, looked up as the count changes.
CREATE FUNCTION engram_recall_log_notebook_add(who integer, note integer, more_successes integer, more_failures integer)
  RETURNS void LANGUAGE sql AS $$
  INSERT INTO recall_log_notebook_counts (user_id, notebook_id, successes, failures)
    SELECT who, n.notebook_id, more_successes, more_failures FROM notes n WHERE n.id = note
    ON CONFLICT (user_id, notebook_id) DO UPDATE SET successes = recall_log_notebook_counts.successes + excluded.successes,
      failures = recall_log_notebook_counts.failures + excluded.failures
$$;
--> statement-breakpoint
-- Every tracker's counts of a note, counted into (sign 1) or out of (sign -1) a notebook.
CREATE FUNCTION engram_recall_log_notebook_add_note(note integer, notebook integer, sign integer) RETURNS void LANGUAGE sql AS $$
  INSERT INTO recall_log_notebook_counts (user_id, notebook_id, successes, failures)
    SELECT c.user_id, notebook, sign * SUM(c.successes)::integer, sign * SUM(c.failures)::integer
    FROM memory_trackers m JOIN recall_log_tracker_counts c ON c.memory_tracker_id = m.id
    WHERE m.note_id = note GROUP BY c.user_id
    ON CONFLICT (user_id, notebook_id) DO UPDATE SET successes = recall_log_notebook_counts.successes + excluded.successes,
      failures = recall_log_notebook_counts.failures + excluded.failures
$$;
--> statement-breakpoint
CREATE FUNCTION engram_recall_log_notebook_counts() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  note integer;
BEGIN
  SELECT m.note_id INTO note FROM memory_trackers m WHERE m.id = NEW.memory_tracker_id;
  IF TG_OP = 'INSERT' THEN
    PERFORM engram_recall_log_notebook_add(NEW.user_id, note, NEW.successes, NEW.failures);
  ELSE
    PERFORM engram_recall_log_notebook_add(NEW.user_id, note, NEW.successes - OLD.successes, NEW.failures - OLD.failures);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER recall_log_notebook_counts_after_insert AFTER INSERT ON recall_log_tracker_counts FOR EACH ROW
  EXECUTE FUNCTION engram_recall_log_notebook_counts();
--> statement-breakpoint
CREATE TRIGGER recall_log_notebook_counts_after_update AFTER UPDATE OF successes, failures ON recall_log_tracker_counts FOR EACH ROW
  EXECUTE FUNCTION engram_recall_log_notebook_counts();
--> statement-breakpoint
-- A tracker deleted: its counts go (before, while they are there; in a note's removal the note is
-- already gone and its own trigger took its trackers' counts away).
CREATE FUNCTION engram_recall_log_notebook_counts_tracker_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM engram_recall_log_notebook_add(c.user_id, OLD.note_id, -c.successes, -c.failures)
    FROM recall_log_tracker_counts c WHERE c.memory_tracker_id = OLD.id;
  RETURN OLD;
END
$$;
--> statement-breakpoint
CREATE TRIGGER recall_log_notebook_counts_tracker_delete BEFORE DELETE ON memory_trackers FOR EACH ROW
  EXECUTE FUNCTION engram_recall_log_notebook_counts_tracker_delete();
--> statement-breakpoint
CREATE FUNCTION engram_recall_log_notebook_counts_tracker_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM engram_recall_log_notebook_add(c.user_id, OLD.note_id, -c.successes, -c.failures)
    FROM recall_log_tracker_counts c WHERE c.memory_tracker_id = OLD.id;
  PERFORM engram_recall_log_notebook_add(c.user_id, NEW.note_id, c.successes, c.failures)
    FROM recall_log_tracker_counts c WHERE c.memory_tracker_id = NEW.id;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER recall_log_notebook_counts_tracker_moved AFTER UPDATE OF note_id ON memory_trackers FOR EACH ROW
  WHEN (OLD.note_id <> NEW.note_id) EXECUTE FUNCTION engram_recall_log_notebook_counts_tracker_moved();
--> statement-breakpoint
-- A note removed for good: its trackers' counts go (its trackers follow by cascade, after the note is gone).
CREATE FUNCTION engram_recall_log_notebook_counts_note_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM engram_recall_log_notebook_add_note(OLD.id, OLD.notebook_id, -1);
  RETURN OLD;
END
$$;
--> statement-breakpoint
CREATE TRIGGER recall_log_notebook_counts_note_delete BEFORE DELETE ON notes FOR EACH ROW
  EXECUTE FUNCTION engram_recall_log_notebook_counts_note_delete();
--> statement-breakpoint
CREATE FUNCTION engram_recall_log_notebook_counts_note_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM engram_recall_log_notebook_add_note(OLD.id, OLD.notebook_id, -1);
  PERFORM engram_recall_log_notebook_add_note(NEW.id, NEW.notebook_id, 1);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER recall_log_notebook_counts_note_moved AFTER UPDATE OF notebook_id ON notes FOR EACH ROW
  WHEN (OLD.notebook_id <> NEW.notebook_id) EXECUTE FUNCTION engram_recall_log_notebook_counts_note_moved();
--> statement-breakpoint
-- The recall log's trigger counts per hour too (reviews an operation holds stay out, as before).
CREATE OR REPLACE FUNCTION engram_recall_log_aggregates_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM operation_rows WHERE kind = 'tracker' AND row_id = NEW.memory_tracker_id) THEN
    RETURN NULL;
  END IF;
  INSERT INTO recall_log_buckets (user_id, bucket, recalls, successes)
    VALUES (NEW.user_id, engram_bucket(NEW.reviewed_at), 1, (NEW.outcome = 'success')::integer)
    ON CONFLICT (user_id, bucket) DO UPDATE SET recalls = recall_log_buckets.recalls + 1, successes = recall_log_buckets.successes + excluded.successes;
  INSERT INTO recall_log_hours (user_id, hour, recalls, successes)
    VALUES (NEW.user_id, (engram_ms(NEW.reviewed_at) / 3600000)::integer, 1, (NEW.outcome = 'success')::integer)
    ON CONFLICT (user_id, hour) DO UPDATE SET recalls = recall_log_hours.recalls + 1, successes = recall_log_hours.successes + excluded.successes;
  INSERT INTO recall_log_tracker_counts (memory_tracker_id, user_id, successes, failures)
    VALUES (NEW.memory_tracker_id, NEW.user_id, (NEW.outcome = 'success')::integer, (NEW.outcome = 'failure')::integer)
    ON CONFLICT (memory_tracker_id) DO UPDATE SET successes = recall_log_tracker_counts.successes + excluded.successes,
      failures = recall_log_tracker_counts.failures + excluded.failures;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Existing data.
INSERT INTO user_tracker_counts (user_id, active_trackers, active_notes, interval_ms)
  SELECT user_id, COUNT(*)::integer, (COUNT(*) FILTER (WHERE NOT spelling))::integer, SUM(engram_ms(next_recall_at) - engram_ms(last_recalled_at))
  FROM memory_trackers WHERE NOT removed_from_tracking GROUP BY user_id
  ON CONFLICT (user_id) DO UPDATE SET active_notes = excluded.active_notes, interval_ms = excluded.interval_ms;
--> statement-breakpoint
INSERT INTO tracker_stability_buckets (user_id, bucket, trackers)
  SELECT user_id, engram_stability_bucket(stability), COUNT(*)::integer
  FROM memory_trackers WHERE NOT removed_from_tracking AND stability IS NOT NULL GROUP BY user_id, engram_stability_bucket(stability);
--> statement-breakpoint
INSERT INTO retrievability_crossings (user_id, span_ms, slot, bound, trackers)
  SELECT m.user_id, c.span_ms, c.slot, c.bound, COUNT(*)::integer
  FROM memory_trackers m CROSS JOIN LATERAL engram_crossing_slots(m.user_id, m.last_recalled_at, m.stability) c
  WHERE NOT m.removed_from_tracking
  GROUP BY m.user_id, c.span_ms, c.slot, c.bound;
--> statement-breakpoint
INSERT INTO recall_log_notebook_counts (user_id, notebook_id, successes, failures)
  SELECT c.user_id, n.notebook_id, SUM(c.successes)::integer, SUM(c.failures)::integer
  FROM recall_log_tracker_counts c JOIN memory_trackers m ON m.id = c.memory_tracker_id JOIN notes n ON n.id = m.note_id
  GROUP BY c.user_id, n.notebook_id;
--> statement-breakpoint
INSERT INTO recall_log_hours (user_id, hour, recalls, successes)
  SELECT user_id, bucket / 4, SUM(recalls)::integer, SUM(successes)::integer FROM recall_log_buckets GROUP BY user_id, bucket / 4;
