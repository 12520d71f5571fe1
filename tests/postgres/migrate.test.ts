/** The PostgreSQL migrations (npm run test:postgres): several processes starting at once migrate once. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SQL } from "bun";
import { migratePostgres } from "../../src/db/postgres/migrate";
import { embeddedMigrations } from "../../src/db/postgres/migrations.generated";
import { freshPostgresDatabase, postgresTestUrl } from "../support/database-under-test";

const url = postgresTestUrl();

describe.skipIf(!url)("PostgreSQL migrations", () => {
  let fresh: Awaited<ReturnType<typeof freshPostgresDatabase>>;
  beforeAll(async () => {
    fresh = await freshPostgresDatabase(url!);
  });
  afterAll(() => fresh.drop());

  test("five starts at once on an empty database: no error, every migration applied once, by one of them", async () => {
    const clients = Array.from({ length: 5 }, () => new SQL(fresh.url, { max: 1 }));
    try {
      const applied = await Promise.all(clients.map((client) => migratePostgres(client)));
      const all = embeddedMigrations.map((m) => m.tag);
      expect(applied.filter((tags) => tags.length > 0)).toEqual([all]);
      const [first] = clients;
      const rows = await first!`SELECT created_at FROM drizzle.__drizzle_migrations ORDER BY id`;
      expect(rows.map((row: { created_at: string | number }) => Number(row.created_at))).toEqual(embeddedMigrations.map((m) => m.when));
      // Started again later: nothing to do.
      expect(await migratePostgres(first!)).toEqual([]);
      const [triggers] = await first!`SELECT count(*)::integer AS n FROM pg_trigger WHERE NOT tgisinternal`;
      expect(triggers.n).toBeGreaterThan(30);
    } finally {
      for (const client of clients) await client.close();
    }
  });
});
