/**
 * `engram migrate-to-postgres <url>` (npm run test:postgres): a SQLite instance filled through the
 * real API and stores is copied into an empty PostgreSQL database; every table's count and every
 * row match, ids and sequences follow, a second run refuses, a failure mid-copy leaves the target
 * empty, and the SQLite file is never changed.
 */

import { Database as SqliteConnection } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SQL } from "bun";
import { asc, getTableColumns } from "drizzle-orm";
import { drizzle as drizzlePostgres } from "drizzle-orm/bun-sql";
import { drizzle as drizzleSqlite } from "drizzle-orm/bun-sqlite";
import { migratePostgres } from "../../src/db/postgres/migrate";
import * as pgSchema from "../../src/db/postgres/schema";
import * as sqliteSchema from "../../src/db/schema";
import { runMigrateToPostgresCommand } from "../../src/migrate-to-postgres-cli";
import { copyPlan } from "../../src/store/migrate-to-postgres/copy-plan";
import { MigrateToPostgresError, migrateToPostgres } from "../../src/store/migrate-to-postgres/copy-to-postgres";
import { freshPostgresDatabase, postgresTestUrl } from "../support/database-under-test";
import { helpVaultFiles } from "../support/help-vault";
import { assimilate, travelTo } from "../support/learning";
import { injectNotes } from "../support/notes";
import { resetTestData, startTestServer } from "../support/server";
import { importZip, makeZip } from "../support/vaults";

const url = postgresTestUrl();

