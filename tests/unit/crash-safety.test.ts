/**
 * Crash safety with a real server process: writes acknowledged before a `kill -9` are all there
 * after a restart on the same data folder, and the file passes SQLite's integrity check.
 */
import { Database } from "bun:sqlite";
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";

const root = join(import.meta.dir, "../..");
const folders: string[] = [];
const children: Subprocess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** Starts src/main.ts in test mode on a free port; answers the process and its base URL. */
async function startEngram(dataDir: string) {
  const child = Bun.spawn([process.execPath, "src/main.ts"], {
    cwd: root,
    env: { ...process.env, HOST: "127.0.0.1", PORT: "0", ENGRAM_MODE: "test", ENGRAM_DATA_DIR: dataDir, ENGRAM_BACKUP_INTERVAL: "0" },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  children.push(child);
  const reader = child.stdout.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const deadline = Date.now() + 20_000;
  for (;;) {
    const match = /running at (http:\/\/127\.0\.0\.1:\d+)/.exec(text);
    if (match) {
      reader.releaseLock();
      return { child, url: match[1]! };
    }
    if (Date.now() > deadline) throw new Error(`Engram did not start: ${text}`);
    const { done, value } = await reader.read();
    if (done) throw new Error(`Engram exited: ${text}${await new Response(child.stderr).text()}`);
    text += decoder.decode(value);
  }
}

const inject = (url: string, title: string) =>
  fetch(`${url}/api/testability/inject_notes`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ externalIdentifier: "old_learner", circleName: null, noteTestData: [{ Title: title }] }),
  });

test("kill -9 during writes: every acknowledged write survives the restart, and the file is sound", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "engram-crash-"));
  folders.push(dataDir);
  const first = await startEngram(dataDir);
  expect((await fetch(`${first.url}/api/testability/clean_db_and_reset_testability_settings`, { method: "POST" })).ok).toBe(true);

  // Four writers, each writing notes one after another; a 200 is an acknowledged write.
  const acknowledged: string[] = [];
  let crashed = false;
  const writer = async (name: string) => {
    for (let i = 0; !crashed; i++) {
      const title = `${name}-${i}`;
      try {
        if ((await inject(first.url, title)).ok) acknowledged.push(title);
      } catch {
        return; // the connection died with the server
      }
    }
  };
  const writers = ["a", "b", "c", "d"].map(writer);
  await Bun.sleep(1500);
  first.child.kill("SIGKILL");
  crashed = true;
  await Promise.all(writers);
  await first.child.exited;
  expect(acknowledged.length).toBeGreaterThan(20);

  // The restarted server answers; then it stops cleanly and the file is checked directly.
  const second = await startEngram(dataDir);
  expect((await fetch(`${second.url}/api/healthcheck`)).status).toBe(200);
  second.child.kill("SIGTERM");
  expect(await second.child.exited).toBe(0);

  const db = new Database(join(dataDir, "engram.db"), { readonly: true });
  try {
    expect(db.query<{ integrity_check: string }, []>("PRAGMA integrity_check").all()).toEqual([{ integrity_check: "ok" }]);
    const titles = new Set(
      db
        .query<{ title: string }, []>("SELECT title FROM notes")
        .all()
        .map((row) => row.title),
    );
    expect(acknowledged.filter((title) => !titles.has(title))).toEqual([]);
  } finally {
    db.close();
  }
}, 60_000);
