import type { Database } from "bun:sqlite";
import { copyFileSync, existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
// Embedded into the single binary as a file; on disk when running from source.
import vecExtensionPath from "sqlite-vec-linux-x64/vec0.so" with { type: "file" };

let loadablePath: string | undefined;

/**
 * The path SQLite can load sqlite-vec from. Inside a `bun build --compile` binary the embedded
 * file lives in Bun's virtual file system, which dlopen cannot read, so it is copied out once.
 */
function sqliteVecPath(): string {
  if (loadablePath) return loadablePath;
  if (existsSync(vecExtensionPath) && !vecExtensionPath.includes("$bunfs")) {
    loadablePath = vecExtensionPath;
  } else {
    const target = join(mkdtempSync(join(tmpdir(), "engram-vec-")), "vec0.so");
    copyFileSync(vecExtensionPath, target);
    loadablePath = target;
  }
  return loadablePath;
}

export function loadSqliteVec(db: Database) {
  db.loadExtension(sqliteVecPath());
}
