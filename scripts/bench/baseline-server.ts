/**
 * The benchmark baseline: a bare Elysia app on the same Bun, started the same way as Engram (its own
 * child process, PORT/HOST/ENGRAM_DATA_DIR from the harness), so that ratios against it cancel out
 * the machine.
 *
 *   GET /baseline         -> { ok: true }                         (the framework alone)
 *   GET /baseline/sqlite  -> one primary-key SELECT on a small table  (plus one bun:sqlite read)
 *
 * The SQLite file is opened like Engram's (WAL, synchronous=NORMAL) in ENGRAM_DATA_DIR.
 */
import { Database } from "bun:sqlite";
import { Elysia } from "elysia";
import { join } from "node:path";

const ROWS = 100;

const dataDir = process.env.ENGRAM_DATA_DIR;
if (!dataDir) throw new Error("baseline-server needs ENGRAM_DATA_DIR");
const sqlite = new Database(join(dataDir, "baseline.db"), { create: true, strict: true });
sqlite.run("PRAGMA journal_mode = WAL");
sqlite.run("PRAGMA synchronous = NORMAL");
sqlite.run("CREATE TABLE IF NOT EXISTS item (id INTEGER PRIMARY KEY, name TEXT NOT NULL, created_at INTEGER NOT NULL)");
const insert = sqlite.prepare("INSERT OR REPLACE INTO item (id, name, created_at) VALUES ($id, $name, $createdAt)");
sqlite.transaction(() => {
  for (let id = 1; id <= ROWS; id++) insert.run({ id, name: `item ${id}`, createdAt: Date.now() });
})();
const byId = sqlite.prepare<{ id: number; name: string; created_at: number }, { id: number }>(
  "SELECT id, name, created_at FROM item WHERE id = $id",
);

let next = 0;
const app = new Elysia()
  .get("/baseline", () => ({ ok: true }))
  .get("/baseline/sqlite", () => {
    next = (next % ROWS) + 1;
    return byId.get({ id: next });
  })
  .listen({ port: Number(process.env.PORT ?? 0), hostname: process.env.HOST ?? "127.0.0.1" });

console.log(`Baseline is running at http://${app.server?.hostname}:${app.server?.port}`);

const stop = async () => {
  await app.stop();
  sqlite.close();
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);

// Like src/main.ts: stop when the bench process is gone.
const parentPid = Number(process.env.ENGRAM_PARENT_PID);
if (parentPid > 1) {
  setInterval(() => {
    try {
      process.kill(parentPid, 0);
    } catch {
      void stop();
    }
  }, 1000).unref();
}
