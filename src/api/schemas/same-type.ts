import type { Static, TSchema } from "elysia";

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/**
 * Compiles only when a response schema describes exactly the presenter's type (each assignable to
 * the other), so the schema and the service that fills it cannot drift apart. Answers the schema.
 */
export function describes<Json>() {
  return <S extends TSchema>(schema: S, ..._check: Same<Static<S>, Json> extends true ? [] : [mismatch: Static<S>]) => schema;
}
