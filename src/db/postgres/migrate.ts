import type { SQL } from "bun";
import { embeddedMigrations } from "./migrations.generated";

/** The advisory lock key every Engram process takes to migrate (any fixed number; this one spells "engram"). */
export const MIGRATION_LOCK_KEY = 0x656e6772616d;

/**
 * Applies the embedded PostgreSQL migrations (migrations-postgres/) in order, forward only, in
 * one transaction that first takes a transaction-scoped advisory lock: several processes starting
 * at once on one database queue on the lock, and each after the first finds nothing left to apply.
 * Bookkeeping matches drizzle's own (`drizzle.__drizzle_migrations` with hash and created_at), so
 * drizzle-kit and this runner agree on what is applied. Answers the tags it applied.
 */
export async function migratePostgres(sql: SQL): Promise<string[]> {
  return sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`;
    await tx.unsafe("CREATE SCHEMA IF NOT EXISTS drizzle");
    await tx.unsafe(
      `CREATE TABLE IF NOT EXISTS drizzle.__drizzle_migrations (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at bigint)`,
    );
    const [last] = await tx`SELECT max(created_at)::bigint AS created_at FROM drizzle.__drizzle_migrations`;
    const lastApplied = Number(last?.created_at ?? -1);
    const applied: string[] = [];
    for (const migration of embeddedMigrations) {
      if (migration.when <= lastApplied) continue;
      const hash = new Bun.CryptoHasher("sha256").update(migration.sql).digest("hex");
      for (const statement of migration.sql.split("--> statement-breakpoint")) {
        if (statement.trim()) await tx.unsafe(statement);
      }
      await tx`INSERT INTO drizzle.__drizzle_migrations (hash, created_at) VALUES (${hash}, ${migration.when})`;
      applied.push(migration.tag);
    }
    return applied;
  });
}
