/**
 * The benchmark baseline: a bare Elysia app on the same Bun, started the same way as Engram (its own
 * child process, PORT/HOST/ENGRAM_DATA_DIR from the harness), so that ratios against it cancel out
 * the machine.
 *
 *   GET /baseline         -> { ok: true }                         (the framework alone)
 *   GET /baseline/sqlite  -> one primary-key SELECT on a small table  (plus one bun:sqlite read)
 *   POST /baseline/title-prefix  (only with BARE_SEARCH_DB, the path of an Engram SQLite file) -> a
 *                         bare version of a short-key note search: what any server must do for it
 *                         and nothing more: the session cookie looked up by its hash, the JSON body
 *                         read, the caller's notebooks, and the indexed title-prefix query (30 rows)
 *
 * The SQLite file is opened like Engram's (WAL, synchronous=NORMAL) in ENGRAM_DATA_DIR.
 */
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { Elysia } from "elysia";

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
  .post("/baseline/title-prefix", ({ headers, body, set }) => {
    const search = bareSearch();
    if (!search) return new Response("BARE_SEARCH_DB is not set", { status: 404 });
    return search(headers.cookie, body as { searchKey?: unknown }, set);
  })
  .listen({ port: Number(process.env.PORT ?? 0), hostname: process.env.HOST ?? "127.0.0.1" });

/** The bare short-key search over an Engram database (opened read-only on first use), or undefined without one. */
function bareSearch() {
  if (!process.env.BARE_SEARCH_DB) return undefined;
  if (bare) return bare;
  const engram = new Database(process.env.BARE_SEARCH_DB, { readonly: true, strict: true });
  const session = engram.prepare<{ user_id: number }, [string, number]>(
    "SELECT u.id AS user_id FROM sessions s JOIN users u ON u.account_id = s.account_id WHERE s.id = ? AND s.expires_at > ?",
  );
  const notebooks = engram.prepare<{ id: number }, [number]>("SELECT id FROM notebooks WHERE creator_id = ?");
  const prefix = engram.prepare<{ id: number; title: string }, [string, string, string]>(
    `SELECT id, title FROM notes INDEXED BY notes_searchable_title WHERE notebook_id IN (SELECT value FROM json_each(?1))
     AND deleted_at IS NULL AND target_note_id IS NULL AND title >= ?2 COLLATE NOCASE AND title < ?3 COLLATE NOCASE LIMIT 30`,
  );
  bare = (cookie: string | undefined, body: { searchKey?: unknown }, set: { status?: number | string }) => {
    const token = /(?:^|;\s*)engram_session=([^;]+)/.exec(cookie ?? "")?.[1];
    const caller = token && session.get(new Bun.CryptoHasher("sha256").update(token).digest("hex"), Date.now());
    if (!caller) {
      set.status = 401;
      return { message: "Please sign in" };
    }
    const key = typeof body?.searchKey === "string" ? body.searchKey.toLowerCase() : "";
    if (!key) return [];
    const upper = key.slice(0, -1) + String.fromCharCode(key.charCodeAt(key.length - 1) + 1);
    const ids = JSON.stringify(notebooks.all(caller.user_id).map((row) => row.id));
    return prefix.all(ids, key, upper);
  };
  return bare;
}
let bare: ((cookie: string | undefined, body: { searchKey?: unknown }, set: { status?: number | string }) => unknown) | undefined;

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
