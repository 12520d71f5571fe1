-- Every SQLite trigger of migrations/ as PL/pgSQL (docs/architecture.md, "PostgreSQL"), with the
-- same effect on the same rows. Full-text search's FTS5 tables are replaced by trigram indexes.

-- Literal search: pg_trgm GIN indexes on the notes' title and details (ranked in the application).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE INDEX "notes_title_trgm_idx" ON "notes" USING gin ("title" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "notes_details_trgm_idx" ON "notes" USING gin ("details" gin_trgm_ops);
--> statement-breakpoint
INSERT INTO "search_index_state" ("id", "bits_version") VALUES (1, 0);
--> statement-breakpoint

-- Milliseconds since the epoch, and their 15-minute bucket, as SQLite's integer timestamps give them.
CREATE FUNCTION engram_ms(t timestamptz) RETURNS bigint LANGUAGE sql IMMUTABLE AS $$
  SELECT floor(extract(epoch FROM t) * 1000)::bigint
$$;
--> statement-breakpoint
CREATE FUNCTION engram_bucket(t timestamptz) RETURNS integer LANGUAGE sql IMMUTABLE AS $$
  SELECT (floor(extract(epoch FROM t) * 1000)::bigint / 900000)::integer
$$;
--> statement-breakpoint

-- One more version of a cached scope (services/cache-versions.ts); a missing row is version 0.
CREATE FUNCTION engram_bump(bump_scope text, bump_id integer) RETURNS void LANGUAGE sql AS $$
  INSERT INTO cache_versions (scope, id, version) VALUES (bump_scope, bump_id, 1)
  ON CONFLICT (scope, id) DO UPDATE SET version = cache_versions.version + 1
$$;
--> statement-breakpoint
-- The same for every member of a circle (none when the circle is null).
CREATE FUNCTION engram_bump_circle(bump_scope text, circle integer) RETURNS void LANGUAGE sql AS $$
  INSERT INTO cache_versions (scope, id, version) SELECT bump_scope, user_id, 1 FROM circle_members WHERE circle_id = circle
  ON CONFLICT (scope, id) DO UPDATE SET version = cache_versions.version + 1
$$;
--> statement-breakpoint

-- sqlite-vec's vec_quantize_binary: one bit per dimension of a float32 little-endian vector, set
-- when the value is positive, the first dimension in the lowest bit of the first byte.
CREATE FUNCTION engram_quantize_binary(embedding bytea, dimensions integer) RETURNS bytea LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  result bytea := decode(repeat('00', dimensions / 8), 'hex');
  byte integer := 0;
  high integer;
  exponent integer;
  i integer;
BEGIN
  FOR i IN 0 .. dimensions - 1 LOOP
    high := get_byte(embedding, i * 4 + 3);
    exponent := ((high & 127) << 1) | (get_byte(embedding, i * 4 + 2) >> 7);
    -- Positive: sign clear, not zero, not NaN.
    IF high < 128
      AND (high <> 0 OR get_byte(embedding, i * 4 + 2) <> 0 OR get_byte(embedding, i * 4 + 1) <> 0 OR get_byte(embedding, i * 4) <> 0)
      AND NOT (exponent = 255 AND ((get_byte(embedding, i * 4 + 2) & 127) <> 0 OR get_byte(embedding, i * 4 + 1) <> 0 OR get_byte(embedding, i * 4) <> 0))
    THEN
      byte := byte | (1 << (i % 8));
    END IF;
    IF i % 8 = 7 THEN
      result := set_byte(result, i / 8, byte);
      byte := 0;
    END IF;
  END LOOP;
  RETURN result;
END
$$;
--> statement-breakpoint

