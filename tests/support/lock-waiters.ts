/**
 * For race tests that hold a row in a transaction of their own (PostgreSQL): waits until the
 * units or requests under test reach that row and wait for it.
 */
import type { PostgresDatabase } from "../../src/store/postgres-database";

/** How long the units under test may take to reach the held row before the test gives up. */
const REACH_MS = 10_000;

/** Until `count` connections to the database wait for a lock. */
export async function untilLockWaiters(database: PostgresDatabase, count: number): Promise<void> {
  const giveUpAt = Date.now() + REACH_MS;
  for (;;) {
    const [row] = await database.client`SELECT count(*)::int AS n FROM pg_stat_activity
      WHERE datname = current_database() AND wait_event_type = 'Lock'`;
    if ((row as { n: number }).n >= count) return;
    if (Date.now() > giveUpAt) throw new Error(`${count} unit(s) should wait for the held row`);
    await Bun.sleep(5);
  }
}
