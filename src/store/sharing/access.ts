/**
 * The facts the permission policy reads (src/services/policies): circle membership, subscriptions,
 * the bazaar, and the notebooks a user reaches through them. Each is one indexed lookup, prepared
 * once per database: the policy asks them on every page and every search.
 */
import { and, eq, exists, inArray, isNull, or, type SQL, sql } from "drizzle-orm";
import type { notebooks } from "../../db/schema";
import { version } from "../cache-versions/cache-versions-store";
import { all, byDialect, inIds, one, prepared, rawAll, type Session, type Step } from "../session";

export function* isCircleMember(s: Session, circleId: number, userId: number): Step<boolean> {
  const { circleMembers: cm } = s.t;
  const query = prepared(s, "is-circle-member", () =>
    s.db
      .select({ found: sql<number>`1` })
      .from(cm)
      .where(and(eq(cm.circleId, sql.placeholder("circleId")), eq(cm.userId, sql.placeholder("userId")))),
  );
  return (yield* one(s, query, { circleId, userId })) !== undefined;
}

export function* isSubscribed(s: Session, userId: number, notebookId: number): Step<boolean> {
  const { subscriptions: sub } = s.t;
  const query = prepared(s, "is-subscribed", () =>
    s.db
      .select({ found: sql<number>`1` })
      .from(sub)
      .where(and(eq(sub.userId, sql.placeholder("userId")), eq(sub.notebookId, sql.placeholder("notebookId")))),
  );
  return (yield* one(s, query, { userId, notebookId })) !== undefined;
}

export function* isBazaarNotebook(s: Session, notebookId: number): Step<boolean> {
  const { bazaarNotebooks: b } = s.t;
  const query = prepared(s, "is-bazaar-notebook", () =>
    s.db
      .select({ found: sql<number>`1` })
      .from(b)
      .where(eq(b.notebookId, sql.placeholder("notebookId"))),
  );
  return (yield* one(s, query, { notebookId })) !== undefined;
}

/** The ids of every notebook in the bazaar, in id order. */
export function* bazaarNotebookIds(s: Session): Step<number[]> {
  const { bazaarNotebooks: b } = s.t;
  const query = prepared(s, "bazaar-notebook-ids", () => s.db.select({ id: b.notebookId }).from(b).orderBy(b.notebookId));
  // Parameters, even none, make PostgreSQL run the prepared statement (session.ts, pending).
  return (yield* all(s, query, {})).map((row) => row.id);
}

/**
 * What a reader's read rights are made of, in one snapshot: the version of the user's access
 * (undefined for a visitor), under which their readable notebooks are cached, and the bazaar's
 * notebooks (anyone reads those).
 */
export function* readerAccess(s: Session, userId: number | undefined): Step<{ accessVersion?: number; bazaar: number[] }> {
  const accessVersion = userId === undefined ? undefined : yield* version(s, "user-access", userId);
  return { accessVersion, bazaar: yield* bazaarNotebookIds(s) };
}

/** How a user other than a personal notebook's creator reaches a notebook: the first that holds, in the policy's order. */
export type NotebookTie = "circle-member" | "subscriber" | "bazaar" | "none";

/**
 * The first tie that holds between a user (undefined: a visitor) and a notebook, asked in the
 * policy's order (membership of the owning circle, subscription, the bazaar), each lookup only
 * when the one before it failed.
 */
export function* notebookTie(s: Session, userId: number | undefined, notebook: { id: number; circleId: number | null }): Step<NotebookTie> {
  if (userId !== undefined) {
    if (notebook.circleId !== null && (yield* isCircleMember(s, notebook.circleId, userId))) return "circle-member";
    if (yield* isSubscribed(s, userId, notebook.id)) return "subscriber";
  }
  return (yield* isBazaarNotebook(s, notebook.id)) ? "bazaar" : "none";
}

/**
 * Whether anything of the notebook is held by learners through it: a subscription, a certificate,
 * an assessment attempt or its bazaar entry. A notebook so held is never deleted (the database's
 * trigger notebooks_kept_while_held refuses it as well).
 */