-- Learning counters: the notes each user may still assimilate, and active trackers per user.
CREATE FUNCTION engram_candidate_for_note(note integer) RETURNS void LANGUAGE sql AS $$
  INSERT INTO assimilation_candidates (user_id, note_id, level, created_at)
  SELECT nb.creator_id, n.id, n.level, engram_ms(n.created_at) FROM notes n JOIN notebooks nb ON nb.id = n.notebook_id
  WHERE n.id = note AND n.deleted_at IS NULL AND NOT n.skip_memory_tracking
    AND NOT EXISTS (SELECT 1 FROM memory_trackers m WHERE m.user_id = nb.creator_id AND m.note_id = n.id)
  ON CONFLICT DO NOTHING
$$;
--> statement-breakpoint
CREATE FUNCTION engram_trackers_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM assimilation_candidates WHERE user_id = NEW.user_id AND note_id = NEW.note_id;
  INSERT INTO user_tracker_counts (user_id, active_trackers) VALUES (NEW.user_id, CASE WHEN NEW.removed_from_tracking THEN 0 ELSE 1 END)
  ON CONFLICT (user_id) DO UPDATE SET active_trackers = user_tracker_counts.active_trackers + excluded.active_trackers;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER trackers_after_insert AFTER INSERT ON memory_trackers FOR EACH ROW EXECUTE FUNCTION engram_trackers_after_insert();
--> statement-breakpoint
CREATE FUNCTION engram_trackers_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE user_tracker_counts SET active_trackers = active_trackers - 1 WHERE user_id = OLD.user_id AND NOT OLD.removed_from_tracking;
  INSERT INTO assimilation_candidates (user_id, note_id, level, created_at)
  SELECT OLD.user_id, n.id, n.level, engram_ms(n.created_at) FROM notes n JOIN notebooks nb ON nb.id = n.notebook_id
  WHERE n.id = OLD.note_id AND nb.creator_id = OLD.user_id AND n.deleted_at IS NULL AND NOT n.skip_memory_tracking
    AND NOT EXISTS (SELECT 1 FROM memory_trackers m WHERE m.user_id = OLD.user_id AND m.note_id = n.id)
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER trackers_after_delete AFTER DELETE ON memory_trackers FOR EACH ROW EXECUTE FUNCTION engram_trackers_after_delete();
--> statement-breakpoint
CREATE FUNCTION engram_trackers_after_removed_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE user_tracker_counts SET active_trackers = active_trackers + CASE WHEN NEW.removed_from_tracking THEN -1 ELSE 1 END
  WHERE user_id = NEW.user_id;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER trackers_after_removed_change AFTER UPDATE OF removed_from_tracking ON memory_trackers FOR EACH ROW
  WHEN (OLD.removed_from_tracking <> NEW.removed_from_tracking) EXECUTE FUNCTION engram_trackers_after_removed_change();
--> statement-breakpoint
CREATE FUNCTION engram_candidates_after_note_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM engram_candidate_for_note(NEW.id);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER candidates_after_note_insert AFTER INSERT ON notes FOR EACH ROW EXECUTE FUNCTION engram_candidates_after_note_insert();
--> statement-breakpoint
CREATE FUNCTION engram_candidates_after_note_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM assimilation_candidates WHERE note_id = NEW.id;
  PERFORM engram_candidate_for_note(NEW.id);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER candidates_after_note_update AFTER UPDATE OF deleted_at, skip_memory_tracking, level, notebook_id, created_at ON notes
  FOR EACH ROW EXECUTE FUNCTION engram_candidates_after_note_update();
--> statement-breakpoint
CREATE FUNCTION engram_candidates_after_note_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM assimilation_candidates WHERE note_id = OLD.id;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER candidates_after_note_delete AFTER DELETE ON notes FOR EACH ROW EXECUTE FUNCTION engram_candidates_after_note_delete();
--> statement-breakpoint
CREATE FUNCTION engram_candidates_after_notebook_owner_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM assimilation_candidates WHERE note_id IN (SELECT id FROM notes WHERE notebook_id = NEW.id);
  INSERT INTO assimilation_candidates (user_id, note_id, level, created_at)
  SELECT NEW.creator_id, n.id, n.level, engram_ms(n.created_at) FROM notes n
  WHERE n.notebook_id = NEW.id AND n.deleted_at IS NULL AND NOT n.skip_memory_tracking
    AND NOT EXISTS (SELECT 1 FROM memory_trackers m WHERE m.user_id = NEW.creator_id AND m.note_id = n.id)
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER candidates_after_notebook_owner_change AFTER UPDATE OF creator_id ON notebooks
  FOR EACH ROW EXECUTE FUNCTION engram_candidates_after_notebook_owner_change();
