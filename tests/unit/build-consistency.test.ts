import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { islands } from "../../islands/registry";
import { islandNames } from "../../scripts/build-client";
import { renderEmbeddedMigrations } from "../../scripts/embed-migrations";

const root = join(import.meta.dir, "../..");

describe("generated and registered files stay in step", () => {
  test("the embedded migrations match migrations/ (run `bun scripts/embed-migrations.ts`)", () => {
    expect(readFileSync(join(root, "src/db/migrations.generated.ts"), "utf8")).toBe(renderEmbeddedMigrations());
  });

  test("every island folder is registered for server rendering, and nothing else", () => {
    expect(Object.keys(islands).sort()).toEqual(islandNames());
  });
});
