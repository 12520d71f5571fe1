import { Database } from "bun:sqlite";
import { afterAll, describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runBackupCommand } from "../../src/backup-cli";
import { openDatabase } from "../../src/db/connection";
import { latestKnownMigration, restoreBackup } from "../../src/services/backups/restore";
import { BackupScheduler } from "../../src/services/backups/schedule";
import { BackupError, backupFileName, listBackups, OPERATOR_BACKUPS, prune, snapshot } from "../../src/services/backups/snapshot";

const root = join(import.meta.dir, "../..");
const folder = mkdtempSync(join(tmpdir(), "engram-backups-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
let counter = 0;
const freshDir = () => join(folder, `d${++counter}`);

/** A data folder with a migrated engram.db; answers its folder. */
function dataFolder(): string {
  const dir = freshDir();
  const { sqlite } = openDatabase(join(dir, "engram.db"));
  sqlite.run("CREATE TABLE probe (id INTEGER PRIMARY KEY, body BLOB)");
  sqlite.close();
  return dir;
}

/** Runs the CLI (`npm run backup/restore` runs the same file) with ENGRAM_DATA_DIR. */
async function cli(dataDir: string, ...args: string[]) {
  const child = Bun.spawn([process.execPath, "src/backup-cli.ts", ...args], {
    cwd: root,
    env: { ...process.env, ENGRAM_DATA_DIR: dataDir },
    stdout: "pipe",
    stderr: "pipe",
  });
  const exitCode = await child.exited;
  return { exitCode, stdout: await new Response(child.stdout).text(), stderr: await new Response(child.stderr).text() };
}

/** Starts src/main.ts on a data folder and waits until it serves. */
async function startEngram(dataDir: string) {
  const child = Bun.spawn([process.execPath, "src/main.ts"], {
    cwd: root,
    env: { ...process.env, HOST: "127.0.0.1", PORT: "0", ENGRAM_MODE: "production", ENGRAM_DATA_DIR: dataDir },
    stdout: "pipe",
    stderr: "pipe",
  });
  const reader = child.stdout.getReader();
  let output = "";
  const deadline = Date.now() + 20_000;
  while (!/running at/.test(output) && Date.now() < deadline) {
    const chunk = await reader.read();
    if (chunk.done) break;
    output += new TextDecoder().decode(chunk.value);
  }
  reader.releaseLock();
  if (!/running at/.test(output)) throw new Error(`Engram did not start: ${output}${await new Response(child.stderr).text()}`);
  return child;
}

describe("online backup", () => {
  test("a backup taken during continuous writes passes integrity_check and holds every write acknowledged before it started", async () => {
    const dataDir = dataFolder();
    // Another process writes without pause, one transaction a row, and prints each id once committed.
    const writer = Bun.spawn(
      [
        process.execPath,
        "-e",
        `
      import { openDatabase } from ${JSON.stringify(join(root, "src/db/connection.ts"))};
      const { sqlite } = openDatabase(${JSON.stringify(join(dataDir, "engram.db"))});
      const insert = sqlite.prepare("INSERT INTO probe (body) VALUES (randomblob(3000)) RETURNING id");
      for (;;) {
        const { id } = insert.get();
        process.stdout.write(id + "\\n");
        if (id % 50 === 0) await Bun.sleep(0);
      }
    `,
      ],
      { cwd: root, stdout: "pipe", stderr: "inherit" },
    );
    let acknowledged = 0;
    const reading = (async () => {
      let text = "";
      const reader = writer.stdout.getReader();
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
        text += new TextDecoder().decode(chunk.value);
        const lines = text.split("\n");
        text = lines.pop()!;
        if (lines.length) acknowledged = Number(lines.at(-1));
      }
    })();
    try {
      const checks: { file: string; before: number }[] = [];
      for (let i = 0; i < 4; i++) {
        while (acknowledged < (i + 1) * 300) await Bun.sleep(5);
        const before = acknowledged;
        const file = join(folder, `snap-${counter}-${i}.db`);
        const result = await cli(dataDir, "backup", file);
        expect(result.stderr).toBe("");
        expect(result.exitCode).toBe(0);
        expect(result.stdout).toStartWith(`Backup written and verified: ${file}`);
        checks.push({ file, before });
      }
      expect(acknowledged).toBeGreaterThan(checks.at(-1)!.before); // the writes went on during the backups
      for (const { file, before } of checks) {
        const target = freshDir();
        restoreBackup(target, file);
        const db = new Database(join(target, "engram.db"), { readonly: true });
        expect(db.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
        const { count, max } = db.query<{ count: number; max: number }, []>("SELECT count(*) AS count, max(id) AS max FROM probe").get()!;
        expect(max).toBeGreaterThanOrEqual(before);
        expect(count).toBe(max); // ids 1..max, none missing
        db.close();
      }
    } finally {
      writer.kill();
      await writer.exited;
      await reading;
    }
  }, 30_000);

  test("the default name has a timestamp, in <data dir>/backups/", async () => {
    const dataDir = dataFolder();
    const result = await cli(dataDir, "backup");
    expect(result.exitCode).toBe(0);
    const files = readdirSync(join(dataDir, "backups"));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^engram-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z\.db$/);
    expect(listBackups(join(dataDir, "backups"))).toHaveLength(1);
  }, 15_000);

  test("backup of a folder without a database says so", async () => {
    const result = await cli(freshDir(), "backup");
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/^Engram backup failed: there is no database at .*engram\.db/);
  }, 15_000);

  test("a snapshot is atomic: an existing target is refused and no temporary file is left", () => {
    const dataDir = dataFolder();
    const { sqlite } = openDatabase(join(dataDir, "engram.db"));
    const target = join(dataDir, "out", "a.db");
    snapshot(sqlite, target);
    expect(() => snapshot(sqlite, target)).toThrow(BackupError);
    expect(readdirSync(join(dataDir, "out"))).toEqual(["a.db"]);
    sqlite.close();
  });
});

