/**
 * The test reset on PostgreSQL, the twin of reset-sqlite.ts: every table of Engram's schema emptied
 * by one TRUNCATE ... RESTART IDENTITY CASCADE in the write unit (identities start again at 1, as
 * SQLite's sequences do once emptied), and a new generation of the binary index's log. TRUNCATE
 * fires no row triggers, so the cache versions, which SQLite's deletes raise through them, are
 * raised here all at once: they only ever grow, and no answer a process kept outlives the reset.
 * Drizzle's own bookkeeping lives in its own schema and is left alone. Testability only.
 */
import { sql } from "drizzle-orm";
import { restartGeneration } from "../search/binary-index-store";
import { rawAll, rawRun, type Session, type Step } from "../session";

export function* emptyEveryTable(s: Session, generation: number): Step<void> {
  const versions = s.t.cacheVersions;
  const names = (yield* rawAll<{ name: string }>(s, sql`SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema()`))
    .map((table) => table.name)
    .filter((name) => name !== "cache_versions")
    .sort();
  if (names.length > 0) {
    yield* rawRun(
      s,
      sql`TRUNCATE ${sql.join(
        names.map((name) => sql.identifier(name)),
        sql`, `,
      )} RESTART IDENTITY CASCADE`,
    );
  }
  yield* rawRun(s, sql`UPDATE ${versions} SET ${sql.identifier(versions.version.name)} = ${versions.version} + 1`);
  yield* restartGeneration(s, generation);
}
