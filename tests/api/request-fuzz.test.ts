/**
 * Property: no generated body (deep, wide, long, odd unicode, wrong types, not even JSON) makes a
 * body-taking route answer 5xx or take long, and the server keeps answering its healthcheck.
 * The routes come from the app itself, with ids filled by an existing note.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { injectNotes } from "../support/notes";
import { appRoutes, type HttpClient, type RouteInfo, resetTestData, useTestServer } from "../support/server";
import { sqlRow } from "../support/test-database";

const ANSWER_WITHIN_MS = 2000;
const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS ?? 30);

/** Routes that take a body, outside the test hooks and the sign-in forms (argon2 makes those slow, and they are tested on their own). */
function bodyRoutes(routes: RouteInfo[]) {
  return routes
    .filter((route) => ["POST", "PATCH", "PUT"].includes(route.method) && route.hooks?.body)
    .filter((route) => route.path.startsWith("/api/") && !route.path.startsWith("/api/testability/"))
    .map((route) => ({
      method: route.method,
      path: route.path,
      fields: Object.keys((route.hooks?.body as { properties?: Record<string, unknown> } | undefined)?.properties ?? {}),
    }));
}

const fill = (path: string, noteId: number) =>
  path.replace(/:(\w+)/g, (_, name: string) =>
    name === "asFirstChild" ? "false" : name === "name" ? "x.png" : name === "wikidataId" ? "Q1" : String(noteId),
  );

const oddString = fc.oneof(
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.constantFrom(
    "\u0000",
    "\u0000\u0000",
    " \u0007 ",
    "\ud800",
    "\udfff\ud800",
    "\u202e",
    "\ufeff",
    '"',
    "\\",
    "*",
    "NEAR(",
    "OR",
    "^",
    "-",
    ":",
    "title : x",
  ),
  fc.nat({ max: 300_000 }).map((n) => "x".repeat(n)),
);

const scalar = fc.oneof(
  oddString,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(-1, 0, 1.5, 2 ** 53, 1e308, "1", " 1", "0x1", "1e0"),
);

/** A value of any JSON shape, sometimes very deep or very wide. */
const value: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: scalar },
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 6 }) },
  { weight: 1, arbitrary: fc.integer({ min: 60, max: 5000 }).map((depth) => JSON.parse("[".repeat(depth) + "]".repeat(depth)) as unknown) },
  { weight: 1, arbitrary: fc.integer({ min: 100, max: 30_000 }).map((width) => Array.from({ length: width }, (_, i) => i)) },
);

/** A whole body: an object with the route's fields, any JSON value, or text that is not JSON. */
const bodyFor = (fields: string[]) =>
  fc.oneof(
    {
      weight: 4,
      arbitrary: fc
        .record(Object.fromEntries(fields.map((field) => [field, value])), { requiredKeys: [] })
        .map((body) => JSON.stringify(body)),
    },
    { weight: 2, arbitrary: value.map((body) => JSON.stringify(body) ?? "null") },
    {
      weight: 1,
      arbitrary: fc.integer({ min: 1, max: 200_000 }).map((depth) => `{"${fields[0] ?? "a"}":${"[".repeat(depth)}${"]".repeat(depth)}}`),
    },
    { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 200 }) },
  );

describe("generated bodies at every body-taking route", () => {
  const server = useTestServer({}, { resetBeforeEach: false });
  let learner: HttpClient;
  let noteId: number;
  let routes: ReturnType<typeof bodyRoutes>;

  beforeAll(async () => {
    await resetTestData(server);
    learner = await server.client().loginAs("old_learner");
    const ids = await injectNotes(learner, [
      { Title: "Fuzz", Details: "target" },
      { Title: "Child", "Parent Title": "Fuzz" },
    ]);
    noteId = ids.Child as number;
    routes = bodyRoutes(appRoutes(server.ctx));
  });

  test("the app has body-taking routes to try", () => {
    expect(routes.length).toBeGreaterThan(15);
    expect(routes.map((route) => route.path)).toContain("/api/text_content/:note/details");
  });

  test("never 5xx, always within the bound, and the healthcheck still answers", async () => {
    const failureReports = async () =>
      (await sqlRow<{ n: number }>(server, sql`SELECT CAST(count(*) AS integer) AS n FROM failure_reports`))!.n;
    const before = await failureReports();
    for (const route of routes) {
      await fc.assert(
        fc.asyncProperty(bodyFor(route.fields), fc.boolean(), async (body, signedIn) => {
          const started = performance.now();
          const response = await fetch(server.url + fill(route.path, noteId), {
            method: route.method,
            headers: {
              "content-type": "application/json",
              ...(signedIn ? { cookie: `engram_session=${learner.sessionCookie}` } : {}),
            },
            body,
          });
          const text = await response.text();
          const elapsed = performance.now() - started;
          // This server has no AI provider: a well-formed AI request is rightly told so (503), nothing else may be 5xx.
          const aiNotConfigured = response.status === 503 && text.includes("AI is not configured");
          if ((response.status >= 500 && !aiNotConfigured) || elapsed > ANSWER_WITHIN_MS) {
            throw new Error(`${route.method} ${route.path} answered ${response.status} after ${Math.round(elapsed)} ms`);
          }
        }),
        { numRuns: RUNS_PER_ROUTE },
      );
      const health = await fetch(`${server.url}/api/healthcheck`);
      expect(health.status).toBe(200);
    }
    expect(await failureReports()).toBe(before);
  }, 180_000);
});