describe("on PostgreSQL (ENGRAM_DATABASE_URL)", () => {
  // No server is reached: the refusal comes before anything is opened.
  const postgres = (dataDir: string) => ({ ENGRAM_DATA_DIR: dataDir, ENGRAM_DATABASE_URL: "postgres://engram@127.0.0.1:1/engram" });
  const captured = () => {
    const lines = { log: [] as string[], error: [] as string[] };
    return { lines, out: { log: (line: string) => lines.log.push(line), error: (line: string) => lines.error.push(line) } };
  };

  test("engram backup refuses, saying backups are the operator's (pg_dump, point-in-time recovery), and writes nothing", () => {
    const dataDir = freshDir();
    const { lines, out } = captured();
    expect(runBackupCommand("backup", [], postgres(dataDir), out)).toBe(1);
    expect(lines.error).toEqual([`Engram backup failed: ${OPERATOR_BACKUPS}`]);
    expect(OPERATOR_BACKUPS).toContain("pg_dump");
    expect(OPERATOR_BACKUPS).toContain("point-in-time recovery");
    expect(lines.log).toEqual([]);
    expect(existsSync(dataDir)).toBe(false);
  });

  test("engram restore refuses with the same explanation and leaves the file and the data folder alone", () => {
    const dataDir = dataFolder();
    const backup = join(freshDir(), "engram-backup.db");
    mkdirSync(join(backup, ".."), { recursive: true });
    copyFileSync(join(dataDir, "engram.db"), backup);
    const before = readdirSync(dataDir).sort();
    const { lines, out } = captured();
    expect(runBackupCommand("restore", [backup], postgres(dataDir), out)).toBe(1);
    expect(lines.error).toEqual([`Engram restore failed: ${OPERATOR_BACKUPS}`]);
    expect(readdirSync(dataDir).sort()).toEqual(before);
    expect(existsSync(backup)).toBe(true);
  });
});

