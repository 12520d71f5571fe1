/**
 * How a store is declared: its bodies are plain exported generator functions over a Session
 * (so other bodies can compose them with `yield*` inside one unit of work), and the store lists
 * which of them it offers, each as a `read` or a `write` unit:
 *
 *   export function* lockedFor(s: Session, key: string, now: number): Step<number> { ... }
 *   export function* record(s: Session, key: string, rule: LimitRule, now: number): Step<number> { ... }
 *   export const signInLimitsStore = defineStore({ lockedFor: read(lockedFor), record: write(record) });
 *   export type SignInLimitsStore = StoreOf<typeof signInLimitsStore>;
 *
 * The store's interface is derived: every method takes the body's arguments after the session and
 * answers a promise of the body's answer, one transaction per call.
 */
import type { Database } from "./database";
import type { Body } from "./session";

interface Method<A extends unknown[], R> {
  kind: "read" | "write";
  body: Body<A, R>;
}

// biome-ignore lint/suspicious/noExplicitAny: a store's methods have any arguments and answers
type AnyMethod = Method<any, any>;

/** A method that only reads: one read transaction (a consistent snapshot). */
export const read = <A extends unknown[], R>(body: Body<A, R>): Method<A, R> => ({ kind: "read", body });

/** A method that writes: one write transaction holding the write lock from its start. */
export const write = <A extends unknown[], R>(body: Body<A, R>): Method<A, R> => ({ kind: "write", body });

export type StoreOf<F> = F extends (database: Database) => infer S ? S : never;

type Methods<M extends Record<string, AnyMethod>> = {
  [K in keyof M]: M[K] extends Method<infer A, infer R> ? (...args: A) => Promise<R> : never;
};

/** A store's factory: given the app's Database, the store whose methods run its bodies as units of work. */
export function defineStore<M extends Record<string, AnyMethod>>(methods: M): (database: Database) => Methods<M> {
  return (database) => {
    const store: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
    for (const [name, method] of Object.entries(methods)) {
      store[name] =
        method.kind === "read"
          ? (...args) => database.read((s) => method.body(s, ...args))
          : (...args) => database.write((s) => method.body(s, ...args));
    }
    return store as Methods<M>;
  };
}
