import type { TSchema } from "elysia";

const KIND = Symbol.for("TypeBox.Kind");

/** A route as the app's route table lists it (Elysia's own type grows too deep to name here). */
interface RouteWithResponse {
  hooks?: { response?: unknown };
}

/**
 * Stops Elysia from checking each answer against its route's response schema, for the whole
 * process. The schemas stay (they type the client and write the OpenAPI document) and still shape
 * what is sent (fields they do not name are left out); only the check that the answer matches them
 * is skipped, through the `noValidate` mark Elysia reads when it compiles a route's handler.
 *
 * The schemas are module constants shared by every app the process builds, so the mark is a
 * decision for the process, made by src/main.ts before it listens (ENGRAM_CHECK_RESPONSES); an app
 * built by a test is never marked, so tests catch a presenter that drifts from its schema.
 */
export function skipResponseChecks(routes: RouteWithResponse[]): number {
  let marked = 0;
  for (const route of routes) {
    const response = route.hooks?.response;
    if (!response || typeof response !== "object") continue;
    const schemas = (KIND in response ? [response] : Object.values(response)) as (TSchema & { noValidate?: boolean })[];
    for (const schema of schemas) {
      if (schema.noValidate) continue;
      schema.noValidate = true;
      marked++;
    }
  }
  return marked;
}
