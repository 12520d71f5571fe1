/**
 * Issue 16: the server keeps who a session belongs to and which notebooks a user may read in
 * memory (services/access-cache.ts) for as long as access_state's version holds. Any change to
 * what decides them, even one written straight into the database by another process, is seen by
 * the very next request.
 */
import { describe, expect, test } from "bun:test";
import { injectNotes } from "../support/notes";
import { useTestServer } from "../support/server";

describe("the access cache", () => {
  const server = useTestServer();
  const version = () => server.ctx.sqlite.query<{ version: number }, []>("SELECT version FROM access_state WHERE id = 1").get()!.version;
  const titlesFound = async (client: Awaited<ReturnType<ReturnType<typeof server.client>["loginAs"]>>, key: string) =>
    ((await client.post<{ noteTopology: { titleOrPredicate: string } }[]>("/api/notes/search", { searchKey: key, allMyNotebooksAndSubscriptions: true })).body)
      .map((hit) => hit.noteTopology.titleOrPredicate);

  test("a session deleted outside the server is refused on the next request", async () => {
    const learner = await server.client().loginAs("old_learner");
    expect((await learner.get("/api/user")).status).toBe(200);
    expect((await learner.get("/api/user")).status).toBe(200);
    server.ctx.sqlite.run("DELETE FROM sessions");
    expect((await learner.get("/api/user")).status).toBe(401);
  });

  test("an account disabled outside the server is refused, and a renamed user is seen, on the next request", async () => {
    const learner = await server.client().loginAs("old_learner");
    server.ctx.sqlite.run("UPDATE users SET name = 'Renamed Learner' WHERE name = 'Old Learner'");
    expect(JSON.stringify((await learner.get("/api/user")).body)).toContain("Renamed Learner");
    server.ctx.sqlite.run("UPDATE accounts SET disabled_at = 1 WHERE id = (SELECT account_id FROM users WHERE name = 'Renamed Learner')");
    expect((await learner.get("/api/user")).status).toBe(401);
  });

  test("a notebook given to someone else outside the server leaves the next search's scope; one created through the API enters it", async () => {
    const learner = await server.client().loginAs("old_learner");
    await injectNotes(learner, [{ Title: "Quasar facts" }]);
    expect(await titlesFound(learner, "quasar")).toEqual(["Quasar facts"]);
    server.ctx.sqlite.run("UPDATE notebooks SET creator_id = (SELECT id FROM users WHERE name <> 'Old Learner' LIMIT 1)");
    expect(await titlesFound(learner, "quasar")).toEqual([]);
    await injectNotes(learner, [{ Title: "Quasar again" }]);
    expect(await titlesFound(learner, "quasar")).toEqual(["Quasar again"]);
  });

  test("the version only grows, through every change that decides access and through the test reset", async () => {
    const before = version();
    const learner = await server.client().loginAs("old_learner");
    const afterSignIn = version();
    expect(afterSignIn).toBeGreaterThan(before);
    await injectNotes(learner, [{ Title: "Unrelated" }]);
    expect(version()).toBeGreaterThan(afterSignIn);
    const beforeNoteEdit = version();
    server.ctx.sqlite.run("UPDATE notes SET title = 'Still unrelated' WHERE title = 'Unrelated'");
    expect(version()).toBe(beforeNoteEdit);
    await server.client().post("/api/testability/clean_db_and_reset_testability_settings");
    expect(version()).toBeGreaterThan(beforeNoteEdit);
  });
});
