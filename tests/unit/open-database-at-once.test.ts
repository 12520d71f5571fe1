import { Database } from "bun:sqlite";
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { embeddedMigrations } from "../../src/db/migrations.generated";

const folder = mkdtempSync(join(tmpdir(), "engram-open-at-once-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe("several processes opening one new database file at once", () => {
  test("all of them open it, and each migration is applied once", async () => {
    const connection = join(import.meta.dir, "../../src/db/connection.ts");
    for (let round = 0; round < 3; round++) {
      const file = join(folder, `engram-${round}.db`);
      const children = Array.from({ length: 3 }, () =>
        Bun.spawn(
          [
            process.execPath,
            "-e",
            `const { openDatabase } = await import(${JSON.stringify(connection)}); openDatabase(${JSON.stringify(file)}).sqlite.close();`,
          ],
          {
            stderr: "pipe",
          },
        ),
      );
      const failed = (
        await Promise.all(children.map(async (child) => ((await child.exited) === 0 ? "" : await new Response(child.stderr).text())))
      ).filter(Boolean);
      expect(failed).toEqual([]);
      const db = new Database(file, { readonly: true });
      expect(db.query<{ n: number }, []>("SELECT count(*) AS n FROM __drizzle_migrations").get()!.n).toBe(embeddedMigrations.length);
      db.close();
    }
  }, 60_000);
});
