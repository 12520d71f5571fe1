/** The PostgreSQL database the several-processes tests will hand their server processes. */
import { describe, expect, test } from "bun:test";
import { SQL } from "bun";
import { sql } from "drizzle-orm";
import { openPostgres } from "../../src/store/postgres-database";
import { all } from "../../src/store/session";
import { postgresTestUrl } from "../support/database-under-test";
import { databasesUnderTest, postgresDatabaseUnderTest } from "../support/engram-processes";

const url = postgresTestUrl();

describe.skipIf(!url)("a PostgreSQL DatabaseUnderTest", () => {
  test("is listed beside SQLite, names a fresh database an Engram process can migrate, and is dropped by dispose", async () => {
    expect(databasesUnderTest().map(([name]) => name)).toEqual(["SQLite", "PostgreSQL"]);
    const under = await postgresDatabaseUnderTest();
    const databaseUrl = under.env.ENGRAM_DATABASE_URL!;
    expect(under.env.ENGRAM_DATA_DIR).toBeDefined();
    const database = await openPostgres(databaseUrl, 2);
    const [row] = await database.read((s) => all(s, s.db.select({ one: sql<number>`1` }).from(s.t.accounts)));
    expect(row).toBeUndefined();
    await database.close();
    await under.dispose();
    const name = new URL(databaseUrl).pathname.slice(1);
    const admin = new SQL(url!, { max: 1 });
    const rows = await admin`SELECT 1 FROM pg_database WHERE datname = ${name}`;
    await admin.close();
    expect(rows.length).toBe(0);
  });
});
