import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readConfig } from "../../src/config";
import { createSqliteContext, type SqliteAppContext } from "../../src/context";
import { BackupScheduler } from "../../src/services/backups/schedule";
import { listBackups } from "../../src/services/backups/snapshot";
import { oncePerRequestId } from "../../src/services/request-ids";

/** Two app contexts on one database file, as two processes would be. */
const dataDir = mkdtempSync(join(tmpdir(), "engram-leases-"));
const contexts: SqliteAppContext[] = [];
const open = () => {
  const ctx = createSqliteContext(readConfig({ ENGRAM_MODE: "test", ENGRAM_DATA_DIR: dataDir }));
  contexts.push(ctx);
  return ctx;
};
const first = open();
const second = open();
afterAll(() => {
  for (const ctx of contexts) ctx.sqlite.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("leases", () => {
  test("one holder at a time: the other takes it only once it expired; the holder renews it", async () => {
    const { leases } = first.stores;
    expect(await leases.take("work", "a", 1000, 0)).toBe(true);
    expect(await second.stores.leases.take("work", "b", 1000, 500)).toBe(false);
    expect(await leases.take("work", "a", 1000, 900)).toBe(true); // renewed until 1900
    expect(await second.stores.leases.take("work", "b", 1000, 1500)).toBe(false);
    expect(await second.stores.leases.take("work", "b", 1000, 1900)).toBe(true);
    await leases.release("work", "a"); // not a's any more: nothing happens
    expect(await leases.take("work", "a", 1000, 2000)).toBe(false);
    await second.stores.leases.release("work", "b");
    expect(await leases.take("work", "a", 1000, 2000)).toBe(true);
  });

  test("a backup scheduler whose turn another process took writes nothing and says so", async () => {
    const backupsDir = mkdtempSync(join(tmpdir(), "engram-leases-backups-"));
    const lines: string[] = [];
    const scheduler = new BackupScheduler(
      first.sqlite,
      { dataDir: backupsDir, intervalHours: 0.00002, keep: 3 },
      (line) => lines.push(line),
      undefined,
      async () => false,
    );
    scheduler.start(0);
    while (lines.length < 2) await Bun.sleep(10);
    scheduler.stop();
    expect(lines.slice(0, 2)).toEqual([
      "Backup left to another Engram process on this database",
      "Backup left to another Engram process on this database",
    ]);
    expect(listBackups(join(backupsDir, "backups"))).toEqual([]);
    rmSync(backupsDir, { recursive: true, force: true });
  });
});

describe("once per request id", () => {
  test("a repeat sent to another process while the first works gets the first one's answer; the work runs once", async () => {
    const onFirst = oncePerRequestId<{ noteId: number }>(first, "test-create");
    const onSecond = oncePerRequestId<{ noteId: number }>(second, "test-create");
    let runs = 0;
    let finish: (value: { noteId: number }) => void = () => {};
    const work = () => {
      runs++;
      return new Promise<{ noteId: number }>((resolve) => (finish = resolve));
    };
    const a = onFirst(7, "dialog-1", work);
    await Bun.sleep(5);
    const b = onSecond(7, "dialog-1", work);
    await Bun.sleep(120); // the repeat is waiting for the first one's answer
    finish({ noteId: 42 });
    expect(await a).toEqual({ noteId: 42 });
    expect(await b).toEqual({ noteId: 42 });
    expect(await onSecond(7, "dialog-1", work)).toEqual({ noteId: 42 });
    expect(runs).toBe(1);
    // Another user, or another id, is another request.
    expect(await onSecond(8, "dialog-1", async () => ({ noteId: 43 }))).toEqual({ noteId: 43 });
    expect(await onSecond(7, "dialog-2", async () => ({ noteId: 44 }))).toEqual({ noteId: 44 });
  });

  test("when the first request fails, a repeat does the work itself", async () => {
    const onFirst = oncePerRequestId<{ noteId: number }>(first, "test-fail");
    const onSecond = oncePerRequestId<{ noteId: number }>(second, "test-fail");
    await expect(
      onFirst(7, "dialog-1", async () => {
        throw new Error("no luck");
      }),
    ).rejects.toThrow("no luck");
    expect(await onSecond(7, "dialog-1", async () => ({ noteId: 5 }))).toEqual({ noteId: 5 });
  });
});
