/**
 * Drives a store body (session.ts). On SQLite the whole body runs synchronously, inside one
 * transaction: a body that yields a promise there is a bug (an await inside a SQLite transaction
 * is not rolled back with it), so it is refused. On PostgreSQL each yielded promise is awaited and
 * its value handed back to the body.
 */
import { DrizzleQueryError } from "drizzle-orm";
import type { Step } from "./session";

/**
 * The database's own error (a PostgreSQL error with its code, a trigger's message) rather than
 * drizzle's wrapper, as SQLite's driver throws it: bodies and services see the same kind of error
 * on both databases. The failed query stays on it, for the log.
 */
export function databaseError(error: unknown): unknown {
  if (!(error instanceof DrizzleQueryError) || !(error.cause instanceof Error)) return error;
  return Object.assign(error.cause, { query: error.query });
}

export function runSync<T>(step: Step<T>): T {
  let next = step.next();
  while (!next.done) {
    const value = next.value;
    if (value !== null && typeof value === "object" && typeof (value as { then?: unknown }).then === "function") {
      const refused = new Error("A store body yielded a promise on SQLite: a SQLite unit of work must be synchronous");
      step.throw(refused);
      throw refused;
    }
    next = step.next(value);
  }
  return next.value;
}

export async function runAsync<T>(step: Step<T>): Promise<T> {
  let next = step.next();
  while (!next.done) {
    let value: unknown;
    try {
      value = await next.value;
    } catch (error) {
      // The body may catch a failed query (a unique violation it expects, say).
      next = step.throw(databaseError(error));
      continue;
    }
    next = step.next(value);
  }
  return next.value;
}
