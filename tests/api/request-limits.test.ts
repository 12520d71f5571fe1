import { describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { injectNotes } from "../support/notes";
import { type HttpClient, useTestServer } from "../support/server";
import { sqlRow } from "../support/test-database";

/** No request can stall or crash the server; one id rule; one text rule. */
describe("request limits", () => {
  const server = useTestServer();
  const failureReports = async () =>
    (await sqlRow<{ n: number }>(server, sql`SELECT CAST(count(*) AS integer) AS n FROM failure_reports`))!.n;

  async function learnerWithNote(): Promise<{ learner: HttpClient; id: number }> {
    const learner = await server.client().loginAs("old_learner");
    const ids = await injectNotes(learner, [{ Title: "Biology", Details: "before the cell" }]);
    return { learner, id: ids.Biology as number };
  }

  const raw = (path: string, body: BodyInit, headers: Record<string, string> = {}, method = "PATCH") =>
    fetch(server.url + path, { method, headers: { "content-type": "application/json", ...headers }, body });

  const nested = (depth: number) => "[".repeat(depth) + "]".repeat(depth);

  test("a body of 100,000 nested [ is 400 within milliseconds, signed out or in, and writes no failure report", async () => {
    const { learner, id } = await learnerWithNote();
    const before = await failureReports();
    for (const headers of [{}, { cookie: `engram_session=${learner.sessionCookie}` }] as Record<string, string>[]) {
      for (const body of [nested(100_000), `{"details":${nested(100_000)}}`]) {
        const started = performance.now();
        const response = await raw(`/api/text_content/${id}/details`, body, headers);
        const elapsed = performance.now() - started;
        expect(response.status).toBe(400);
        expect((await response.json()).message).toContain("nested deeper than 64");
        expect(elapsed).toBeLessThan(500);
      }
    }
    expect(await failureReports()).toBe(before);
  });

  test("four deep bodies in parallel do not hold other requests", async () => {
    const { id } = await learnerWithNote();
    const deep = Array.from({ length: 4 }, () => raw(`/api/text_content/${id}/details`, `{"details":${nested(150_000)}}`));
    const started = performance.now();
    const health = await fetch(`${server.url}/api/healthcheck`);
    expect(health.status).toBe(200);
    expect(performance.now() - started).toBeLessThan(1000);
    for (const response of await Promise.all(deep)) expect(response.status).toBe(400);
  });

  test("nesting up to 64 levels is read; brackets inside strings do not count", async () => {
    const { learner, id } = await learnerWithNote();
    const text = "[[[[ {{{{ ".repeat(100);
    const saved = await learner.patch(`/api/text_content/${id}/details`, { details: text });
    expect(saved.status).toBe(200);
    const ok = await raw(`/api/text_content/${id}/details`, `{"details":null,"extra":${nested(63)}}`, {
      cookie: `engram_session=${learner.sessionCookie}`,
    });
    expect(ok.status).toBe(200);
  });

  test("a body over its route's size is 413; details of 200,000 characters still save", async () => {
    const { learner, id } = await learnerWithNote();
    const before = await failureReports();
    const big = await learner.patch(`/api/text_content/${id}/title`, { newTitle: "x".repeat(100_000) });
    expect(big.status).toBe(413);
    const details = "é".repeat(200_000);
    const saved = await learner.patch(`/api/text_content/${id}/details`, { details });
    expect(saved.status).toBe(200);
    expect(saved.text.includes(details)).toBe(true);
    const tooWide = await learner.post("/api/notes/search", { searchKey: "cell", junk: Array.from({ length: 20_000 }, () => 0) });
    expect([400, 413]).toContain(tooWide.status);
    expect(await failureReports()).toBe(before);
  });

  test("a multipart body with too many fields is 400; dotted names are not expanded into deep objects", async () => {
    const { learner, id } = await learnerWithNote();
    const many = new FormData();
    for (let i = 0; i < 500; i++) many.append(`f${i}`, "x");
    const cookie = `engram_session=${learner.sessionCookie}`;
    const response = await fetch(`${server.url}/api/notes/${id}`, { method: "PATCH", headers: { cookie }, body: many });
    expect(response.status).toBe(400);
    const dotted = new FormData();
    dotted.append(`${"a.".repeat(20_000)}b`, "x");
    dotted.append("url", "https://example.org/\u0000cell");
    const answer = await fetch(`${server.url}/api/notes/${id}`, { method: "PATCH", headers: { cookie }, body: dotted });
    expect(answer.status).toBeLessThan(500);
  });

  test("a value whose toString is not a function is a 400, not a dropped connection", async () => {
    const { learner, id } = await learnerWithNote();
    const result = await learner.post(`/api/notes/${id}/updateWikidataId`, { wikidataId: { toString: 0, valueOf: 0 } });
    expect(result.status).toBe(400);
  });

  test("a query string over 4096 characters is refused", async () => {
    const { learner, id } = await learnerWithNote();
    const result = await learner.get(`/api/notes/${id}/graph?tokenLimit=1&x=${"a".repeat(5000)}`);
    expect(result.status).toBe(414);
  });

  test("a NUL in a search key answers 200, not 500", async () => {
    const { learner } = await learnerWithNote();
    for (const searchKey of ["before\u0000", "\u0000", "cell\u0000 the", '"before" OR NEAR(', "*"]) {
      const result = await learner.post("/api/notes/search", { searchKey, allMyNotebooksAndSubscriptions: true });
      expect(result.status).toBe(200);
    }
    const found = await learner.post("/api/notes/search", { searchKey: "bef\u0000ore", allMyNotebooksAndSubscriptions: true });
    expect(found.body.map((r: { noteTopology: { titleOrPredicate: string } }) => r.noteTopology.titleOrPredicate)).toEqual(["Biology"]);
  });

  test("a title made only of control characters is blank; control characters are removed from titles", async () => {
    const { learner, id } = await learnerWithNote();
    const blank = await learner.patch(`/api/text_content/${id}/title`, { newTitle: "\u0000\u0000\u0001 \u007f" });
    expect(blank.status).toBe(400);
    expect(blank.body.errors).toEqual({ newTitle: "size must be between 1 and 150" });
    const notebook = await learner.post("/api/notebooks/create", { newTitle: "\u0000\u0000" });
    expect(notebook.status).toBe(400);
    const saved = await learner.patch(`/api/text_content/${id}/title`, { newTitle: "Cell\u0000 biology" });
    expect(saved.status).toBe(200);
    expect((await learner.get(`/api/notes/${id}`)).body.note.noteTopology.titleOrPredicate).toBe("Cell biology");
  });

  test("ids are positive decimal integers: 0x1, ' 1', 1e0, -1, 1.5, 01, +1 and huge ids never reach a note", async () => {
    const { learner, id } = await learnerWithNote();
    expect(id).toBe(1);
    expect((await learner.get(`/api/notes/${id}`)).status).toBe(200);
    for (const bad of ["0x1", "%201", "1%20", "1e0", "-1", "1.5", "01", "+1", "0", "99999999999999999999", "9007199254740993"]) {
      const result = await learner.get(`/api/notes/${bad}`);
      expect([400, 404]).toContain(result.status);
      const page = await learner.get(`/n${bad}`);
      expect(page.status).toBe(404);
    }
    const move = await learner.post(`/api/notes/move_after/0x1/${id}/false`);
    expect(move.status).toBe(400);
    for (const noteId of [-1, 0, 1.5, " 1", "0x1", "1e0", 2 ** 60]) {
      const assimilate = await learner.post("/api/assimilation", { noteId });
      expect([noteId, assimilate.status]).toEqual([noteId, 400]);
    }
  });

  test("a double-submitted create notebook with one request id makes one notebook", async () => {
    const learner = await server.client().loginAs("old_learner");
    const count = async () => (await learner.get("/api/notebooks")).body.notebooks.length as number;
    const before = await count();
    const [first, second] = await Promise.all([
      learner.post("/api/notebooks/create", { newTitle: "Spanish", requestId: "dialog-1" }),
      learner.post("/api/notebooks/create", { newTitle: "Spanish", requestId: "dialog-1" }),
    ]);
    expect(first.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(await count()).toBe(before + 1);
    const other = await learner.post("/api/notebooks/create", { newTitle: "Spanish", requestId: "dialog-2" });
    expect(other.body.noteId).not.toBe(first.body.noteId);
    expect(await count()).toBe(before + 2);
  });
});