--> statement-breakpoint

-- The recall-log aggregates (recalls per user and 15-minute bucket, per tracker), leaving out the
-- reviews of trackers an unfinished operation holds (pending reviews are out of the aggregates).
CREATE FUNCTION engram_recall_log_aggregates_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM operation_rows WHERE kind = 'tracker' AND row_id = NEW.memory_tracker_id) THEN
    RETURN NULL;
  END IF;
  INSERT INTO recall_log_buckets (user_id, bucket, recalls, successes)
    VALUES (NEW.user_id, engram_bucket(NEW.reviewed_at), 1, (NEW.outcome = 'success')::integer)
    ON CONFLICT (user_id, bucket) DO UPDATE SET recalls = recall_log_buckets.recalls + 1, successes = recall_log_buckets.successes + excluded.successes;
  INSERT INTO recall_log_tracker_counts (memory_tracker_id, user_id, successes, failures)
    VALUES (NEW.memory_tracker_id, NEW.user_id, (NEW.outcome = 'success')::integer, (NEW.outcome = 'failure')::integer)
    ON CONFLICT (memory_tracker_id) DO UPDATE SET successes = recall_log_tracker_counts.successes + excluded.successes,
      failures = recall_log_tracker_counts.failures + excluded.failures;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER recall_log_aggregates_insert AFTER INSERT ON recall_log FOR EACH ROW
  WHEN (NEW.outcome IN ('success', 'failure') AND NEW.kind <> 'assimilation') EXECUTE FUNCTION engram_recall_log_aggregates_insert();
--> statement-breakpoint

-- The recall log is never edited.
CREATE FUNCTION engram_recall_log_never_edited() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the recall log is never edited';
END
$$;
--> statement-breakpoint
CREATE TRIGGER recall_log_never_edited BEFORE UPDATE ON recall_log FOR EACH ROW EXECUTE FUNCTION engram_recall_log_never_edited();
--> statement-breakpoint

-- Semantic search: the binary-quantised copy of every embedding, and the log of which notes' bits changed.
CREATE FUNCTION engram_note_embedding_bits_after_write() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM note_embedding_bits WHERE note_id = NEW.note_id;
  INSERT INTO note_embedding_bits (note_id, notebook_id, model, dimensions, bits)
    SELECT NEW.note_id, n.notebook_id, NEW.model, NEW.dimensions, engram_quantize_binary(NEW.embedding, NEW.dimensions)
    FROM notes n WHERE n.id = NEW.note_id AND NEW.dimensions % 8 = 0;
  INSERT INTO note_embedding_bits_changes (note_id) VALUES (NEW.note_id);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER note_embedding_bits_after_insert AFTER INSERT ON note_embeddings FOR EACH ROW EXECUTE FUNCTION engram_note_embedding_bits_after_write();
--> statement-breakpoint
CREATE TRIGGER note_embedding_bits_after_update AFTER UPDATE ON note_embeddings FOR EACH ROW EXECUTE FUNCTION engram_note_embedding_bits_after_write();
--> statement-breakpoint
CREATE FUNCTION engram_note_embedding_bits_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM note_embedding_bits WHERE note_id = OLD.note_id;
  INSERT INTO note_embedding_bits_changes (note_id) VALUES (OLD.note_id);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER note_embedding_bits_after_delete AFTER DELETE ON note_embeddings FOR EACH ROW EXECUTE FUNCTION engram_note_embedding_bits_after_delete();
