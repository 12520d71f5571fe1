/** openPostgres against the test server (npm run test:postgres): the checks that need a real one. */
import { describe, expect, test } from "bun:test";
import { ConfigError } from "../../src/config";
import { openPostgres } from "../../src/store/postgres-database";
import { postgresTestUrl } from "../support/database-under-test";

const url = postgresTestUrl();

describe.skipIf(!url)("openPostgres on a real server", () => {
  test("a wrong password is said in one line: authentication failed", async () => {
    // cluster.sh gives this role a password ("right-password") and checks it on loopback.
    const server = new URL(url!);
    const wrong = `postgres://engram_password_check:wrong-password@${server.host}/postgres`;
    const refused = openPostgres(wrong);
    await expect(refused).rejects.toBeInstanceOf(ConfigError);
    await expect(refused).rejects.toThrow(
      `the PostgreSQL server at ${server.host} refused user "engram_password_check": authentication failed`,
    );
    await expect(refused).rejects.not.toThrow(/wrong-password/);
  });

  test("a database that does not exist is said in one line", async () => {
    const server = new URL(url!);
    const refused = openPostgres(`postgres://postgres@${server.host}/no_such_engram_database`);
    await expect(refused).rejects.toThrow(
      `the PostgreSQL server at ${server.host} has no database "no_such_engram_database" (create it first)`,
    );
  });
});
