/**
 * Real Engram server processes (src/main.ts, as `npm start` runs it) on one database, for tests
 * of what must hold across processes. The database is a parameter: today a SQLite file in a temp
 * data folder shared by the processes; a PostgreSQL database is another `DatabaseUnderTest`.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildClient } from "../../scripts/build-client";
import { freshPostgresDatabase, postgresTestUrl } from "./database-under-test";
import { HttpClient } from "./server";

const root = join(import.meta.dir, "../..");

export interface DatabaseUnderTest {
  name: string;
  /** What every process's environment needs to use this database. */
  env: Record<string, string>;
  dispose(): void | Promise<void>;
}

/** A fresh SQLite database: a temp data folder the processes share (WAL lets them write to one file). */
export function sqliteDatabaseUnderTest(): DatabaseUnderTest {
  const dataDir = mkdtempSync(join(tmpdir(), "engram-processes-"));
  return { name: "SQLite", env: { ENGRAM_DATA_DIR: dataDir }, dispose: () => rmSync(dataDir, { recursive: true, force: true }) };
}

/**
 * A fresh PostgreSQL database on the test server (ENGRAM_TEST_DATABASE_URL, set by
 * `npm run test:postgres`), created empty and dropped by dispose; the processes also share a temp
 * data folder (for what is not in the database). Engram migrates it when the first process starts.
 */
export async function postgresDatabaseUnderTest(serverUrl = postgresTestUrl()): Promise<DatabaseUnderTest> {
  if (!serverUrl) throw new Error("ENGRAM_TEST_DATABASE_URL is not set: run the PostgreSQL tests with npm run test:postgres");
  const fresh = await freshPostgresDatabase(serverUrl);
  const dataDir = mkdtempSync(join(tmpdir(), "engram-processes-"));
  return {
    name: "PostgreSQL",
    env: { ENGRAM_DATABASE_URL: fresh.url, ENGRAM_DATA_DIR: dataDir },
    async dispose() {
      await fresh.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The databases the several-processes tests run on: SQLite, and PostgreSQL under `npm run test:postgres`. */
export function databasesUnderTest(): [string, () => DatabaseUnderTest | Promise<DatabaseUnderTest>][] {
  const databases: [string, () => DatabaseUnderTest | Promise<DatabaseUnderTest>][] = [["SQLite", sqliteDatabaseUnderTest]];
  if (postgresTestUrl()) databases.push(["PostgreSQL", () => postgresDatabaseUnderTest()]);
  return databases;
}

export interface EngramProcess {
  name: string;
  url: string;
  /** A client with its own cookie jar. */
  client(): HttpClient;
  /** A client sharing another's session cookie (the same browser reaching this process). */
  clientLike(other: HttpClient): HttpClient;
  /** Every line the process printed so far. */
  lines: string[];
  stop(): Promise<void>;
}

async function startOne(name: string, env: Record<string, string>): Promise<EngramProcess> {
  const child = Bun.spawn([process.execPath, "src/main.ts"], {
    cwd: root,
    env: { ...process.env, HOST: "127.0.0.1", PORT: "0", ENGRAM_MODE: "test", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const lines: string[] = [];
  const collect = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    let rest = "";
    const reader = stream.getReader();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      rest += decoder.decode(chunk.value, { stream: true });
      const parts = rest.split("\n");
      rest = parts.pop()!;
      lines.push(...parts);
    }
  };
  void collect(child.stdout);
  void collect(child.stderr);
  let url: string | undefined;
  for (const deadline = Date.now() + 30_000; !url && Date.now() < deadline; await Bun.sleep(20)) {
    url = lines.map((line) => /running at (http:\/\/\S+)/.exec(line)?.[1]).find(Boolean);
    if (child.exitCode !== null) break;
  }
  if (!url) {
    child.kill();
    await Bun.sleep(100); // the last lines of a process that stopped
    throw new Error(`Engram process ${name} did not start (exit ${child.exitCode}, ${child.signalCode}):\n${lines.join("\n")}`);
  }
  const base = url.replace("localhost", "127.0.0.1");
  return {
    name,
    url: base,
    lines,
    client: () => new HttpClient(base),
    clientLike: (other) => new HttpClient(base).withCookies(other),
    async stop() {
      child.kill("SIGTERM");
      const exited = await Promise.race([child.exited, Bun.sleep(15_000).then(() => undefined)]);
      if (exited === undefined) child.kill("SIGKILL");
    },
  };
}

/**
 * Starts `count` Engram processes on the database, at once (they migrate it once between them),
 * and answers them once all serve. Extra environment (an AI provider, a backup interval) is shared.
 */
export async function startEngramProcesses(database: DatabaseUnderTest, count: number, env: Record<string, string> = {}) {
  if (!existsSync(join(root, "build/client/manifest.json"))) await buildClient();
  return Promise.all(Array.from({ length: count }, (_, i) => startOne(String.fromCharCode(65 + i), { ...database.env, ...env })));
}
