/** Prepared queries (`prepared`) run by the helpers on both databases, with and without parameters. */
import { describe, expect, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import { all, one, prepared, run } from "../../src/store/session";
import { databaseUnderTestOfFile } from "../support/database-under-test";

const under = databaseUnderTestOfFile();

describe("a prepared query", () => {
  test("answers its rows with no parameter, and with one", async () => {
    await under.database.write((s) =>
      run(
        s,
        s.db.insert(s.t.globalSettings).values([
          { keyName: "a", value: "1", updatedAt: new Date(0) },
          { keyName: "b", value: "2", updatedAt: new Date(0) },
        ]),
      ),
    );
    const everyKey = await under.database.read((s) =>
      all(
        s,
        prepared(s, "every-setting-key", () =>
          s.db.select({ key: s.t.globalSettings.keyName }).from(s.t.globalSettings).orderBy(s.t.globalSettings.keyName),
        ),
      ),
    );
    expect(everyKey).toEqual([{ key: "a" }, { key: "b" }]);
    const first = await under.database.read((s) =>
      one(
        s,
        prepared(s, "first-setting-key", () =>
          s.db.select({ key: s.t.globalSettings.keyName }).from(s.t.globalSettings).orderBy(s.t.globalSettings.keyName).limit(1),
        ),
      ),
    );
    expect(first).toEqual({ key: "a" });
    const named = await under.database.read((s) =>
      one(
        s,
        prepared(s, "setting-by-key", () =>
          s.db
            .select({ value: s.t.globalSettings.value })
            .from(s.t.globalSettings)
            .where(eq(s.t.globalSettings.keyName, sql.placeholder("key"))),
        ),
        { key: "b" },
      ),
    );
    expect(named).toEqual({ value: "2" });
  });
});
