import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { islands } from "../../islands/registry";
import { islandNames } from "../../scripts/build-client";
import { MIGRATION_FOLDERS, renderEmbeddedMigrations } from "../../scripts/embed-migrations";

const root = join(import.meta.dir, "../..");

describe("generated and registered files stay in step", () => {
  for (const folder of MIGRATION_FOLDERS) {
    test(`the embedded migrations match ${folder.folder}/ (run \`bun scripts/embed-migrations.ts\`)`, () => {
      expect(readFileSync(join(root, folder.generated), "utf8")).toBe(renderEmbeddedMigrations(folder));
    });
  }

  test.each(MIGRATION_FOLDERS.map((f) => f.folder))("%s are numbered in order, each journal entry later than the one before", (folder) => {
    // The migrators skip a migration whose time is not after the last one applied (src/db/migrate.ts):
    // a branch's migration renumbered onto another's must also get a later time.
    const journal = JSON.parse(readFileSync(join(root, folder, "meta/_journal.json"), "utf8")) as {
      entries: { idx: number; when: number; tag: string }[];
    };
    journal.entries.forEach((entry, index) => {
      expect(entry.idx).toBe(index);
      expect(entry.tag.slice(0, 4)).toBe(String(index).padStart(4, "0"));
      if (index > 0) expect(entry.when).toBeGreaterThan(journal.entries[index - 1]!.when);
    });
  });

  test("every island folder is registered for server rendering, and nothing else", () => {
    expect(Object.keys(islands).sort()).toEqual(islandNames());
  });
});
