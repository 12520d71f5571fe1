/**
 * The condition that user `userId` may recall (and assimilate) the notes of notebook `nb`: an
 * owner, a member of the owning circle or a subscriber (the policy's RECALLING_ROLES, as SQL for
 * the list queries of the memory store). `nb` may be an alias of the notebooks table.
 */
import { and, eq, exists, isNull, type SQL, sql } from "drizzle-orm";
import type { notebooks } from "../../db/schema";
import type { Session } from "../session";

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
