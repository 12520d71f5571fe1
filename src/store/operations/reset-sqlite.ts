/**
 * The test reset on SQLite: every table emptied in one write unit (the sign-in limits and virtual
 * tables included, their shadow tables left to SQLite), sequences restarted, and a new generation
 * of the binary index's log, so every copy in memory, in any process, loads whole again. Only the
 * testability reset calls it (never in production).
 */
import { sql } from "drizzle-orm";
import { restartGeneration } from "../search/binary-index-store";
import { rawAll, rawRun, type Session, type Step } from "../session";

export function* emptyEveryTable(s: Session, generation: number): Step<void> {
  const names = (yield* rawAll<{ schema: string; name: string; type: string }>(s, sql`PRAGMA table_list`))
    .filter((t) => t.schema === "main" && (t.type === "table" || t.type === "virtual") && !/^(sqlite_|__drizzle)/.test(t.name))
    // External-content full-text indexes follow their tables through triggers; the cache versions
    // only ever grow (the emptied tables' triggers raise them), so no kept answer outlives them.
    .filter((t) => !t.name.endsWith("_fts") && t.name !== "cache_versions")
    .map((t) => t.name);
  const references = new Map<string, Set<string>>();
  for (const name of names) {
    const keys = yield* rawAll<{ table: string }>(s, sql`SELECT "table" FROM pragma_foreign_key_list(${name})`);
    references.set(name, new Set(keys.map((key) => key.table).filter((table) => table !== name)));
  }
  // Foreign keys cannot be turned off inside a transaction: they are checked at the commit, when
  // every table is empty, and each table is emptied before the tables it refers to, so no cascade
  // finds a row left (a cascade from a user to its notebooks would meet the trigger that keeps a
  // notebook others hold something of).
  yield* rawRun(s, sql`PRAGMA defer_foreign_keys = ON`);
  const left = new Set(names);
  while (left.size > 0) {
    const unreferenced = [...left].filter((name) => ![...left].some((other) => references.get(other)!.has(name)));
    // A cycle (notes and notebooks refer to each other): notebooks last.
    const next = unreferenced[0] ?? [...left].find((name) => name !== "notebooks") ?? [...left][0]!;
    yield* rawRun(s, sql`DELETE FROM ${sql.identifier(next)}`);
    left.delete(next);
  }
  yield* rawRun(s, sql`DELETE FROM sqlite_sequence`);
  yield* restartGeneration(s, generation);
}
