/**
 * Engram's own OpenAPI document (/api/openapi.json), generated from the routes' schemas, compared
 * with the reference's contract (tests/fixtures/reference-contract.yaml) on the operations both
 * have: path parameter names, body and answer fields, their types and whether they are required.
 * The only differences allowed are those listed, with reasons, in openapi-differences.ts.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { differences, type OpenApi, operations } from "../support/openapi-compare";
import { useTestServer } from "../support/server";
import { INTENDED_DIFFERENCES, matches, NOT_IN_ENGRAM } from "./openapi-differences";

const reference = Bun.YAML.parse(await Bun.file(join(import.meta.dir, "../fixtures/reference-contract.yaml")).text()) as OpenApi;

describe("Engram's OpenAPI document", () => {
  const server = useTestServer({}, { resetBeforeEach: false });
  const ours = async () => (await server.client().get("/api/openapi.json")).body as OpenApi;

  test("is served to anyone at /api/openapi.json and describes every /api route with its access", async () => {
    const result = await server.client().get("/api/openapi.json");
    expect(result.status).toBe(200);
    const document = result.body as OpenApi & { openapi: string };
    expect(document.openapi).toStartWith("3.");
    const described = operations(document);
    expect(described.size).toBeGreaterThan(150);
    for (const { operation } of described.values())
      expect(["public", "account", "signed-in", "admin"]).toContain(String(operation["x-engram-access"]));
    expect(described.get("GET /api/notes/{}")?.operation.responses).toBeDefined();
  });

  test("differs from the reference's contract only where openapi-differences.ts says why", async () => {
    const { shared, differences: found } = differences(reference, await ours());
    expect(shared.length).toBeGreaterThan(120);
    const unexplained = found.filter((line) => !Object.keys(INTENDED_DIFFERENCES).some((pattern) => matches(pattern, line)));
    expect(unexplained).toEqual([]);
    const stale = Object.keys(INTENDED_DIFFERENCES).filter((pattern) => !found.some((line) => matches(pattern, line)));
    expect(stale).toEqual([]);
  });

  test("has every operation of the reference but those listed as not in Engram", async () => {
    const mine = operations(await ours());
    const missing = [...operations(reference).keys()].filter((key) => !mine.has(key)).sort();
    expect(missing).toEqual(Object.keys(NOT_IN_ENGRAM).sort());
  });

  test("the comparison finds a renamed field, a changed type and a field made optional", () => {
    const doc = (schema: object): OpenApi => ({
      paths: { "/api/x/{id}": { get: { responses: { "200": { content: { "application/json": { schema } } } } } } },
    });
    const theirs = doc({
      type: "object",
      required: ["a", "b"],
      properties: { a: { type: "string" }, b: { type: "integer" }, c: { type: "boolean" } },
    });
    const mine = doc({
      type: "object",
      required: ["a"],
      properties: { a: { type: "integer" }, b: { type: "integer" }, d: { type: "boolean" } },
    });
    expect(differences(theirs, mine).differences).toEqual([
      "GET /api/x/{} 200.a: number here, string in the reference",
      "GET /api/x/{} 200.b: optional here, required in the reference",
      "GET /api/x/{} 200.c: missing",
      "GET /api/x/{} 200.d: added",
    ]);
  });
});
