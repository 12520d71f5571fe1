/**
 * `engram migrate-to-postgres <url>` / `npm run migrate-to-postgres -- <url>`: copies the SQLite
 * database of the configured data folder (ENGRAM_DATA_DIR) into the empty PostgreSQL database at
 * <url>, verifies the counts table by table and prints them. The SQLite file is only read. Files
 * (attachments and images are rows; the backups folder is not) stay where they are.
 */
import { join } from "node:path";
import { ConfigError, readConfig } from "./config";
import { parsePostgresUrl } from "./db/postgres/connection";
import { MigrateToPostgresError, migrateToPostgres, type TableCount } from "./store/migrate-to-postgres/copy-to-postgres";

type Out = { log: (line: string) => void; error: (line: string) => void };
const USAGE = "Usage: engram migrate-to-postgres postgres://user:password@host:5432/database";

/** The counts as a small table: one line per table, the total last. */
export function countsTable(counts: TableCount[]): string[] {
  const width = Math.max(5, ...counts.map((count) => count.table.length));
  const number = (n: number) => String(n).padStart(10);
  const lines = [`${"table".padEnd(width)} ${"SQLite".padStart(10)} ${"PostgreSQL".padStart(10)}`];
  for (const count of counts) lines.push(`${count.table.padEnd(width)} ${number(count.source)} ${number(count.target)}`);
  const total = (pick: (count: TableCount) => number) => counts.reduce((sum, count) => sum + pick(count), 0);
  lines.push(`${"total".padEnd(width)} ${number(total((c) => c.source))} ${number(total((c) => c.target))}`);
  return lines;
}

/** Runs the migration with its arguments; answers the exit code. */
export async function runMigrateToPostgresCommand(
  args: string[],
  env: Record<string, string | undefined> = process.env,
  out: Out = console,
): Promise<number> {
  const url = args[0]?.trim() ?? "";
  if (args.length !== 1 || !url) {
    out.error(USAGE);
    return 2;
  }
  try {
    const { host, port, database } = parsePostgresUrl(url);
    const { dataDir } = readConfig(env);
    const file = join(dataDir, "engram.db");
    const result = await migrateToPostgres(file, url);
    for (const line of countsTable(result.tables)) out.log(line);
    out.log(`Copied ${file} into ${database} on ${host}:${port}; every table's count matches. ${file} is unchanged.`);
    out.log(
      `Start Engram with ENGRAM_DATABASE_URL set to this database. Files stay in ${dataDir}: keep its backups folder (SQLite backups) if you want them.`,
    );
    return 0;
  } catch (error) {
    if (error instanceof MigrateToPostgresError || error instanceof ConfigError) {
      // ConfigError messages name ENGRAM_DATABASE_URL; here the URL is the argument.
      out.error(`Engram migrate-to-postgres failed: ${error.message.replace("ENGRAM_DATABASE_URL", "the URL")}`);
      return 1;
    }
    throw error;
  }
}

if (import.meta.main) process.exit(await runMigrateToPostgresCommand(process.argv.slice(2)));
