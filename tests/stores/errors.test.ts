import { describe, expect, test } from "bun:test";
import { all, isUniqueViolation, run, trying } from "../../src/store/session";
import { databaseUnderTestOfFile } from "../support/database-under-test";

const under = databaseUnderTestOfFile();

describe("a broken unique index", () => {
  test("is told apart from other failures, caught inside a body (which then goes on) and by the caller", async () => {
    const setting = { keyName: "once", value: "v", updatedAt: new Date(0) };
    await under.database.write((s) => run(s, s.db.insert(s.t.globalSettings).values(setting)));
    const seenInside = await under.database.write(function* (s) {
      yield* run(s, s.db.insert(s.t.accounts).values({ externalIdentifier: "dup", createdAt: new Date(0) }));
      let caught = false;
      try {
        yield* trying(s, () => run(s, s.db.insert(s.t.accounts).values({ externalIdentifier: "dup", createdAt: new Date(0) })));
      } catch (error) {
        caught = isUniqueViolation(error);
      }
      // The unit goes on after the caught failure (on PostgreSQL, thanks to trying's savepoint).
      yield* run(s, s.db.insert(s.t.accounts).values({ externalIdentifier: "after", createdAt: new Date(0) }));
      return caught;
    });
    expect(seenInside).toBe(true);
    const logins = await under.database.read((s) => all(s, s.db.select({ login: s.t.accounts.externalIdentifier }).from(s.t.accounts)));
    expect(logins.map((row) => row.login).sort()).toEqual(["after", "dup"]);
    const primaryKey = await under.database.write((s) => run(s, s.db.insert(s.t.globalSettings).values(setting))).catch((error) => error);
    expect(isUniqueViolation(primaryKey)).toBe(true);
    const notNull = await under.database
      .write((s) =>
        run(s, s.db.insert(s.t.globalSettings).values({ keyName: "n", value: null as unknown as string, updatedAt: new Date(0) })),
      )
      .catch((error) => error);
    expect(notNull).toBeInstanceOf(Error);
    expect(isUniqueViolation(notNull)).toBe(false);
  });
});