/** A SQLite instance with a bit of everything, made through the API and the stores; answers its data folder. */
async function filledSqliteInstance(): Promise<string> {
  // The source is SQLite even when the test server would otherwise run on ENGRAM_TEST_DATABASE_URL.
  const server = await startTestServer({ ENGRAM_DATABASE_URL: "" });
  const dataDir = mkdtempSync(join(tmpdir(), "engram-migrate-source-"));
  try {
    await resetTestData(server);
    const learner = await server.client().loginAs("old_learner");
    const reader = await server.client().loginAs("another_old_learner");
    await travelTo(learner, 0, 8);
    const ids = await injectNotes(learner, [
      { Title: "Shared" },
      { Title: "Sedition", "Parent Title": "Shared", Details: "Incitement to <b>rebel</b>" },
      { Title: "Sourdough", "Parent Title": "Shared" },
      { Title: "Rye", "Parent Title": "Sourdough" },
    ]);
    // A move makes a child whose parent has a higher id than itself, and a title change a text revision.
    await learner.post(`/api/notes/move_after/${ids.Sedition}/${ids.Rye}/true`);
    await learner.patch(`/api/text_content/${ids.Sourdough}/title`, { newTitle: "Sourdough bread" });
    await learner.post(`/api/notes/${ids.Sedition}/review-setting`, { rememberSpelling: true });
    const [tracker, spelling] = await assimilate(learner, ids.Sedition);
    await assimilate(learner, ids.Rye);
    await travelTo(learner, 1, 9);
    await learner.patch(`/api/memory-trackers/${tracker!.id}/mark-as-repeated?successful=true`);
    await learner.post(`/api/memory-trackers/${tracker!.id}/self-evaluate`, { adjustment: 5 });
    await learner.post(`/api/memory-trackers/${spelling!.id}/answer-spelling`, { spellingAnswer: "sedition" });
    await learner.post("/api/user/generate-token", { label: "My MCP client" });

    await server.client().post("/api/testability/share_to_bazaar", { noteTopology: "Shared" });
    const sharedNotebookId = (await learner.get(`/api/notes/${ids.Shared}`)).body.notebook.id;
    await reader.post(`/api/subscriptions/notebooks/${sharedNotebookId}/subscribe`, { dailyTargetOfNewNotes: 2 });
    const conversation = (await reader.post(`/api/conversation/note/${ids.Sourdough}`, "Is this rye?")).body;
    await learner.post(`/api/conversation/${conversation.id}/send`, { message: "Yes, a rye starter." });

    const { noteId } = (await learner.post("/api/notebooks/create", { newTitle: "Help" })).body;
    const notebookId = (await learner.get(`/api/notes/${noteId}`)).body.notebook.id;
    const imported = await importZip(server, learner, notebookId, await makeZip(helpVaultFiles()));
    expect(imported.status).toBeLessThan(300);

    const embedding = Buffer.from(new Float32Array([0.5, -0.25, 0.125, -1, 0.75, 0, 0.3, -0.1]).buffer);
    await server.ctx.stores.search.storeEmbeddings(
      [ids.Sedition, ids.Rye].map((id) => ({ noteId: id, model: "test-model", dimensions: 8, embedding, sourceHash: "h" })),
      1000,
      Date.now(),
    );

    const db = server.ctx.sqlite;
    const count = (table: string) => (db.query(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    for (const table of [
      "users",
      "sessions",
      "notebooks",
      "notes",
      "memory_trackers",
      "recall_log",
      "recall_log_buckets",
      "note_text_revisions",
      "user_tokens",
      "conversations",
      "conversation_messages",
      "notebook_attachments",
      "note_embeddings",
      "note_embedding_bits",
      "subscriptions",
    ]) {
      expect({ table, rows: count(table) > 0 }).toEqual({ table, rows: true });
    }
    db.run("PRAGMA wal_checkpoint(TRUNCATE)");
    copyFileSync(join(server.ctx.config.dataDir, "engram.db"), join(dataDir, "engram.db"));
    return dataDir;
  } finally {
    await server.stop();
  }
}

const fingerprint = (file: string) => ({
  sha256: new Bun.CryptoHasher("sha256").update(new Uint8Array(require("node:fs").readFileSync(file))).digest("hex"),
  mtimeMs: statSync(file).mtimeMs,
  size: statSync(file).size,
});

const countOf = async (client: SQL, table: string) => Number((await client.unsafe(`SELECT count(*)::integer AS n FROM "${table}"`))[0].n);

describe.skipIf(!url)("engram migrate-to-postgres", () => {
  let dataDir: string;
  let sourceFile: string;
  let before: ReturnType<typeof fingerprint>;
  let target: Awaited<ReturnType<typeof freshPostgresDatabase>>;
  let client: SQL;
  const printed: string[] = [];
  let exitCode: number;

  beforeAll(async () => {
    dataDir = await filledSqliteInstance();
    sourceFile = join(dataDir, "engram.db");
    before = fingerprint(sourceFile);
    target = await freshPostgresDatabase(url!);
    client = new SQL(target.url, { max: 2 });
    const out = { log: (line: string) => printed.push(line), error: (line: string) => printed.push(line) };
    exitCode = await runMigrateToPostgresCommand([target.url], { ENGRAM_DATA_DIR: dataDir }, out);
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    await target?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  test("every table's count matches, and the command prints them", async () => {
    expect({ exitCode, printed }).toMatchObject({ exitCode: 0 });
    const source = new SqliteConnection(sourceFile, { readonly: true });
    try {
      for (const table of copyPlan()) {
        const expected = (source.query(`SELECT count(*) AS n FROM "${table.name}"`).get() as { n: number }).n;
        expect({ table: table.name, rows: await countOf(client, table.name) }).toEqual({ table: table.name, rows: expected });
        expect(printed.some((line) => new RegExp(`^${table.name} +${expected} +${expected}$`).test(line))).toBe(true);
      }
    } finally {
      source.close();
    }
    expect(printed.at(-2)).toContain("every table's count matches");
  });

  test("every row is identical field by field, as drizzle reads it from either database", async () => {
    const source = new SqliteConnection(sourceFile, { readonly: true });
    const fromSqlite = drizzleSqlite({ client: source });
    const fromPostgres = drizzlePostgres({ client });
    try {
      const sqliteTables = sqliteSchema as unknown as Record<string, never>;
      const pgTables = pgSchema as unknown as Record<string, never>;
      for (const [name, pg] of Object.entries(pgTables)) {
        const table = copyPlan().find((t) => t.pg === pg);
        // The semantic index's generation is kept as PostgreSQL's migrations seed it (only live processes compare it).
        if (!table || table.name === "search_index_state") continue;
        const order = table.columns.map((column) => column.key);
        const sqliteColumns = getTableColumns(sqliteTables[name]!) as Record<string, never>;
        const pgColumns = getTableColumns(pg) as Record<string, never>;
        const sqliteRows = await fromSqlite
          .select()
          .from(sqliteTables[name]!)
          .orderBy(...order.map((key) => asc(sqliteColumns[key]!)));
        const pgRows = await fromPostgres
          .select()
          .from(pg)
          .orderBy(...order.map((key) => asc(pgColumns[key]!)));
        expect({ table: table.name, rows: pgRows }).toEqual({ table: table.name, rows: sqliteRows });
      }
    } finally {
      source.close();
    }
  });

  test("the derived rows came along and the triggers are on again: a new recall counts once, new ids follow the copied ones", async () => {
    const [{ n: disabled }] = await client`SELECT count(*)::integer AS n FROM pg_trigger WHERE NOT tgisinternal AND tgenabled = 'D'`;
    expect(disabled).toBe(0);
    const [bits] = await client`SELECT count(*)::integer AS n FROM note_embedding_bits`;
    expect(bits.n).toBe(2);

    const [tracker] = await client`SELECT id, user_id FROM memory_trackers ORDER BY id LIMIT 1`;
    const [counted] = await client`SELECT successes + failures AS n FROM recall_log_tracker_counts WHERE memory_tracker_id = ${tracker.id}`;
    expect(Number(counted.n)).toBeGreaterThan(0); // copied as SQLite counted (the row test compares them)
    const [{ max }] = await client`SELECT max(id)::integer AS max FROM recall_log`;
    const [inserted] = await client`
      INSERT INTO recall_log (memory_tracker_id, user_id, reviewed_at, kind, outcome, state_after)
      VALUES (${tracker.id}, ${tracker.user_id}, now(), 'self-review', 'success', '{}') RETURNING id`;
    expect(inserted.id).toBeGreaterThan(max);
    const [after] = await client`SELECT successes + failures AS n FROM recall_log_tracker_counts WHERE memory_tracker_id = ${tracker.id}`;
    expect(Number(after.n)).toBe(Number(counted.n) + 1);
  });

  test("a second run into the same database refuses in one line and changes nothing", async () => {
    const notes = await countOf(client, "notes");
    const lines: string[] = [];
    const out = { log: (line: string) => lines.push(line), error: (line: string) => lines.push(line) };
    expect(await runMigrateToPostgresCommand([target.url], { ENGRAM_DATA_DIR: dataDir }, out)).toBe(1);
    expect(lines).toEqual([
      "Engram migrate-to-postgres failed: the PostgreSQL database already holds data (table accounts has rows): migrate into an empty database",
    ]);
    expect(await countOf(client, "notes")).toBe(notes);
  });

  test("a table that fails mid-copy leaves the target empty", async () => {
    const other = await freshPostgresDatabase(url!);
    const otherClient = new SQL(other.url, { max: 1 });
    try {
      await migratePostgres(otherClient);
      // The recall log comes late in the copy: every table before it has been written when it fails.
      await otherClient.unsafe("ALTER TABLE recall_log ADD CONSTRAINT refuse_every_row CHECK (false) NOT VALID");
      const failure = await migrateToPostgres(sourceFile, other.url).catch((error) => error);
      expect(failure).toBeInstanceOf(Error);
      expect(failure).not.toBeInstanceOf(MigrateToPostgresError);
      for (const table of copyPlan()) {
        const expected = table.name === "search_index_state" ? 1 : 0;
        expect({ table: table.name, rows: await countOf(otherClient, table.name) }).toEqual({ table: table.name, rows: expected });
      }
      const [{ n: disabled }] = await otherClient`SELECT count(*)::integer AS n FROM pg_trigger WHERE NOT tgisinternal AND tgenabled = 'D'`;
      expect(disabled).toBe(0);
    } finally {
      await otherClient.close();
      await other.drop();
    }
  });

  test("the SQLite file is unchanged: same bytes, same modification time", () => {
    expect(fingerprint(sourceFile)).toEqual(before);
  });

  test("a data folder without a database, or a URL that is not PostgreSQL, is one line", async () => {
    const empty = mkdtempSync(join(tmpdir(), "engram-migrate-empty-"));
    try {
      const lines: string[] = [];
      const out = { log: (line: string) => lines.push(line), error: (line: string) => lines.push(line) };
      expect(await runMigrateToPostgresCommand([target.url], { ENGRAM_DATA_DIR: empty }, out)).toBe(1);
      expect(await runMigrateToPostgresCommand(["mysql://x@y/z"], { ENGRAM_DATA_DIR: dataDir }, out)).toBe(1);
      expect(await runMigrateToPostgresCommand([], { ENGRAM_DATA_DIR: dataDir }, out)).toBe(2);
      expect(lines).toEqual([
        `Engram migrate-to-postgres failed: there is no Engram database at ${join(empty, "engram.db")} (set ENGRAM_DATA_DIR)`,
        "Engram migrate-to-postgres failed: the URL is not a PostgreSQL URL (it starts with mysql://; use postgres://user:password@host:5432/database)",
        "Usage: engram migrate-to-postgres postgres://user:password@host:5432/database",
      ]);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
