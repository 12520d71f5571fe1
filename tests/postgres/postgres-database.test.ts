/** PostgresDatabase's own behaviour (npm run test:postgres): units, savepoints, errors, values. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import type { PostgresDatabase } from "../../src/store/postgres-database";
import { all, one, run } from "../../src/store/session";
import { databaseUnderTest, postgresTestUrl, type StoreDatabaseUnderTest } from "../support/database-under-test";

const url = postgresTestUrl();

describe.skipIf(!url)("PostgresDatabase", () => {
  let under: StoreDatabaseUnderTest;
  let database: PostgresDatabase;
  beforeAll(async () => {
    under = await databaseUnderTest();
    database = under.database as PostgresDatabase;
  });
  afterAll(() => under?.dispose());

  test("a read unit cannot write", async () => {
    const writing = database.read((s) =>
      run(s, s.db.insert(s.t.globalSettings).values({ keyName: "k", value: "v", updatedAt: new Date(0) })),
    );
    await expect(writing).rejects.toThrow(/read-only transaction/);
  });

  test("a unit opened inside another is its savepoint: its failure undoes only its own writes", async () => {
    const setting = (keyName: string) => ({ keyName, value: keyName, updatedAt: new Date(0) });
    await database.write(function* (s) {
      yield* run(s, s.db.insert(s.t.globalSettings).values(setting("outer")));
      // The inner unit fails on the outer's key (a unique violation), inside the outer transaction.
      const inner = database.write((t) => run(t, t.db.insert(t.t.globalSettings).values([setting("inner"), setting("outer")])));
      const failed = yield inner.then(
        () => null,
        (error: { errno?: string }) => error.errno,
      );
      expect(failed).toBe("23505");
      yield* run(s, s.db.insert(s.t.globalSettings).values(setting("after")));
    });
    const keys = await database.read((s) => all(s, s.db.select({ key: s.t.globalSettings.keyName }).from(s.t.globalSettings)));
    expect(keys.map((row) => row.key).sort()).toEqual(["after", "outer"]);
  });

  test("a failed query reaches the caller as PostgreSQL's error, and the unit is rolled back", async () => {
    const failing = database.write(function* (s) {
      yield* run(s, s.db.insert(s.t.globalSettings).values({ keyName: "rolled-back", value: "x", updatedAt: new Date(0) }));
      yield* run(s, s.db.insert(s.t.globalSettings).values({ keyName: "outer", value: "again", updatedAt: new Date(0) }));
    });
    await expect(failing).rejects.toMatchObject({ errno: "23505" });
    const row = await database.read((s) =>
      one(s, s.db.select().from(s.t.globalSettings).where(eq(s.t.globalSettings.keyName, "rolled-back"))),
    );
    expect(row).toBeUndefined();
  });

  test("two units that deadlock: PostgreSQL breaks it, the unit it gave up on runs again, both finish", async () => {
    const settings = ["lock-a", "lock-b"].map((keyName) => ({ keyName, value: "0", updatedAt: new Date(0) }));
    await database.write((s) => run(s, s.db.insert(s.t.globalSettings).values(settings)));
    // Both units wait for each other once they hold their first row: the first run of each deadlocks.
    let holding = 0;
    let bothHold: () => void = () => {};
    const barrier = new Promise<void>((resolve) => (bothHold = resolve));
    const runs: string[] = [];
    const bump = (first: string, second: string) =>
      database.write(function* (s) {
        runs.push(first);
        const g = s.t.globalSettings;
        yield* run(
          s,
          s.db
            .update(g)
            .set({ value: sql`(${g.value}::integer + 1)::text` })
            .where(eq(g.keyName, first)),
        );
        if (++holding === 2) bothHold();
        yield barrier;
        yield* run(
          s,
          s.db
            .update(g)
            .set({ value: sql`(${g.value}::integer + 1)::text` })
            .where(eq(g.keyName, second)),
        );
      });
    await Promise.all([bump("lock-a", "lock-b"), bump("lock-b", "lock-a")]);
    expect(runs.length).toBe(3);
    const values = await database.read((s) =>
      all(s, s.db.select({ key: s.t.globalSettings.keyName, value: s.t.globalSettings.value }).from(s.t.globalSettings)),
    );
    expect(values.filter((row) => row.key.startsWith("lock-")).sort((a, b) => a.key.localeCompare(b.key))).toEqual([
      { key: "lock-a", value: "2" },
      { key: "lock-b", value: "2" },
    ]);
  });

  test("dates keep their milliseconds and bytes come back as Buffers", async () => {
    const when = new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 678));
    const [account] = await database.write((s) =>
      all(s, s.db.insert(s.t.accounts).values({ externalIdentifier: "dates", createdAt: when }).returning()),
    );
    expect(account?.createdAt).toEqual(when);
    expect(account?.admin).toBe(false);
    const [user] = await database.write((s) =>
      all(s, s.db.insert(s.t.users).values({ accountId: account!.id, name: "D", createdAt: when }).returning({ id: s.t.users.id })),
    );
    const bytes = Buffer.from([0, 1, 2, 254, 255]);
    const [image] = await database.write((s) =>
      all(s, s.db.insert(s.t.noteImages).values({ userId: user!.id, contentType: "image/png", bytes, createdAt: when }).returning()),
    );
    expect(Buffer.isBuffer(image?.bytes)).toBe(true);
    expect(image?.bytes.equals(bytes)).toBe(true);
  });
});