--> statement-breakpoint
CREATE FUNCTION engram_note_embedding_bits_note_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE note_embedding_bits SET notebook_id = NEW.notebook_id WHERE note_id = NEW.id;
  IF FOUND THEN
    INSERT INTO note_embedding_bits_changes (note_id) VALUES (NEW.id);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER note_embedding_bits_note_moved AFTER UPDATE OF notebook_id ON notes FOR EACH ROW
  WHEN (NEW.notebook_id <> OLD.notebook_id) EXECUTE FUNCTION engram_note_embedding_bits_note_moved();
--> statement-breakpoint

-- The note text revisions: every change of a title or details raises its revision and keeps the
-- last 50 texts. A BEFORE trigger sets the revision on the row being written (SQLite updates it after).
CREATE FUNCTION engram_note_text_revisions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.title IS DISTINCT FROM OLD.title THEN
    INSERT INTO note_text_revisions (note_id, field, revision, text) VALUES (NEW.id, 'title', OLD.title_revision, OLD.title)
      ON CONFLICT DO NOTHING;
    NEW.title_revision := OLD.title_revision + 1;
    INSERT INTO note_text_revisions (note_id, field, revision, text) VALUES (NEW.id, 'title', NEW.title_revision, NEW.title)
      ON CONFLICT (note_id, field, revision) DO UPDATE SET text = excluded.text;
    DELETE FROM note_text_revisions WHERE note_id = NEW.id AND field = 'title' AND revision <= NEW.title_revision - 50;
  END IF;
  IF NEW.details IS DISTINCT FROM OLD.details THEN
    INSERT INTO note_text_revisions (note_id, field, revision, text) VALUES (NEW.id, 'details', OLD.details_revision, OLD.details)
      ON CONFLICT DO NOTHING;
    NEW.details_revision := OLD.details_revision + 1;
    INSERT INTO note_text_revisions (note_id, field, revision, text) VALUES (NEW.id, 'details', NEW.details_revision, NEW.details)
      ON CONFLICT (note_id, field, revision) DO UPDATE SET text = excluded.text;
    DELETE FROM note_text_revisions WHERE note_id = NEW.id AND field = 'details' AND revision <= NEW.details_revision - 50;
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER note_text_revisions BEFORE UPDATE OF title, details ON notes FOR EACH ROW EXECUTE FUNCTION engram_note_text_revisions();
--> statement-breakpoint

-- The note_changes outbox: a note's own text changed (created, details edited, restored), or its
-- place (title or parent changed: the note and every descendant).
CREATE FUNCTION engram_note_changes_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO note_changes (note_id, kind) VALUES (NEW.id, 'text');
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER note_changes_after_insert AFTER INSERT ON notes FOR EACH ROW WHEN (NEW.target_note_id IS NULL)
  EXECUTE FUNCTION engram_note_changes_after_insert();
--> statement-breakpoint
CREATE FUNCTION engram_note_changes_after_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.title IS DISTINCT FROM OLD.title THEN
    INSERT INTO note_changes (note_id, kind) VALUES (NEW.id, 'subtree');
  END IF;
  IF NEW.parent_id IS DISTINCT FROM OLD.parent_id THEN
    INSERT INTO note_changes (note_id, kind) VALUES (NEW.id, 'subtree');
  END IF;
  IF NEW.details IS DISTINCT FROM OLD.details THEN
    INSERT INTO note_changes (note_id, kind) VALUES (NEW.id, 'text');
  END IF;
  IF OLD.deleted_at IS NOT NULL AND NEW.deleted_at IS NULL THEN
    INSERT INTO note_changes (note_id, kind) VALUES (NEW.id, 'text');
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER note_changes_after_update AFTER UPDATE OF title, parent_id, details, deleted_at ON notes
  FOR EACH ROW EXECUTE FUNCTION engram_note_changes_after_update();
