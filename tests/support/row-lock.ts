/**
 * Requests of a race test made to overlap on PostgreSQL: the test holds a lock of one row, starts
 * each request in turn once the one before waits for that row, then lets go, so that each read
 * what it read before any of them wrote. On SQLite one process's units take turns already: the
 * requests just run at once.
 */
import type { PostgresDatabase } from "../../src/store/postgres-database";
import { untilLockWaiters } from "./lock-waiters";
import type { TestServer } from "./server";

/**
 * Runs `requests`, each of which writes `table`'s row `id` in the end: on PostgreSQL, started one
 * after another behind a lock of that row and let go together, in the order they queued.
 */
export async function queuedBehindRow<T>(server: TestServer, table: string, id: number, requests: (() => Promise<T>)[]): Promise<T[]> {
  if (server.ctx.database.dialect !== "postgres") return Promise.all(requests.map((request) => request()));
  const database = server.ctx.database as PostgresDatabase;
  let letGo = () => {};
  const released = new Promise<void>((resolve) => {
    letGo = resolve;
  });
  let locked = () => {};
  const held = new Promise<void>((resolve) => {
    locked = resolve;
  });
  const holding = database.client.begin(async (tx) => {
    await tx`SELECT id FROM ${tx(table)} WHERE id = ${id} FOR UPDATE`;
    locked();
    await released;
  });
  await held;
  const answers: Promise<T>[] = [];
  try {
    for (const [i, request] of requests.entries()) {
      answers.push(request());
      await untilLockWaiters(database, i + 1);
    }
  } finally {
    letGo();
    await holding;
  }
  return Promise.all(answers);
}
