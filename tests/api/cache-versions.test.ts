/**
 * The server keeps who a session belongs to, which notebooks a user may read and every page's menu
 * badges in memory (services/cache-versions.ts) for as long as their versions in cache_versions
 * hold: per account, per user and per notebook. Any change to what they are made of, even one
 * written straight into the database by another process, is seen by the very next request; a
 * change to one learner's data leaves the others' versions alone.
 */
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { accounts, users } from "../../src/db/schema";
import { menuBadges } from "../../src/services/menu-badges";
import { assimilate, dayHour, travelTo } from "../support/learning";
import { injectNotes } from "../support/notes";
import { type TestServer, useTestServer } from "../support/server";

/** A scope's version (0 when nothing raised it yet). */
function versionOf(server: TestServer, scope: string, id: number): number {
  return (
    server.ctx.sqlite
      .query<{ version: number }, [string, number]>("SELECT version FROM cache_versions WHERE scope = ? AND id = ?")
      .get(scope, id)?.version ?? 0
  );
}
/** The user id and account id of a test profile. */
function idsOf(server: TestServer, externalIdentifier: string) {
  return server.ctx.sqlite
    .query<{ userId: number; accountId: number }, [string]>(
      "SELECT u.id AS userId, a.id AS accountId FROM accounts a JOIN users u ON u.account_id = a.id WHERE a.external_identifier = ?",
    )
    .get(externalIdentifier)!;
}

describe("the access cache", () => {
  const server = useTestServer();
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

  test("versions are per account and per user: one learner's sign-in or new notebook leaves the other's alone; they only grow", async () => {
    const me = idsOf(server, "old_learner");
    const other = idsOf(server, "another_old_learner");
    const mine = () => [versionOf(server, "account", me.accountId), versionOf(server, "user-access", me.userId)];
    const theirs = () => [versionOf(server, "account", other.accountId), versionOf(server, "user-access", other.userId)];
    const [myAccount, myAccess] = mine();
    const before = theirs();
    const learner = await server.client().loginAs("old_learner");
    expect(mine()[0]).toBeGreaterThan(myAccount!);
    await injectNotes(learner, [{ Title: "Unrelated" }]);
    expect(mine()[1]).toBeGreaterThan(myAccess!);
    expect(theirs()).toEqual(before);
    const beforeNoteEdit = mine();
    server.ctx.sqlite.run("UPDATE notes SET title = 'Still unrelated' WHERE title = 'Unrelated'");
    expect(mine()).toEqual(beforeNoteEdit);
    await server.client().post("/api/testability/clean_db_and_reset_testability_settings");
    expect(mine()[0]).toBeGreaterThan(beforeNoteEdit[0]!);
    expect(mine()[1]).toBeGreaterThan(beforeNoteEdit[1]!);
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
  const learningVersion = (externalIdentifier: string) => versionOf(server, "user-learning", idsOf(server, externalIdentifier).userId);

  test("an assimilation, a setting written outside the server and the next half-day are all counted at once", async () => {
    const learner = await server.client().loginAs("old_learner");
    await travelTo(learner, 1, 8);
    const ids = await injectNotes(learner, [
      { Title: "Birds" },
      ...["Robin", "Wren", "Finch"].map((Title) => ({ Title, "Parent Title": "Birds" })),
    ]);
    expect(await badges()).toEqual({ assimilate: 4, recall: 0, messages: 0 });
    expect(await badges()).toEqual({ assimilate: 4, recall: 0, messages: 0 });

    const othersBefore = learningVersion("another_old_learner");
    await assimilate(learner, ids.Robin!);
    expect((await badges()).assimilate).toBe(3);
    // Another learner's kept badges are not made of this learner's reviews.
    expect(learningVersion("another_old_learner")).toBe(othersBefore);
    // A note's text is not counted: editing it keeps the badges (and their versions).
    const notebookVersion = () =>
      versionOf(
        server,
        "notebook",
        server.ctx.sqlite.query<{ id: number }, [number]>("SELECT notebook_id AS id FROM notes WHERE id = ?").get(ids.Wren!)!.id,
      );
    const before = [learningVersion("old_learner"), notebookVersion()];
    expect((await learner.patch(`/api/text_content/${ids.Wren}/title`, { newTitle: "Winter wren" })).status).toBe(200);
    expect([learningVersion("old_learner"), notebookVersion()]).toEqual(before);
    expect((await badges()).assimilate).toBe(3);

    server.ctx.sqlite.run("UPDATE users SET daily_assimilation_count = 2 WHERE name = 'Old Learner'");
    expect((await badges()).assimilate).toBe(1);

    // Robin, assimilated on day 1, is to be recalled on day 2 at 10:00: counted from the half-day
    // that holds it, although nothing in the database changes when the clock gets there.
    expect((await badges()).recall).toBe(1);
    server.ctx.sqlite.run("UPDATE memory_trackers SET next_recall_at = ?", [Date.parse(dayHour(2, 10))]);
    expect((await badges()).recall).toBe(0);
    await travelTo(learner, 2, 8);
    expect((await badges()).recall).toBe(1);
  });

  test("a note added outside the server to a notebook I subscribe to is counted on my next page", async () => {
    const learner = await server.client().loginAs("old_learner");
    const owner = await server.client().loginAs("another_old_learner");
    await travelTo(owner, 1, 8);
    const ids = await injectNotes(owner, [{ Title: "Stars" }, { Title: "Vega", "Parent Title": "Stars" }]);
    const notebookId = server.ctx.sqlite
      .query<{ id: number }, [number]>("SELECT notebook_id AS id FROM notes WHERE id = ?")
      .get(ids.Stars!)!.id;
    server.ctx.sqlite.run("INSERT INTO bazaar_notebooks (notebook_id, created_at) VALUES (?, 0)", [notebookId]);
    expect((await learner.post(`/api/subscriptions/notebooks/${notebookId}/subscribe`, { dailyTargetOfNewNotes: 5 })).status).toBe(200);
    const counted = (await badges()).assimilate;
    server.ctx.sqlite.run(
      "INSERT INTO notes (notebook_id, parent_id, title, details, sibling_order, created_at, updated_at) VALUES (?, ?, 'Deneb', '', 99999, 0, 0)",
      [notebookId, ids.Stars],
    );
    expect((await badges()).assimilate).toBe(counted + 1);
  });

  test("a message from someone else is counted on the next page", async () => {
    const learner = await server.client().loginAs("old_learner");
    expect((await badges()).messages).toBe(0);
    const other = await server.client().loginAs("another_old_learner");
    const ids = await injectNotes(learner, [{ Title: "Shared thoughts" }]);
    server.ctx.sqlite.run("INSERT INTO bazaar_notebooks (notebook_id, created_at) SELECT notebook_id, 0 FROM notes WHERE id = ?", [
      ids["Shared thoughts"],
    ]);
    const started = await other.post(`/api/conversation/note/${ids["Shared thoughts"]}`, { message: "Hello there" });
    expect(started.status).toBe(200);
    expect((await badges()).messages).toBe(1);
  });
});
