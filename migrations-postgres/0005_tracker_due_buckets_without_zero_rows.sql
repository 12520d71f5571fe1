-- tracker_due_buckets keeps only buckets that count something (migrations/*_tracker_due_buckets_without_zero_rows.sql):
-- every -1 deletes the (user, bucket) rows it brought to zero; the existing zeros go at once.
CREATE OR REPLACE FUNCTION engram_tracker_due_add(who integer, due timestamptz, note integer, delta integer) RETURNS void LANGUAGE sql AS $$
  INSERT INTO tracker_due_buckets (user_id, bucket, notebook_id, trackers)
    SELECT who, engram_bucket(due), n.notebook_id, delta FROM notes n WHERE n.id = note AND n.deleted_at IS NULL
    ON CONFLICT (user_id, bucket, notebook_id) DO UPDATE SET trackers = tracker_due_buckets.trackers + excluded.trackers;
  DELETE FROM tracker_due_buckets WHERE delta < 0 AND user_id = who AND bucket = engram_bucket(due) AND trackers = 0;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION engram_tracker_due_add_note(note integer, notebook integer, sign integer) RETURNS void LANGUAGE sql AS $$
  INSERT INTO tracker_due_buckets (user_id, bucket, notebook_id, trackers)
    SELECT m.user_id, engram_bucket(m.next_recall_at), notebook, sign * COUNT(*)::integer FROM memory_trackers m
    WHERE m.note_id = note AND NOT m.removed_from_tracking
    GROUP BY m.user_id, engram_bucket(m.next_recall_at)
    ON CONFLICT (user_id, bucket, notebook_id) DO UPDATE SET trackers = tracker_due_buckets.trackers + excluded.trackers;
  DELETE FROM tracker_due_buckets WHERE sign < 0 AND trackers = 0 AND (user_id, bucket) IN
    (SELECT m.user_id, engram_bucket(m.next_recall_at) FROM memory_trackers m WHERE m.note_id = note AND NOT m.removed_from_tracking);
$$;
--> statement-breakpoint
DELETE FROM tracker_due_buckets WHERE trackers = 0;
