import { describe, expect, test } from "bun:test";
import { ConfigError } from "../../src/config";
import { parsePostgresUrl, poolSizeFromEnv, serverVersionProblem } from "../../src/db/postgres/connection";
import { openPostgres } from "../../src/store/postgres-database";

describe("PostgreSQL start-up checks (no server needed)", () => {
  test("a server older than 15 is refused in one line; 15 and newer will do", () => {
    expect(serverVersionProblem(140011, "db:5432")).toBe(
      "the PostgreSQL server at db:5432 is version 14; Engram needs PostgreSQL 15 or newer",
    );
    expect(serverVersionProblem(90624, "db:5432")).toContain("version 9;");
    expect(serverVersionProblem(150004, "db:5432")).toBeNull();
    expect(serverVersionProblem(170000, "db:5432")).toBeNull();
  });

  test("what is not a PostgreSQL URL is said in one line, without the password", async () => {
    for (const url of ["mysql://u:secret@h/db", "not a url", "engram.db"]) {
      const refused = openPostgres(url);
      await expect(refused).rejects.toBeInstanceOf(ConfigError);
      await expect(refused).rejects.toThrow(/^ENGRAM_DATABASE_URL is not a PostgreSQL URL/);
      await expect(refused).rejects.not.toThrow(/secret/);
    }
    expect(parsePostgresUrl("postgresql://ann:pw@db.example:6543/engram")).toEqual({
      host: "db.example",
      port: 6543,
      user: "ann",
      database: "engram",
    });
    expect(parsePostgresUrl("postgres://db/engram").port).toBe(5432);
  });

  test("the pool size comes from ENGRAM_DATABASE_POOL_SIZE, 10 when unset", () => {
    expect(poolSizeFromEnv({})).toBe(10);
    expect(poolSizeFromEnv({ ENGRAM_DATABASE_POOL_SIZE: "25" })).toBe(25);
    expect(() => poolSizeFromEnv({ ENGRAM_DATABASE_POOL_SIZE: "0" })).toThrow(ConfigError);
    expect(() => poolSizeFromEnv({ ENGRAM_DATABASE_POOL_SIZE: "ten" })).toThrow(/ENGRAM_DATABASE_POOL_SIZE/);
  });

  test("an unreachable server is said in one line with its host and port", async () => {
    // Port 1 on loopback: nothing listens there.
    const refused = openPostgres("postgres://engram:pw@127.0.0.1:1/engram");
    await expect(refused).rejects.toBeInstanceOf(ConfigError);
    await expect(refused).rejects.toThrow(/^the PostgreSQL server at 127\.0\.0\.1:1 is unreachable/);
  });
});