--> statement-breakpoint

-- A notebook others hold something of is kept.
CREATE FUNCTION engram_notebooks_kept_while_held() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM subscriptions WHERE notebook_id = OLD.id)
    OR EXISTS (SELECT 1 FROM certificates WHERE notebook_id = OLD.id)
    OR EXISTS (SELECT 1 FROM assessment_attempts WHERE notebook_id = OLD.id)
    OR EXISTS (SELECT 1 FROM bazaar_notebooks WHERE notebook_id = OLD.id)
  THEN
    RAISE EXCEPTION 'A notebook that others hold something of (subscriptions, certificates, assessment attempts, a bazaar entry) cannot be deleted';
  END IF;
  RETURN OLD;
END
$$;
--> statement-breakpoint
CREATE TRIGGER notebooks_kept_while_held BEFORE DELETE ON notebooks FOR EACH ROW EXECUTE FUNCTION engram_notebooks_kept_while_held();
--> statement-breakpoint

-- Trackers counted by the forecast, per user, notebook and 15-minute bucket of their next recall.
CREATE FUNCTION engram_tracker_due_add(who integer, due timestamptz, note integer, delta integer) RETURNS void LANGUAGE sql AS $$
  INSERT INTO tracker_due_buckets (user_id, bucket, notebook_id, trackers)
    SELECT who, engram_bucket(due), n.notebook_id, delta FROM notes n WHERE n.id = note AND n.deleted_at IS NULL
    ON CONFLICT (user_id, bucket, notebook_id) DO UPDATE SET trackers = tracker_due_buckets.trackers + excluded.trackers
$$;
--> statement-breakpoint
-- Every active tracker of a note, counted into (or out of) a notebook's buckets.
CREATE FUNCTION engram_tracker_due_add_note(note integer, notebook integer, sign integer) RETURNS void LANGUAGE sql AS $$
  INSERT INTO tracker_due_buckets (user_id, bucket, notebook_id, trackers)
    SELECT m.user_id, engram_bucket(m.next_recall_at), notebook, sign * COUNT(*)::integer FROM memory_trackers m
    WHERE m.note_id = note AND NOT m.removed_from_tracking
    GROUP BY m.user_id, engram_bucket(m.next_recall_at)
    ON CONFLICT (user_id, bucket, notebook_id) DO UPDATE SET trackers = tracker_due_buckets.trackers + excluded.trackers
$$;
--> statement-breakpoint
CREATE FUNCTION engram_tracker_due_buckets_tracker() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND NOT OLD.removed_from_tracking THEN
    PERFORM engram_tracker_due_add(OLD.user_id, OLD.next_recall_at, OLD.note_id, -1);
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') AND NOT NEW.removed_from_tracking THEN
    PERFORM engram_tracker_due_add(NEW.user_id, NEW.next_recall_at, NEW.note_id, 1);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER tracker_due_buckets_tracker_insert AFTER INSERT ON memory_trackers FOR EACH ROW
  WHEN (NOT NEW.removed_from_tracking) EXECUTE FUNCTION engram_tracker_due_buckets_tracker();
--> statement-breakpoint
CREATE TRIGGER tracker_due_buckets_tracker_delete AFTER DELETE ON memory_trackers FOR EACH ROW
  WHEN (NOT OLD.removed_from_tracking) EXECUTE FUNCTION engram_tracker_due_buckets_tracker();
--> statement-breakpoint
CREATE TRIGGER tracker_due_buckets_tracker_update AFTER UPDATE OF next_recall_at, removed_from_tracking, note_id, user_id ON memory_trackers FOR EACH ROW
  WHEN (engram_bucket(OLD.next_recall_at) <> engram_bucket(NEW.next_recall_at) OR OLD.removed_from_tracking <> NEW.removed_from_tracking
    OR OLD.note_id <> NEW.note_id OR OLD.user_id <> NEW.user_id)
  EXECUTE FUNCTION engram_tracker_due_buckets_tracker();
