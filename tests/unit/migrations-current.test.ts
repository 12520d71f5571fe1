/**
 * Each migrations folder is current with its schema: drizzle-kit, run on a copy of the folder,
 * finds nothing to generate. A schema changed without its migration fails here (for PostgreSQL:
 * a change of src/db/postgres/schema, which postgres-schema.test.ts asks for whenever
 * src/db/schema changes, needs `npx drizzle-kit generate --config drizzle.postgres.config.ts`).
 */
import { describe, expect, test } from "bun:test";
import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";

const root = join(import.meta.dir, "../..");

const FOLDERS = [
  { dialect: "sqlite", schema: "./src/db/schema/index.ts", folder: "migrations" },
  { dialect: "postgresql", schema: "./src/db/postgres/schema/index.ts", folder: "migrations-postgres" },
];

describe("migrations are current with their schema", () => {
  for (const { dialect, schema, folder } of FOLDERS) {
    test(`${folder}/ has every change of ${schema}`, () => {
      const scratch = mkdtempSync(join(tmpdir(), "engram-migrations-"));
      try {
        const out = join(scratch, "out");
        cpSync(join(root, folder), out, { recursive: true });
        const config = join(scratch, "config.ts");
        // drizzle-kit reads `out` relative to where it runs.
        writeFileSync(config, `export default ${JSON.stringify({ dialect, schema, out: relative(root, out) })};\n`);
        const before = readdirSync(out).sort();
        const result = Bun.spawnSync(["node", "node_modules/drizzle-kit/bin.cjs", "generate", "--config", config], { cwd: root });
        expect({ folder, exitCode: result.exitCode }).toEqual({ folder, exitCode: 0 });
        expect({ folder, files: readdirSync(out).sort() }).toEqual({ folder, files: before });
      } finally {
        rmSync(scratch, { recursive: true, force: true });
      }
    }, 60_000);
  }
});
