import type { Database } from "bun:sqlite";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
// Embedded into the single binary as a file; on disk when running from source.
import vecExtensionPath from "sqlite-vec-linux-x64/vec0.so" with { type: "file" };

let loadablePath: string | undefined;

/**
 * The path SQLite can load sqlite-vec from. Inside a `bun build --compile` binary the embedded
 * file lives in Bun's virtual file system, which dlopen (and copyFile) cannot read, so its bytes
 * are written out once to a file named by their hash: restarts reuse it instead of piling up copies.
 */
function sqliteVecPath(): string {
  if (loadablePath) return loadablePath;
  if (!vecExtensionPath.includes("$bunfs") && existsSync(vecExtensionPath)) {
    loadablePath = vecExtensionPath;
    return loadablePath;
  }
  const bytes = readFileSync(vecExtensionPath);
  const hash = new Bun.CryptoHasher("sha256").update(bytes).digest("hex").slice(0, 16);
  // SQLite derives the init symbol from the file name, so the file keeps its name: vec0.so.
  const folder = join(tmpdir(), `engram-sqlite-vec-${hash}`);
  const target = join(folder, "vec0.so");
  if (!existsSync(target)) {
    mkdirSync(folder, { recursive: true });
    const partial = `${target}.${process.pid}.tmp`;
    writeFileSync(partial, bytes, { mode: 0o644 });
    renameSync(partial, target);
  }
  loadablePath = target;
  return loadablePath;
}

export function loadSqliteVec(db: Database) {
  db.loadExtension(sqliteVecPath());
}