--> statement-breakpoint
-- Before the delete: its trackers are still there (the cascade deletes them after, when the note is gone).
CREATE FUNCTION engram_tracker_due_buckets_note_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM engram_tracker_due_add_note(OLD.id, OLD.notebook_id, -1);
  RETURN OLD;
END
$$;
--> statement-breakpoint
CREATE TRIGGER tracker_due_buckets_note_delete BEFORE DELETE ON notes FOR EACH ROW WHEN (OLD.deleted_at IS NULL)
  EXECUTE FUNCTION engram_tracker_due_buckets_note_delete();
--> statement-breakpoint
CREATE FUNCTION engram_tracker_due_buckets_note_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.deleted_at IS NULL THEN
    PERFORM engram_tracker_due_add_note(OLD.id, OLD.notebook_id, -1);
  END IF;
  IF NEW.deleted_at IS NULL THEN
    PERFORM engram_tracker_due_add_note(NEW.id, NEW.notebook_id, 1);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER tracker_due_buckets_note_update AFTER UPDATE OF deleted_at, notebook_id ON notes FOR EACH ROW
  WHEN ((OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL) OR OLD.notebook_id <> NEW.notebook_id)
  EXECUTE FUNCTION engram_tracker_due_buckets_note_update();
--> statement-breakpoint

-- Cache versions per account, per user (access, learning) and per notebook.
CREATE FUNCTION engram_cache_versions_accounts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN PERFORM engram_bump('account', OLD.id); ELSE PERFORM engram_bump('account', NEW.id); END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER cache_versions_after_accounts AFTER UPDATE OR DELETE ON accounts FOR EACH ROW EXECUTE FUNCTION engram_cache_versions_accounts();
--> statement-breakpoint
CREATE FUNCTION engram_cache_versions_user_learning() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN PERFORM engram_bump('user-learning', NEW.user_id); END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN PERFORM engram_bump('user-learning', OLD.user_id); END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER cache_versions_after_assimilation_candidates AFTER INSERT OR UPDATE OR DELETE ON assimilation_candidates
  FOR EACH ROW EXECUTE FUNCTION engram_cache_versions_user_learning();
--> statement-breakpoint
CREATE TRIGGER cache_versions_after_memory_trackers AFTER INSERT OR UPDATE OR DELETE ON memory_trackers
  FOR EACH ROW EXECUTE FUNCTION engram_cache_versions_user_learning();
--> statement-breakpoint
CREATE FUNCTION engram_cache_versions_user_access() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM engram_bump('user-access', NEW.user_id);
    PERFORM engram_bump('user-learning', NEW.user_id);
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM engram_bump('user-access', OLD.user_id);
    PERFORM engram_bump('user-learning', OLD.user_id);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER cache_versions_after_circle_members AFTER INSERT OR UPDATE OR DELETE ON circle_members
  FOR EACH ROW EXECUTE FUNCTION engram_cache_versions_user_access();
--> statement-breakpoint
CREATE TRIGGER cache_versions_after_subscriptions AFTER INSERT OR UPDATE OR DELETE ON subscriptions
  FOR EACH ROW EXECUTE FUNCTION engram_cache_versions_user_access();
--> statement-breakpoint
CREATE FUNCTION engram_cache_versions_conversation_messages() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  conversation integer := CASE WHEN TG_OP = 'DELETE' THEN OLD.conversation_id ELSE NEW.conversation_id END;
BEGIN
  INSERT INTO cache_versions (scope, id, version)
    SELECT 'user-learning', party, 1 FROM (
      SELECT initiator_user_id AS party FROM conversations WHERE id = conversation
      UNION SELECT owner_user_id FROM conversations WHERE id = conversation AND owner_user_id IS NOT NULL
      UNION SELECT m.user_id FROM conversations c JOIN circle_members m ON m.circle_id = c.owner_circle_id WHERE c.id = conversation
    ) parties
    ON CONFLICT (scope, id) DO UPDATE SET version = cache_versions.version + 1;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER cache_versions_after_conversation_messages AFTER INSERT OR UPDATE OR DELETE ON conversation_messages
  FOR EACH ROW EXECUTE FUNCTION engram_cache_versions_conversation_messages();
