import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";

// A drizzle transaction's writes go through its `tx`: writing through ctx.db inside the callback
// only works because there is one SQLite connection, and hides what the transaction covers.

const srcDir = resolve(import.meta.dir, "../../src");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !name.endsWith(".generated.ts") ? [path] : [];
  });
}

/** The text of each `ctx.db.transaction(...)` call's argument, by matching parentheses. */
function transactionCallbacks(source: string): string[] {
  const callbacks: string[] = [];
  for (const match of source.matchAll(/\bctx\.db\.transaction\(/g)) {
    let depth = 1;
    let end = match.index + match[0].length;
    while (depth > 0 && end < source.length) {
      const char = source[end++];
      if (char === "(") depth++;
      else if (char === ")") depth--;
    }
    callbacks.push(source.slice(match.index + match[0].length, end - 1));
  }
  return callbacks;
}

describe("transactions", () => {
  test("the callback scanner finds a transaction's whole callback", () => {
    expect(transactionCallbacks("ctx.db.transaction((tx) => { f(g(1)); }); after();")).toEqual(["(tx) => { f(g(1)); }"]);
  });

  test("a drizzle transaction takes its tx and never writes through ctx.db inside it", () => {
    const offences = sourceFiles(srcDir).flatMap((file) =>
      transactionCallbacks(readFileSync(file, "utf8"))
        .filter((callback) => /^\s*\(\s*\)\s*=>/.test(callback) || /ctx\.db\s*\.(insert|update|delete)\(/.test(callback))
        .map((callback) => `${relative(srcDir, file)}: ${callback.slice(0, 80)}`),
    );
    expect(offences).toEqual([]);
  });
});
