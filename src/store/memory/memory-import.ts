/**
 * The memory store's bodies for the imports (src/operations), run by an import's worker on its own
 * connection: the trackers an Anki deck brings (kept out of recall and of the statistics' aggregates
 * until the import publishes), their publishing, and their removal when the import fails (their
 * reviews go with them, by cascade).
 */
import { inArray, sql } from "drizzle-orm";
import { all, byDialect, rawRun, run, type Session, type Step } from "../session";

type TrackerRow = typeof import("../../db/schema").memoryTrackers.$inferSelect;
type NewTracker = typeof import("../../db/schema").memoryTrackers.$inferInsert;

/** Ids per statement (SQLite's parameter limit is far above; the statements stay short). */
const CHUNK = 500;

export function* removeTrackers(s: Session, trackerIds: number[]): Step<void> {
  if (trackerIds.length === 0) return;
  const { memoryTrackers } = s.t;
  yield* run(s, s.db.delete(memoryTrackers).where(inArray(memoryTrackers.id, trackerIds)));
}

/** Inserts an import's trackers; answers their rows in the order given. */
export function* insertImportedTrackers(s: Session, values: NewTracker[]): Step<TrackerRow[]> {
  if (values.length === 0) return [];
  const { memoryTrackers } = s.t;
  // Ids grow in VALUES order; RETURNING's own order is not promised, so sort by id.
  const rows = yield* all(s, s.db.insert(memoryTrackers).values(values).returning());
  return rows.sort((a, b) => a.id - b.id);
}

/**
 * Publishes an import's trackers: the `activate` ones go into recall (those Anki had not
 * suspended), and the review history of every one of `trackerIds` goes into the statistics'
 * aggregates, which left it out while it was not published.
 */
export function* publishImportedTrackers(s: Session, activateIds: number[], trackerIds: number[]): Step<void> {
  const { memoryTrackers: m, recallLog: l, recallLogBuckets: b, recallLogHours: h, recallLogTrackerCounts: c } = s.t;
  for (let i = 0; i < activateIds.length; i += CHUNK) {
    yield* run(
      s,
      s.db
        .update(m)
        .set({ removedFromTracking: false })
        .where(inArray(m.id, activateIds.slice(i, i + CHUNK))),
    );
  }
  // Unqualified names where SQL wants them (the insert's and SET's columns); the old value is named
  // with its table, as PostgreSQL requires beside `excluded`.
  const column = (named: { name: string }) => sql.identifier(named.name);
  for (let i = 0; i < trackerIds.length; i += CHUNK) {
    const reviews = sql`FROM ${l} WHERE ${inArray(l.memoryTrackerId, trackerIds.slice(i, i + CHUNK))}
      AND ${l.outcome} IN ('success', 'failure') AND ${l.kind} <> 'assimilation'`;
    // The 15-minute bucket, the hour and the counts of one outcome, as each database says them.
    const { bucket, hour, counted } = byDialect(s, {
      sqlite: () => ({
        bucket: sql`${l.reviewedAt} / 900000`,
        hour: sql`${l.reviewedAt} / 3600000`,
        counted: (outcome: string) => sql`sum(${l.outcome} = ${outcome})`,
      }),
      postgres: () => ({
        bucket: sql`engram_bucket(${l.reviewedAt})`,
        hour: sql`(engram_ms(${l.reviewedAt}) / 3600000)::integer`,
        counted: (outcome: string) => sql`(count(*) FILTER (WHERE ${l.outcome} = ${outcome}))::int`,
      }),
    });
    // Recalls per 15-minute bucket and per hour: the same counts, each table keyed by its own slot.
    for (const [table, slot, slotOf] of [
      [b, b.bucket, bucket],
      [h, h.hour, hour],
    ] as const) {
      yield* rawRun(
        s,
        sql`INSERT INTO ${table} (${column(table.userId)}, ${column(slot)}, ${column(table.recalls)}, ${column(table.successes)})
          SELECT ${l.userId}, ${slotOf}, count(*), ${counted("success")} ${reviews} GROUP BY ${l.userId}, ${slotOf}
          ON CONFLICT (${column(table.userId)}, ${column(slot)}) DO UPDATE SET
            ${column(table.recalls)} = ${table.recalls} + excluded.${column(table.recalls)},
            ${column(table.successes)} = ${table.successes} + excluded.${column(table.successes)}`,
      );
    }
    yield* rawRun(
      s,
      sql`INSERT INTO ${c} (${column(c.memoryTrackerId)}, ${column(c.userId)}, ${column(c.successes)}, ${column(c.failures)})
        SELECT ${l.memoryTrackerId}, ${l.userId}, ${counted("success")}, ${counted("failure")} ${reviews}
        GROUP BY ${l.memoryTrackerId}, ${l.userId}
        ON CONFLICT (${column(c.memoryTrackerId)}) DO UPDATE SET
          ${column(c.successes)} = ${c.successes} + excluded.${column(c.successes)},
          ${column(c.failures)} = ${c.failures} + excluded.${column(c.failures)}`,
    );
  }
}