--> statement-breakpoint
CREATE FUNCTION engram_cache_versions_conversations() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM engram_bump('user-learning', NEW.initiator_user_id);
    IF NEW.owner_user_id IS NOT NULL THEN PERFORM engram_bump('user-learning', NEW.owner_user_id); END IF;
    PERFORM engram_bump_circle('user-learning', NEW.owner_circle_id);
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM engram_bump('user-learning', OLD.initiator_user_id);
    IF OLD.owner_user_id IS NOT NULL THEN PERFORM engram_bump('user-learning', OLD.owner_user_id); END IF;
    PERFORM engram_bump_circle('user-learning', OLD.owner_circle_id);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER cache_versions_after_conversations AFTER INSERT OR UPDATE OR DELETE ON conversations
  FOR EACH ROW EXECUTE FUNCTION engram_cache_versions_conversations();
--> statement-breakpoint
CREATE FUNCTION engram_cache_versions_notebooks() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM engram_bump('user-access', NEW.creator_id);
    PERFORM engram_bump_circle('user-access', NEW.circle_id);
    PERFORM engram_bump('notebook', NEW.id);
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM engram_bump('user-access', OLD.creator_id);
    PERFORM engram_bump_circle('user-access', OLD.circle_id);
    PERFORM engram_bump('notebook', OLD.id);
  ELSE
    IF NEW.creator_id IS DISTINCT FROM OLD.creator_id OR NEW.circle_id IS DISTINCT FROM OLD.circle_id THEN
      PERFORM engram_bump('user-access', OLD.creator_id);
      PERFORM engram_bump('user-access', NEW.creator_id);
      PERFORM engram_bump_circle('user-access', OLD.circle_id);
      PERFORM engram_bump_circle('user-access', NEW.circle_id);
    END IF;
    PERFORM engram_bump('notebook', NEW.id);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER cache_versions_after_notebooks AFTER INSERT OR UPDATE OR DELETE ON notebooks
  FOR EACH ROW EXECUTE FUNCTION engram_cache_versions_notebooks();
--> statement-breakpoint
CREATE FUNCTION engram_cache_versions_notes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN PERFORM engram_bump('notebook', NEW.notebook_id); END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN PERFORM engram_bump('notebook', OLD.notebook_id); END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER cache_versions_after_notes_insert_delete AFTER INSERT OR DELETE ON notes
  FOR EACH ROW EXECUTE FUNCTION engram_cache_versions_notes();
--> statement-breakpoint
CREATE TRIGGER cache_versions_after_notes_update AFTER UPDATE OF deleted_at, skip_memory_tracking, notebook_id, parent_id, level, target_note_id ON notes
  FOR EACH ROW EXECUTE FUNCTION engram_cache_versions_notes();
--> statement-breakpoint
CREATE FUNCTION engram_cache_versions_sessions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN PERFORM engram_bump('account', NEW.account_id); END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN PERFORM engram_bump('account', OLD.account_id); END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER cache_versions_after_sessions AFTER INSERT OR UPDATE OR DELETE ON sessions
  FOR EACH ROW EXECUTE FUNCTION engram_cache_versions_sessions();
--> statement-breakpoint
CREATE FUNCTION engram_cache_versions_users() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM engram_bump('account', OLD.account_id);
    PERFORM engram_bump('user-learning', OLD.id);
  ELSE
    PERFORM engram_bump('account', NEW.account_id);
    PERFORM engram_bump('user-learning', NEW.id);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER cache_versions_after_users AFTER INSERT OR UPDATE OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION engram_cache_versions_users();
