/**
 * The server keeps who a session belongs to, which notebooks a user may read and every
 * page's menu badges in memory (services/cache-versions.ts) for as long as their version in
 * cache_versions holds. Any change to what they are made of, even one written straight into the
 * database by another process, is seen by the very next request.
 */
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { accounts, users } from "../../src/db/schema";
import { menuBadges } from "../../src/services/menu-badges";
import { assimilate, dayHour, travelTo } from "../support/learning";
import { injectNotes } from "../support/notes";
import { useTestServer } from "../support/server";

describe("the access cache", () => {
  const server = useTestServer();
  const version = () =>
    server.ctx.sqlite.query<{ version: number }, []>("SELECT version FROM cache_versions WHERE name = 'access'").get()!.version;
  const titlesFound = async (client: Awaited<ReturnType<ReturnType<typeof server.client>["loginAs"]>>, key: string) =>
    (
      await client.post<{ noteTopology: { titleOrPredicate: string } }[]>("/api/notes/search", {
        searchKey: key,
        allMyNotebooksAndSubscriptions: true,
      })
    ).body.map((hit) => hit.noteTopology.titleOrPredicate);

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

describe("the menu badges cache", () => {
  const server = useTestServer();
  /** The signed-in user as a request sees them (settings included), read afresh. */
  const current = (externalIdentifier: string) => {
    const account = server.ctx.db.select().from(accounts).where(eq(accounts.externalIdentifier, externalIdentifier)).get()!;
    return { account, user: server.ctx.db.select().from(users).where(eq(users.accountId, account.id)).get()! };
  };
  const badges = () => menuBadges(server.ctx, current("old_learner"), "UTC");

  test("an assimilation, a setting written outside the server and the next half-day are all counted at once", async () => {
    const learner = await server.client().loginAs("old_learner");
    await travelTo(learner, 1, 8);
    const ids = await injectNotes(learner, [
      { Title: "Birds" },
      ...["Robin", "Wren", "Finch"].map((Title) => ({ Title, "Parent Title": "Birds" })),
    ]);
    expect(badges()).toEqual({ assimilate: 4, recall: 0, messages: 0 });
    expect(badges()).toEqual({ assimilate: 4, recall: 0, messages: 0 });

    await assimilate(learner, ids.Robin!);
    expect(badges().assimilate).toBe(3);
    // A note's text is not counted: editing it keeps the badges (and their version).
    const learning = () =>
      server.ctx.sqlite.query<{ version: number }, []>("SELECT version FROM cache_versions WHERE name = 'learning'").get()!.version;
    const before = learning();
    expect((await learner.patch(`/api/text_content/${ids.Wren}/title`, { newTitle: "Winter wren" })).status).toBe(200);
    expect(learning()).toBe(before);
    expect(badges().assimilate).toBe(3);

    server.ctx.sqlite.run("UPDATE users SET daily_assimilation_count = 2 WHERE name = 'Old Learner'");
    expect(badges().assimilate).toBe(1);

    // Robin, assimilated on day 1, is to be recalled on day 2 at 10:00: counted from the half-day
    // that holds it, although nothing in the database changes when the clock gets there.
    expect(badges().recall).toBe(1);
    server.ctx.sqlite.run("UPDATE memory_trackers SET next_recall_at = ?", [Date.parse(dayHour(2, 10))]);
    expect(badges().recall).toBe(0);
    await travelTo(learner, 2, 8);
    expect(badges().recall).toBe(1);
  });

  test("a message from someone else is counted on the next page", async () => {
    const learner = await server.client().loginAs("old_learner");
    expect(badges().messages).toBe(0);
    const other = await server.client().loginAs("another_old_learner");
    const ids = await injectNotes(learner, [{ Title: "Shared thoughts" }]);
    server.ctx.sqlite.run("INSERT INTO bazaar_notebooks (notebook_id, created_at) SELECT notebook_id, 0 FROM notes WHERE id = ?", [
      ids["Shared thoughts"],
    ]);
    const started = await other.post(`/api/conversation/note/${ids["Shared thoughts"]}`, { message: "Hello there" });
    expect(started.status).toBe(200);
    expect(badges().messages).toBe(1);
  });
});
