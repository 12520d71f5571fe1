import { describe, expect, test } from "bun:test";
import { Elysia, t } from "elysia";
import { skipResponseChecks } from "../../src/api/response-checks";

/** An app whose one route answers a number where its schema says a string (a drifted presenter). */
function driftingApp() {
  return new Elysia()
    .get("/single", () => ({ name: 1 }) as unknown as { name: string }, { response: t.Object({ name: t.String() }) })
    .get("/by-status", () => ({ name: 1, extra: "x" }) as unknown as { name: string }, {
      response: { 200: t.Object({ name: t.String() }), 404: t.Object({ message: t.String() }) },
    });
}

describe("skipping the response check", () => {
  test("a checked app refuses an answer that does not match its schema", async () => {
    const app = driftingApp();
    const answer = await app.handle(new Request("http://engram.test/single"));
    expect(answer.status).not.toBe(200);
  });

  test("once skipped, the answer goes out unchecked, still shaped by the schema", async () => {
    const app = driftingApp();
    expect(skipResponseChecks(app.routes)).toBe(3);
    const single = await app.handle(new Request("http://engram.test/single"));
    expect(single.status).toBe(200);
    expect(await single.json()).toEqual({ name: 1 });
    const byStatus = await app.handle(new Request("http://engram.test/by-status"));
    expect(byStatus.status).toBe(200);
    expect(Object.keys(await byStatus.json())).toEqual(["name"]);
    expect(skipResponseChecks(app.routes)).toBe(0);
  });
});