describe("pruning and the schedule", () => {
  test("pruning keeps the N newest and only removes timestamped snapshots", () => {
    const dir = join(freshDir(), "backups");
    mkdirSync(dir, { recursive: true });
    const names = [5, 1, 4, 2, 3].map((day) => backupFileName(new Date(Date.UTC(2026, 0, day, 3))));
    for (const name of names) writeFileSync(join(dir, name), "x");
    writeFileSync(join(dir, "my-own-copy.db"), "x");
    // A temporary file left by a crash a day ago goes; one being written now stays.
    const stale = `.${names[0]}.123.456.tmp`;
    const current = `.${names[1]}.123.789.tmp`;
    writeFileSync(join(dir, stale), "x");
    writeFileSync(join(dir, current), "x");
    utimesSync(join(dir, stale), new Date(Date.now() - 25 * 3_600_000), new Date(Date.now() - 25 * 3_600_000));
    const removed = prune(dir, 3);
    expect(removed.map((f) => f.slice(dir.length + 1)).sort()).toEqual(
      [stale, ...[1, 2].map((d) => backupFileName(new Date(Date.UTC(2026, 0, d, 3))))].sort(),
    );
    expect(readdirSync(dir).sort()).toEqual(
      [current, "my-own-copy.db", ...[3, 4, 5].map((d) => backupFileName(new Date(Date.UTC(2026, 0, d, 3))))].sort(),
    );
  });

  test("the scheduler writes snapshots, prunes to ENGRAM_BACKUP_KEEP, and skips with a log line when the disk is nearly full", async () => {
    const dataDir = dataFolder();
    const { sqlite } = openDatabase(join(dataDir, "engram.db"));
    const lines: string[] = [];
    let free = 10 * 1024 ** 3;
    const scheduler = new BackupScheduler(
      sqlite,
      { dataDir, intervalHours: 0.00001, keep: 2 },
      (line) => lines.push(line),
      () => free,
    );
    scheduler.start(0);
    while (listBackups(join(dataDir, "backups")).length < 2 || lines.length < 4) await Bun.sleep(20);
    free = 1024 * 1024;
    const written = lines.length;
    while (!lines.slice(written).some((l) => l.startsWith("Backup skipped: the disk is nearly full"))) await Bun.sleep(20);
    scheduler.stop();
    expect(lines.slice(0, written).every((l) => l.startsWith("Backup written: "))).toBe(true);
    expect(listBackups(join(dataDir, "backups"))).toHaveLength(2);
    expect(scheduler.status()).toMatchObject({ keep: 2, nextBackupAt: null });
    expect(scheduler.status().lastProblem).toStartWith("the disk is nearly full");
    expect(readdirSync(join(dataDir, "backups")).filter((n) => n.endsWith(".tmp"))).toEqual([]);
    sqlite.close();
  }, 15_000);

  test("an interval of 0 schedules nothing", () => {
    const dataDir = dataFolder();
    const { sqlite } = openDatabase(join(dataDir, "engram.db"));
    const scheduler = new BackupScheduler(sqlite, { dataDir, intervalHours: 0, keep: 7 });
    scheduler.start(0);
    expect(scheduler.status().nextBackupAt).toBeNull();
    sqlite.close();
  });
});

describe("restore", () => {
  function goodBackup(): string {
    const dataDir = dataFolder();
    const db = new Database(join(dataDir, "engram.db"));
    db.run("INSERT INTO probe (body) VALUES ('from the backup')");
    const file = join(folder, `good-${++counter}.db`);
    snapshot(db, file);
    db.close();
    return file;
  }

  test("refuses while Engram runs on the folder; a crashed Engram (kill -9) does not block", async () => {
    const dataDir = dataFolder();
    const backup = goodBackup();
    const engram = await startEngram(dataDir);
    try {
      const refused = await cli(dataDir, "restore", backup);
      expect(refused.exitCode).toBe(1);
      expect(refused.stderr).toMatch(
        /^Engram restore failed: Engram \(or another program\) is using .*engram\.db; stop it first, then restore\n$/,
      );
      expect(readdirSync(dataDir).filter((n) => n.startsWith("replaced-"))).toEqual([]);
    } finally {
      engram.kill("SIGKILL");
      await engram.exited;
    }
    const restored = await cli(dataDir, "restore", backup);
    expect(restored.stderr).toBe("");
    expect(restored.exitCode).toBe(0);
    const db = new Database(join(dataDir, "engram.db"), { readonly: true });
    expect(db.query("SELECT body FROM probe").all()).toEqual([{ body: "from the backup" }]);
    db.close();
  }, 30_000);

  test("refuses a corrupt file and changes nothing", async () => {
    const dataDir = dataFolder();
    const before = readFileSync(join(dataDir, "engram.db"));
    const corrupt = join(folder, `corrupt-${++counter}.db`);
    const bytes = readFileSync(goodBackup());
    bytes.fill(0x5a, 4096, 4096 * 3); // pages 2 and 3 overwritten
    writeFileSync(corrupt, bytes);
    const result = await cli(dataDir, "restore", corrupt);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toStartWith(`Engram restore failed: ${corrupt} is not a sound database (`);
    expect(readFileSync(join(dataDir, "engram.db")).equals(before)).toBe(true);
    expect(readdirSync(dataDir).sort()).toEqual(["engram.db"]);

    const notSqlite = join(folder, `text-${counter}.db`);
    writeFileSync(notSqlite, "hello, this is not a database".repeat(200));
    expect(() => restoreBackup(dataDir, notSqlite)).toThrow("is not a sound database");
  }, 15_000);

  test("refuses a database from a newer Engram (schema newer than this build's migrations) and one that is not Engram's", () => {
    const dataDir = dataFolder();
    const newer = goodBackup();
    const db = new Database(newer);
    db.run("INSERT INTO __drizzle_migrations (hash, created_at) VALUES ('future', ?)", [latestKnownMigration() + 1]);
    db.close();
    expect(() => restoreBackup(dataDir, newer)).toThrow(/comes from a newer Engram.*nothing was changed/);

    const foreign = join(folder, `foreign-${++counter}.db`);
    const other = new Database(foreign);
    other.run("CREATE TABLE t (x)");
    other.close();
    expect(() => restoreBackup(dataDir, foreign)).toThrow("it is not an Engram database");
    expect(readdirSync(dataDir)).toEqual(["engram.db"]);
  });

  test("moves the current database and its -wal/-shm aside into replaced-<timestamp>/, never deleting them", () => {
    const dataDir = dataFolder();
    writeFileSync(join(dataDir, "engram.db-wal"), "old wal");
    writeFileSync(join(dataDir, "engram.db-shm"), "old shm");
    const current = readFileSync(join(dataDir, "engram.db"));
    const backup = goodBackup();
    const result = restoreBackup(dataDir, backup, new Date(Date.UTC(2026, 10, 23, 22, 30, 7, 123)));
    expect(result.replacedDir).toBe(join(dataDir, "replaced-2026-11-23T22-30-07-123Z"));
    expect(readdirSync(result.replacedDir!).sort()).toEqual(["engram.db", "engram.db-shm", "engram.db-wal"]);
    expect(readFileSync(join(result.replacedDir!, "engram.db")).equals(current)).toBe(true);
    expect(readFileSync(join(result.replacedDir!, "engram.db-wal"), "utf8")).toBe("old wal");
    expect(readdirSync(dataDir).sort()).toEqual(["engram.db", "replaced-2026-11-23T22-30-07-123Z"]);
    // The restored database opens as Engram opens it, with the backup's rows.
    const { sqlite } = openDatabase(join(dataDir, "engram.db"));
    expect(sqlite.query("SELECT body FROM probe").all()).toEqual([{ body: "from the backup" }]);
    sqlite.close();
    expect(existsSync(backup)).toBe(true);
  });
});

