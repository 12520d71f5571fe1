/** Failure reports: unexpected errors kept for the admins (secrets scrubbed by the caller). */
import { desc, eq } from "drizzle-orm";
import type { failureReports } from "../../db/schema";
import { defineStore, read, type StoreOf, write } from "../define";
import { all, inIds, one, run, type Session, type Step } from "../session";

export type FailureReportRow = typeof failureReports.$inferSelect;

export function* record(s: Session, report: { errorName: string; errorDetail: string }, now: Date): Step<FailureReportRow> {
  const [row] = yield* all(
    s,
    s.db
      .insert(s.t.failureReports)
      .values({ ...report, createDatetime: now })
      .returning(),
  );
  return row!;
}

/** Every report, newest first. */
export function* list(s: Session): Step<FailureReportRow[]> {
  const { failureReports: f } = s.t;
  return yield* all(s, s.db.select().from(f).orderBy(desc(f.createDatetime), desc(f.id)));
}

export function* byId(s: Session, id: number): Step<FailureReportRow | undefined> {
  return yield* one(s, s.db.select().from(s.t.failureReports).where(eq(s.t.failureReports.id, id)));
}

/** Deletes these reports; answers how many there were. */
export function* remove(s: Session, ids: number[]): Step<number> {
  return yield* run(s, s.db.delete(s.t.failureReports).where(inIds(s, s.t.failureReports.id, ids)));
}

export const failureReportsStore = defineStore({
  record: write(record),
  list: read(list),
  byId: read(byId),
  remove: write(remove),
});
export type FailureReportsStore = StoreOf<typeof failureReportsStore>;
