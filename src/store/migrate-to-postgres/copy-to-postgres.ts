/**
 * Copies an Engram SQLite database into an empty PostgreSQL database: `engram migrate-to-postgres`.
 *
 * - The source is opened read-only and read in one read transaction (one snapshot); it is never
 *   written. It must carry every SQLite migration of this version (Engram migrates it at start-up).
 * - The target is migrated (migratePostgres), refused when it already holds data, then filled in
 *   one transaction: a failure anywhere leaves it as empty as it was.
 * - Tables go in foreign-key order (copy-plan.ts), in batches, ids kept; every identity sequence is
 *   then set past the highest id (and past SQLite's AUTOINCREMENT counter, so a deleted row's id is
 *   not handed out again).
 * - The rows triggers derive (recall-log aggregates, tracker counts and due buckets, learning
 *   candidates, embedding bits and their change log, cache versions, note text revisions, the
 *   note-changes outbox) are copied as SQLite's triggers left them, with the tables' own triggers
 *   disabled for the copy: fired, they would count every review a second time on top of the copied
 *   aggregates and queue every note for embedding again. The triggers are enabled again before
 *   the commit. FTS5's tables are not copied: PostgreSQL searches the notes' own columns (pg_trgm).
 *   The one-row tables the PostgreSQL migrations seed keep their seed (SEEDED_BY_MIGRATIONS).
 * - Each table's count is checked against the source's inside the transaction, before it commits.
 */
import type { Database as SqliteFile } from "bun:sqlite";
import { Database as SqliteConnection } from "bun:sqlite";
import { existsSync } from "node:fs";
import type { SQL } from "bun";
import { sql } from "drizzle-orm";
import { type BunSQLDatabase, drizzle } from "drizzle-orm/bun-sql";
import { embeddedMigrations } from "../../db/migrations.generated";
import { connectPostgres } from "../../db/postgres/connection";
import { migratePostgres } from "../../db/postgres/migrate";
import * as pgSchema from "../../db/postgres/schema";
import { type CopiedTable, copyPlan } from "./copy-plan";

/** A refusal or failure said in one line (the CLI prints it after "Engram migrate-to-postgres failed: "). */
export class MigrateToPostgresError extends Error {}

/**
 * The tables the PostgreSQL migrations seed with their one row (not the operator's data): kept as
 * seeded, not copied. search_index_state holds the generation of the semantic search's copies in
 * memory, which only running processes compare; the new processes on PostgreSQL start from the seed.
 */
const SEEDED_BY_MIGRATIONS = new Set(["search_index_state"]);

/** At most this many parameters in one INSERT (PostgreSQL's limit is 65535). */
const MAX_PARAMETERS = 30_000;
const MAX_BATCH_ROWS = 1_000;

export interface TableCount {
  table: string;
  source: number;
  target: number;
}

export interface MigrateToPostgresResult {
  tables: TableCount[];
  migrationsApplied: string[];
}

type PgDb = BunSQLDatabase<typeof pgSchema>;
type PgTransaction = Parameters<Parameters<PgDb["transaction"]>[0]>[0];

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Copies the SQLite file into the PostgreSQL database at `url`; throws MigrateToPostgresError on a refusal. */
export async function migrateToPostgres(sqliteFile: string, url: string): Promise<MigrateToPostgresResult> {
  const source = openSource(sqliteFile);
  try {
    checkSourceIsCurrent(source, sqliteFile);
    const client = await connectPostgres(url, 2);
    try {
      const migrationsApplied = await migratePostgres(client);
      const tables = await copyAll(source, client);
      return { tables, migrationsApplied };
    } finally {
      await client.close();
    }
  } finally {
    source.close();
  }
}

function openSource(file: string): SqliteFile {
  if (!existsSync(file)) throw new MigrateToPostgresError(`there is no Engram database at ${file} (set ENGRAM_DATA_DIR)`);
  // Read-only: SQLite may read the -wal beside it (a running or crashed instance's last writes), never change the file.
  const source = new SqliteConnection(file, { readonly: true });
  source.run("PRAGMA busy_timeout = 5000");
  return source;
}

function checkSourceIsCurrent(source: SqliteFile, file: string) {
  const last = (() => {
    try {
      return source.query<{ at: number | null }, []>("SELECT max(created_at) AS at FROM __drizzle_migrations").get()?.at;
    } catch {
      return null;
    }
  })();
  const expected = embeddedMigrations.at(-1)!.when;
  if (last == null) throw new MigrateToPostgresError(`${file} is not an Engram database`);
  if (Number(last) < expected) {
    throw new MigrateToPostgresError(
      `${file} was last opened by an older Engram: start this version on it once (it brings the file up to date), stop it, then migrate`,
    );
  }
  if (Number(last) > expected) throw new MigrateToPostgresError(`${file} was written by a newer Engram: migrate with that version`);
}

async function copyAll(source: SqliteFile, client: SQL): Promise<TableCount[]> {
  const plan = copyPlan();
  const db = drizzle({ client, schema: pgSchema });
  source.run("BEGIN"); // one snapshot of the source for the whole copy
  try {
    return await db.transaction(async (tx) => {
      await refuseWhenNotEmpty(tx, plan);
      for (const table of plan) await tx.execute(sql.raw(`ALTER TABLE ${quoted(table.name)} DISABLE TRIGGER USER`));
      for (const table of plan) {
        if (!SEEDED_BY_MIGRATIONS.has(table.name)) await copyTable(source, tx, table);
      }
      for (const table of plan) await setDeferredColumns(source, tx, table);
      for (const table of plan) await tx.execute(sql.raw(`ALTER TABLE ${quoted(table.name)} ENABLE TRIGGER USER`));
      await setIdentitiesPastCopiedIds(source, tx);
      const counts = await countBoth(source, tx, plan);
      const wrong = counts.filter((count) => count.source !== count.target);
      if (wrong.length > 0) {
        throw new MigrateToPostgresError(
          `the counts differ after the copy (${wrong.map((c) => `${c.table}: ${c.source} in SQLite, ${c.target} in PostgreSQL`).join("; ")}); nothing was kept`,
        );
      }
      return counts;
    });
  } finally {
    source.run("ROLLBACK");
  }
}

