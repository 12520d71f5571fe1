/** Backups are SQLite-file operations: on PostgreSQL they are refused with one clear line. */
import { expect, test } from "bun:test";
import { BACKUPS_ARE_THE_OPERATORS, backupConnection, databaseBytes } from "../../src/store/backups/backup-files-sqlite";
import { databaseUnderTestOfFile } from "../support/database-under-test";

const under = databaseUnderTestOfFile();

test("a backup gets the SQLite file's connection, and is refused on PostgreSQL", () => {
  if (under.dialect === "sqlite") {
    expect(databaseBytes(backupConnection(under.database))).toBeGreaterThan(0);
  } else {
    expect(() => backupConnection(under.database)).toThrow(BACKUPS_ARE_THE_OPERATORS);
    expect(BACKUPS_ARE_THE_OPERATORS).toContain("pg_dump");
  }
});
