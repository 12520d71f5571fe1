/**
 * How tests/unit/store-boundary.test.ts tells that a source file touches the database: imports of
 * drizzle-orm, bun:sqlite or the app's connection, the drizzle tables used as values, the app
 * context's drizzle or SQLite handle, or SQL text in a string.
 */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

export const root = join(import.meta.dir, "../..");

/** The .ts and .tsx files under a folder of the repository, as paths from its root. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(name) ? [path] : [];
  });
}

/** The text of every string and template literal, comments left out. */
function literals(source: string): string[] {
  const found: string[] = [];
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === "/" && source[i + 1] === "/") {
      i = source.indexOf("\n", i);
      if (i < 0) break;
    } else if (c === "/" && source[i + 1] === "*") {
      i = source.indexOf("*/", i + 2) + 1;
      if (i <= 0) break;
    } else if (c === '"' || c === "'" || c === "`") {
      let text = "";
      for (i++; i < source.length && source[i] !== c; i++) {
        if (source[i] === "\\") i++;
        text += source[i];
      }
      found.push(text);
    }
  }
  return found;
}

const SQL =
  /\bSELECT\b[\s\S]*\bFROM\b|\bINSERT\s+(OR\s+\w+\s+)?INTO\b|\bUPDATE\s+\S+\s+SET\b|\bDELETE\s+FROM\b|\bCREATE\s+(TABLE|INDEX|TRIGGER|VIRTUAL)\b|\bPRAGMA\s+\w/;

/** What a file does that only a store may do (empty: nothing). */
export function databaseAccessIn(source: string): string[] {
  const found: string[] = [];
  const imports = [...source.matchAll(/^import\s+(type\s+)?[^;]*?from\s+["']([^"']+)["']/gm)];
  for (const [, typeOnly, from] of imports) {
    if (/^drizzle-orm(\/|$)/.test(from!)) found.push("imports drizzle-orm");
    if (from === "bun:sqlite") found.push("imports bun:sqlite");
    if (/\/db\/(connection|prepared)$/.test(from!)) found.push(`imports ${from}`);
    if (/\/db\/schema$/.test(from!) && !typeOnly) found.push("uses the drizzle tables (db/schema)");
  }
  if (/\bctx\.(db|sqlite)\b/.test(source)) found.push("uses ctx.db or ctx.sqlite");
  if (literals(source).some((text) => SQL.test(text))) found.push("holds SQL text");
  return [...new Set(found)];
}

/**
 * The tables (as the schema's export names) a store file writes: the target of every drizzle
 * insert, update or delete and of raw INSERT/UPDATE/DELETE naming a table through `${t.<table>}`,
 * seen through the body's aliases of `s.t` (`const { notes } = s.t`, `const r = s.t.requestResults`).
 */
export function tablesWrittenIn(source: string, tableNames: ReadonlySet<string>): string[] {
  const alias = new Map<string, string>();
  for (const [, names] of source.matchAll(/const\s*\{([^}]*)\}\s*=\s*(?:s\.)?t\b/g)) {
    for (const part of names!.split(",")) {
      const [table, local] = part.split(":").map((name) => name.trim());
      if (table) alias.set(local || table, table);
    }
  }
  for (const [, local, table] of source.matchAll(/const\s+(\w+)\s*=\s*(?:s\.)?t\.(\w+)\b/g)) alias.set(local!, table!);
  const resolve = (target: string): string | undefined => {
    const last = target.split(".").at(-1)!;
    const table = /^(s\.)?t\./.test(target) ? last : (alias.get(target) ?? last);
    return tableNames.has(table) ? table : undefined;
  };
  const written = new Set<string>();
  for (const [, target] of source.matchAll(/\.(?:insert|update|delete)\(\s*([\w.]+)\s*\)/g)) {
    const table = resolve(target!);
    if (table) written.add(table);
  }
  for (const [, target] of source.matchAll(/\b(?:INSERT\s+(?:OR\s+\w+\s+)?INTO|UPDATE|DELETE\s+FROM)\s+\$\{\s*([\w.]+)\s*\}/g)) {
    const table = resolve(target!);
    if (table) written.add(table);
  }
  return [...written].sort();
}
