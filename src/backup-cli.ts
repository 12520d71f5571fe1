/**
 * `engram backup [file]` / `npm run backup -- [file]` and `engram restore <file>` /
 * `npm run restore -- <file>`, with the configuration of `npm start` (ENGRAM_DATA_DIR).
 * Backup works while Engram runs; restore refuses to. Each prints one line and exits 0 or 1.
 * With ENGRAM_DATABASE_URL (PostgreSQL) both refuse, saying backups are the operator's.
 */
import { join, resolve } from "node:path";
import { ConfigError, readConfig } from "./config";
import { restoreBackup } from "./services/backups/restore";
import { BackupError, backupFileName, backupsDir, OPERATOR_BACKUPS, openForBackup, snapshot } from "./services/backups/snapshot";

type Out = { log: (line: string) => void; error: (line: string) => void };

/** Runs `backup` or `restore` with its arguments; answers the exit code. */
export function runBackupCommand(
  command: string,
  args: string[],
  env: Record<string, string | undefined> = process.env,
  out: Out = console,
): number {
  try {
    const { dataDir, databaseUrl } = readConfig(env);
    // On PostgreSQL there is no file to copy or replace: the operator's tools do both.
    if (databaseUrl && (command === "backup" || command === "restore")) throw new BackupError(OPERATOR_BACKUPS);
    if (command === "backup") {
      const target = args[0] ? resolve(args[0]) : join(backupsDir(dataDir), backupFileName(new Date()));
      const db = openForBackup(dataDir);
      try {
        const result = snapshot(db, target);
        out.log(`Backup written and verified: ${result.file} (${result.bytes} bytes)`);
      } finally {
        db.close();
      }
      return 0;
    }
    if (command === "restore") {
      if (!args[0]) {
        out.error("Usage: engram restore <file>  (npm run restore -- <file>)");
        return 2;
      }
      const result = restoreBackup(dataDir, args[0]);
      const aside = result.replacedDir ? `; the previous database is in ${result.replacedDir}` : "";
      out.log(`Restored ${resolve(args[0])} as ${result.restored}${aside}. Start Engram again.`);
      return 0;
    }
    out.error(`Unknown command "${command}". Use backup or restore.`);
    return 2;
  } catch (error) {
    if (error instanceof BackupError || error instanceof ConfigError) {
      out.error(`Engram ${command} failed: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

if (import.meta.main) process.exit(runBackupCommand(process.argv[2] ?? "", process.argv.slice(3)));