async function countOf(tx: PgTransaction, table: string): Promise<number> {
  const rows = (await tx.execute(sql.raw(`SELECT count(*)::integer AS n FROM ${quoted(table)}`))) as unknown as { n: number }[];
  return Number(rows[0]?.n ?? 0);
}

async function refuseWhenNotEmpty(tx: PgTransaction, plan: CopiedTable[]) {
  for (const table of plan) {
    if (SEEDED_BY_MIGRATIONS.has(table.name)) continue;
    if ((await countOf(tx, table.name)) > 0) {
      throw new MigrateToPostgresError(
        `the PostgreSQL database already holds data (table ${table.name} has rows): migrate into an empty database`,
      );
    }
  }
}

function sourceRows(source: SqliteFile, table: CopiedTable): Iterable<Record<string, unknown>> {
  const columns = table.columns.map((column) => quoted(column.name)).join(", ");
  return source.query<Record<string, unknown>, []>(`SELECT ${columns} FROM ${quoted(table.name)}`).iterate();
}

/** A source row as the values drizzle's PostgreSQL table takes (Dates, booleans, Buffers), deferred columns NULL. */
function valuesOf(row: Record<string, unknown>, table: CopiedTable): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const column of table.columns) {
    const stored = row[column.name];
    values[column.key] =
      stored === null || stored === undefined || table.deferred.includes(column.name) ? null : column.source.mapFromDriverValue(stored);
  }
  return values;
}

async function copyTable(source: SqliteFile, tx: PgTransaction, table: CopiedTable) {
  const batchRows = Math.max(1, Math.min(MAX_BATCH_ROWS, Math.floor(MAX_PARAMETERS / table.columns.length)));
  let batch: Record<string, unknown>[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    await tx.insert(table.pg).values(batch);
    batch = [];
  };
  for (const row of sourceRows(source, table)) {
    batch.push(valuesOf(row, table));
    if (batch.length >= batchRows) await flush();
  }
  await flush();
}

/** Sets the columns copied as NULL (they close a foreign-key cycle), a batch of rows per UPDATE. */
async function setDeferredColumns(source: SqliteFile, tx: PgTransaction, table: CopiedTable) {
  if (table.deferred.length === 0) return;
  const key = table.primaryKey!;
  const columns = [key, ...table.deferred];
  const filter = table.deferred.map((column) => `${quoted(column)} IS NOT NULL`).join(" OR ");
  const rows = source
    .query<Record<string, number | null>, []>(
      `SELECT ${columns.map(quoted).join(", ")} FROM ${quoted(table.name)} WHERE ${filter} ORDER BY ${quoted(key)}`,
    )
    .all();
  const perBatch = Math.floor(MAX_PARAMETERS / columns.length);
  for (let start = 0; start < rows.length; start += perBatch) {
    const slice = rows.slice(start, start + perBatch);
    const tuples = slice.map(
      (row) =>
        sql`(${sql.join(
          columns.map((column) => sql`${row[column]}::integer`),
          sql`, `,
        )})`,
    );
    const assignments = table.deferred.map((column) => `${quoted(column)} = v.${quoted(column)}`).join(", ");
    await tx.execute(
      sql`UPDATE ${sql.raw(quoted(table.name))} AS t SET ${sql.raw(assignments)} FROM (VALUES ${sql.join(tuples, sql`, `)}) AS v(${sql.raw(columns.map(quoted).join(", "))}) WHERE t.${sql.raw(quoted(key))} = v.${sql.raw(quoted(key))}`,
    );
  }
}

/** Every identity sequence past the highest copied id and past SQLite's AUTOINCREMENT counter for the table. */
async function setIdentitiesPastCopiedIds(source: SqliteFile, tx: PgTransaction) {
  const counters = new Map(
    source
      .query<{ name: string; seq: number }, []>("SELECT name, seq FROM sqlite_sequence")
      .all()
      .map((row) => [row.name, Number(row.seq)]),
  );
  const identities = (await tx.execute(
    sql`SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema() AND is_identity = 'YES'`,
  )) as unknown as { table_name: string; column_name: string }[];
  for (const { table_name: table, column_name: column } of identities) {
    const floor = counters.get(table) ?? 0;
    await tx.execute(
      sql`SELECT setval(pg_get_serial_sequence(${quoted(table)}, ${column}), GREATEST(COALESCE(MAX(${sql.raw(quoted(column))}), 0), ${floor}::integer) + 1, false) FROM ${sql.raw(quoted(table))}`,
    );
  }
}

async function countBoth(source: SqliteFile, tx: PgTransaction, plan: CopiedTable[]): Promise<TableCount[]> {
  const counts: TableCount[] = [];
  for (const table of plan) {
    const sourceCount = source.query<{ n: number }, []>(`SELECT count(*) AS n FROM ${quoted(table.name)}`).get()?.n ?? 0;
    counts.push({ table: table.name, source: Number(sourceCount), target: await countOf(tx, table.name) });
  }
  return counts;
}