describe("start-up with a stray -wal", () => {
  test("prints one line saying what to do and exits 1", async () => {
    // The case: a good copy put over engram.db while the old engram.db-wal stayed.
    const dataDir = freshDir();
    const file = join(dataDir, "engram.db");
    const { sqlite } = openDatabase(file);
    sqlite.run("CREATE TABLE a (x)");
    for (let i = 0; i < 500; i++) sqlite.run("INSERT INTO a VALUES (randomblob(700))");
    sqlite.run("PRAGMA wal_checkpoint(TRUNCATE)");
    const copy = join(folder, `copy-${counter}.db`);
    sqlite.run("VACUUM INTO ?", [copy]);
    sqlite.run("PRAGMA wal_autocheckpoint = 0");
    sqlite.run("DELETE FROM a WHERE rowid % 2 = 0");
    sqlite.run("CREATE TABLE big (x)");
    for (let i = 0; i < 2000; i++) sqlite.run("INSERT INTO big VALUES (randomblob(500))");
    sqlite.run("CREATE INDEX big_x ON big (x)");
    const oldWal = join(folder, `wal-${counter}`);
    copyFileSync(`${file}-wal`, oldWal);
    sqlite.close();
    copyFileSync(copy, file);
    copyFileSync(oldWal, `${file}-wal`);
    rmSync(`${file}-shm`, { force: true });

    const child = Bun.spawn([process.execPath, "src/main.ts"], {
      cwd: root,
      env: { ...process.env, HOST: "127.0.0.1", PORT: "0", ENGRAM_MODE: "production", ENGRAM_DATA_DIR: dataDir },
      stdout: "pipe",
      stderr: "pipe",
    });
    const timer = setTimeout(() => child.kill(), 20_000);
    const exitCode = await child.exited;
    clearTimeout(timer);
    const stderr = await new Response(child.stderr).text();
    expect(exitCode).toBe(1);
    expect(stderr).toBe(
      `Engram cannot start: ${file} cannot be opened with the ${file}-wal beside it (it does not belong to this database, e.g. a backup was copied over engram.db): move ${file}-wal and ${file}-shm aside, or restore with \`engram restore <file>\` / \`npm run restore -- <file>\`.\n`,
    );
  }, 30_000);
});
