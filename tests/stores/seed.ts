/** Plain inserts of the rows store tests need, written through a Database as a store body would. */
import { and, eq } from "drizzle-orm";
import type { Stores } from "../../src/store";
import type { Database } from "../../src/store/database";
import { OPERATION_LEASE_MS } from "../../src/store/operations/operations-store";
import { all, one, run, type Session, type Step } from "../../src/store/session";

const at = (ms: number) => new Date(ms);

export function* account(s: Session, name: string, now = 0): Step<number> {
  const [row] = yield* all(
    s,
    s.db
      .insert(s.t.accounts)
      .values({ externalIdentifier: name, createdAt: at(now) })
      .returning({ id: s.t.accounts.id }),
  );
  return row!.id;
}

export function* user(s: Session, name: string, now = 0): Step<{ accountId: number; userId: number }> {
  const accountId = yield* account(s, name, now);
  const [row] = yield* all(
    s,
    s.db
      .insert(s.t.users)
      .values({ accountId, name, createdAt: at(now) })
      .returning({ id: s.t.users.id }),
  );
  return { accountId, userId: row!.id };
}

/** A notebook with its head note; answers both ids. */
export function* notebook(s: Session, creatorId: number, title = "Head", now = 0): Step<{ notebookId: number; headNoteId: number }> {
  const [book] = yield* all(
    s,
    s.db
      .insert(s.t.notebooks)
      .values({ creatorId, createdAt: at(now), updatedAt: at(now) })
      .returning({ id: s.t.notebooks.id }),
  );
  const headNoteId = yield* note(s, book!.id, null, title, now);
  yield* run(s, s.db.update(s.t.notebooks).set({ headNoteId }).where(eq(s.t.notebooks.id, book!.id)));
  return { notebookId: book!.id, headNoteId };
}

export function* note(s: Session, notebookId: number, parentId: number | null, title: string, now = 0, siblingOrder = 1024): Step<number> {
  const [row] = yield* all(
    s,
    s.db
      .insert(s.t.notes)
      .values({ notebookId, parentId, title, siblingOrder, createdAt: at(now), updatedAt: at(now) })
      .returning({ id: s.t.notes.id }),
  );
  return row!.id;
}

export function* tracker(s: Session, userId: number, noteId: number, nextRecallAt: number, now = 0): Step<number> {
  const [row] = yield* all(
    s,
    s.db
      .insert(s.t.memoryTrackers)
      .values({ userId, noteId, assimilatedAt: at(now), lastRecalledAt: at(now), nextRecallAt: at(nextRecallAt) })
      .returning({ id: s.t.memoryTrackers.id }),
  );
  return row!.id;
}

/** A conversation started by one user with another (or with themselves, for an AI thread). */
export function* conversation(s: Session, initiatorUserId: number, ownerUserId = initiatorUserId): Step<number> {
  const [row] = yield* all(
    s,
    s.db
      .insert(s.t.conversations)
      .values({ initiatorUserId, ownerUserId, createdAt: at(0), updatedAt: at(0) })
      .returning({ id: s.t.conversations.id }),
  );
  return row!.id;
}

/** The version of a cache scope's id (0 when no row). */
export function* cacheVersion(s: Session, scope: "account" | "user-access" | "user-learning" | "notebook", id: number): Step<number> {
  const v = s.t.cacheVersions;
  const row = yield* one(
    s,
    s.db
      .select({ version: v.version })
      .from(v)
      .where(and(eq(v.scope, scope), eq(v.id, id))),
  );
  return row?.version ?? 0;
}

/** Runs a seed body as one write unit. */
export const seed = <T>(database: Database, body: (s: Session) => Step<T>) => database.write(body);

/** An Obsidian import into the notebook, started now with a fresh lease: its operation's id. */
export async function startedImport(stores: Stores, userId: number, notebookId: number, label: string): Promise<number> {
  const now = Date.now();
  const operation = await stores.operations.start({ kind: "obsidian-import", userId, notebookId, label }, now, now + OPERATION_LEASE_MS);
  return operation!.id;
}
