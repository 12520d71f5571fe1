/**
 * The note-changes outbox (note_changes, filled by triggers in the same transaction as every change
 * of a note's text or place): `relay` takes the oldest rows and, in the same unit of work, queues
 * the embedding of every note whose embedded text they changed (a title or a move changes every
 * descendant's context too). A row is taken once, by one process: its delete is the claim.
 */
import { asc, inArray, sql } from "drizzle-orm";
import { defineStore, read, type StoreOf, write } from "../define";
import { enqueue } from "../jobs/jobs-store";
import { all, rawAll, run, type Session, type Step } from "../session";

/** Rows taken per unit of work. */
const RELAY_BATCH = 1000;

/** The ids of every descendant of the notes, at any depth. */
function* descendantsOf(s: Session, noteIds: number[]): Step<number[]> {
  if (noteIds.length === 0) return [];
  const { notes } = s.t;
  const rows = yield* rawAll<{ id: number }>(
    s,
    sql`WITH RECURSIVE descendant(id) AS (
          SELECT ${notes.id} FROM ${notes} WHERE ${inArray(notes.parentId, noteIds)}
          UNION ALL
          SELECT ${notes.id} FROM ${notes} JOIN descendant ON ${notes.parentId} = descendant.id
        ) SELECT id FROM descendant`,
  );
  return rows.map((row) => Number(row.id));
}

export interface RelayTarget {
  /** The embedding job's kind, or null when no embedding provider is configured (the rows are dropped). */
  embedKind: string | null;
  /** When the queued embeddings may run (a typing burst collapses into one). */
  runAt: number;
}

/** Takes up to a batch of outbox rows and queues their embeddings; answers how many rows it took (0: empty). */
export function* relay(s: Session, target: RelayTarget, now: number): Step<number> {
  const changes = s.t.noteChanges;
  const oldest = s.db.select({ id: changes.id }).from(changes).orderBy(asc(changes.id)).limit(RELAY_BATCH);
  const taken = yield* all(
    s,
    s.db.delete(changes).where(inArray(changes.id, oldest)).returning({ noteId: changes.noteId, kind: changes.kind }),
  );
  if (taken.length === 0 || target.embedKind === null) return taken.length;
  const subtrees = [...new Set(taken.filter((change) => change.kind === "subtree").map((change) => change.noteId))];
  const noteIds = new Set([...taken.map((change) => change.noteId), ...(yield* descendantsOf(s, subtrees))]);
  yield* enqueue(
    s,
    { kind: target.embedKind, payloads: [...noteIds].map((noteId) => JSON.stringify({ noteId })), runAt: target.runAt, dedupe: true },
    now,
  );
  return taken.length;
}

/** How many outbox rows wait (for tests and diagnostics). */
export function* pending(s: Session): Step<number> {
  const [row] = yield* all(s, s.db.select({ n: sql<number>`count(*)` }).from(s.t.noteChanges));
  return Number(row?.n ?? 0);
}

/** Empties the outbox without relaying (a test reset). */
export function* discardAll(s: Session): Step<void> {
  yield* run(s, s.db.delete(s.t.noteChanges));
}

export const noteChangesStore = defineStore({ relay: write(relay), pending: read(pending), discardAll: write(discardAll) });
export type NoteChangesStore = StoreOf<typeof noteChangesStore>;