export function* othersHoldNotebook(s: Session, notebookId: number): Step<boolean> {
  const { subscriptions, certificates, assessmentAttempts, bazaarNotebooks } = s.t;
  const held = (table: typeof subscriptions | typeof certificates | typeof assessmentAttempts | typeof bazaarNotebooks) =>
    exists(s.db.select({ found: sql`1` }).from(table).where(eq(table.notebookId, notebookId)));
  const [row] = yield* rawAll<{ held: number }>(
    s,
    sql`SELECT CASE WHEN ${or(held(subscriptions), held(certificates), held(assessmentAttempts), held(bazaarNotebooks))} THEN 1 ELSE 0 END AS held`,
  );
  return Number(row?.held ?? 0) === 1;
}

/** Which of a user's notebooks a list or search covers. */
export interface NotebookScope {
  /** Personal notebooks the user created. */
  own?: boolean;
  subscriptions?: boolean;
  circles?: boolean;
}

export type ScopePart = keyof NotebookScope;

/** One part of a scope: the ids of the notebooks the user reaches that way (one indexed lookup). */
function scopePart(s: Session, part: ScopePart) {
  const { notebooks, subscriptions, circleMembers } = s.t;
  const userId = sql.placeholder("userId");
  switch (part) {
    case "own":
      return prepared(s, "readable-own", () =>
        s.db
          .select({ id: notebooks.id })
          .from(notebooks)
          .where(and(eq(notebooks.creatorId, userId), isNull(notebooks.circleId))),
      );
    case "subscriptions":
      return prepared(s, "readable-subscribed", () =>
        s.db.select({ id: subscriptions.notebookId }).from(subscriptions).where(eq(subscriptions.userId, userId)),
      );
    case "circles":
      return prepared(s, "readable-circles", () =>
        s.db
          .select({ id: notebooks.id })
          .from(notebooks)
          .where(
            inArray(
              notebooks.circleId,
              s.db.select({ id: circleMembers.circleId }).from(circleMembers).where(eq(circleMembers.userId, userId)),
            ),
          ),
      );
  }
}

/**
 * The ids of the notebooks a user reaches through these parts of a scope, in id order. The parts
 * are looked up one by one and merged here (a UNION of them made SQLite build two temporary
 * b-trees, several times the cost of the lookups; a join costs twice the IN lookup).
 */
export function* reachableNotebookIds(s: Session, userId: number, parts: readonly ScopePart[]): Step<number[]> {
  const ids = new Set<number>();
  for (const part of parts) {
    for (const row of yield* all(s, scopePart(s, part), { userId })) ids.add(row.id);
  }
  return [...ids].sort((a, b) => a - b);
}

/** The notebook of each of these notes that exists (unknown ids are left out). */
export function* notebooksOfNotes(s: Session, noteIds: readonly number[]): Step<{ id: number; notebookId: number }[]> {
  if (noteIds.length === 0) return [];
  const { notes } = s.t;
  return yield* byDialect(s, {
    // One parameter whatever the number of ids (SQLite limits a statement's parameters).
    sqlite: () =>
      rawAll<{ id: number; notebookId: number }>(
        s,
        sql`SELECT ${notes.id} AS id, ${notes.notebookId} AS notebookId FROM ${notes}
            WHERE ${notes.id} IN (SELECT value FROM json_each(${JSON.stringify(noteIds)}))`,
      ),
    postgres: () =>
      all(
        s,
        s.db
          .select({ id: notes.id, notebookId: notes.notebookId })
          .from(notes)
          .where(inIds(s, notes.id, noteIds)),
      ),
  });
}

/**
 * The condition that user `userId` may recall (and assimilate) the notes of notebook `nb` (an
 * owner, a member of the owning circle or a subscriber): the policy's mayRecall as SQL, for the
 * list queries of the stores (recall, statistics). `nb` may be an alias of the notebooks table.
 */
export function recallableNotebook(s: Session, nb: typeof notebooks, userId: number | SQL): SQL {
  const { circleMembers: cm, subscriptions: sub } = s.t;
  return sql`(${and(isNull(nb.circleId), eq(nb.creatorId, userId))}
    OR ${exists(
      s.db
        .select({ found: sql`1` })
        .from(cm)
        .where(and(eq(cm.circleId, nb.circleId), eq(cm.userId, userId))),
    )}
    OR ${exists(
      s.db
        .select({ found: sql`1` })
        .from(sub)
        .where(and(eq(sub.notebookId, nb.id), eq(sub.userId, userId))),
    )})`;
}
