/**
 * Named leases: a piece of work every process could do but one should (an automatic backup) is
 * done by the process that takes the lease; the others find it held until it expires. Taking a
 * lease is one upsert guarded by "free, expired or already mine", so two processes never both
 * hold it. Times are milliseconds from the caller's clock.
 */
import { and, eq, lte, or } from "drizzle-orm";
import { defineStore, type StoreOf, write } from "../define";
import { all, run, type Session, type Step } from "../session";

/** Takes (or renews) the lease for `durationMs` when it is free, expired or already the holder's; answers whether the holder has it now. */
export function* take(s: Session, name: string, holder: string, durationMs: number, now: number): Step<boolean> {
  const { leases } = s.t;
  const taken = yield* all(
    s,
    s.db
      .insert(leases)
      .values({ name, holder, expiresAt: new Date(now + durationMs) })
      .onConflictDoUpdate({
        target: leases.name,
        set: { holder, expiresAt: new Date(now + durationMs) },
        setWhere: or(lte(leases.expiresAt, new Date(now)), eq(leases.holder, holder)),
      })
      .returning({ holder: leases.holder }),
  );
  return taken.length === 1;
}

/** Gives the lease up (when the holder still has it). */
export function* release(s: Session, name: string, holder: string): Step<void> {
  const { leases } = s.t;
  yield* run(s, s.db.delete(leases).where(and(eq(leases.name, name), eq(leases.holder, holder))));
}

export const leasesStore = defineStore({ take: write(take), release: write(release) });
export type LeasesStore = StoreOf<typeof leasesStore>;
