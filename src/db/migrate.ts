import type { Database } from "bun:sqlite";
import { embeddedMigrations } from "./migrations.generated";

/**
 * Applies the embedded SQL migrations in order, forward only, each in its own transaction.
 * Bookkeeping matches drizzle's own (`__drizzle_migrations` with hash and created_at), so
 * drizzle-kit and this runner agree on what is applied. Several processes starting at once on one
 * file migrate once: each migration's transaction takes the write lock first and checks again
 * that it is still to apply.
 */
export function migrate(db: Database) {
  db.run(`CREATE TABLE IF NOT EXISTS __drizzle_migrations (
    id INTEGER PRIMARY KEY AUTOINCREMENT, hash text NOT NULL, created_at numeric)`);
  const lastApplied = () =>
    Number(
      db.query<{ created_at: number }, []>("SELECT created_at FROM __drizzle_migrations ORDER BY created_at DESC LIMIT 1").get()
        ?.created_at ?? -1,
    );
  for (const migration of embeddedMigrations) {
    if (migration.when <= lastApplied()) continue;
    const hash = new Bun.CryptoHasher("sha256").update(migration.sql).digest("hex");
    const statements = migration.sql
      .split("--> statement-breakpoint")
      .map((s) => s.trim())
      .filter(Boolean);
    db.transaction(() => {
      if (migration.when <= lastApplied()) return; // another process applied it meanwhile
      for (const statement of statements) db.run(statement);
      db.run("INSERT INTO __drizzle_migrations (hash, created_at) VALUES (?, ?)", [hash, migration.when]);
    }).immediate();
  }
}
