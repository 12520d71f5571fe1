/**
 * The server keeps who a session belongs to, which notebooks a user may read and every page's menu
 * badges in memory (services/cache-versions.ts) for as long as their versions in cache_versions
 * hold: per account, per user and per notebook. Any change to what they are made of, even one
 * written straight into the database by another process, is seen by the very next request; a
 * change to one learner's data leaves the others' versions alone.
 */
import { describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { menuBadges } from "../../src/services/menu-badges";
import type { CacheScope } from "../../src/store/cache-versions/cache-versions-store";
import { assimilate, dayHour, travelTo } from "../support/learning";
import { injectNotes } from "../support/notes";
import { type TestServer, useTestServer } from "../support/server";
import { at, sqlRow, sqlRun } from "../support/test-database";

/** A scope's version (0 when nothing raised it yet). */
function versionOf(server: TestServer, scope: CacheScope, id: number): Promise<number> {
  return server.ctx.stores.cacheVersions.version(scope, id);
}
/** The user id and account id of a test profile. */
async function idsOf(server: TestServer, externalIdentifier: string) {
  return (await sqlRow<{ user_id: number; account_id: number }>(
    server,
    sql`SELECT u.id AS user_id, a.id AS account_id FROM accounts a JOIN users u ON u.account_id = a.id WHERE a.external_identifier = ${externalIdentifier}`,
  ))!;
}
/** The notebook a note is in. */
async function notebookOf(server: TestServer, noteId: number) {
  return (await sqlRow<{ id: number }>(server, sql`SELECT notebook_id AS id FROM notes WHERE id = ${noteId}`))!.id;
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
    await sqlRun(server, sql`DELETE FROM sessions`);
    expect((await learner.get("/api/user")).status).toBe(401);
  });

  test("an account disabled outside the server is refused, and a renamed user is seen, on the next request", async () => {
    const learner = await server.client().loginAs("old_learner");
    await sqlRun(server, sql`UPDATE users SET name = 'Renamed Learner' WHERE name = 'Old Learner'`);
    expect(JSON.stringify((await learner.get("/api/user")).body)).toContain("Renamed Learner");
    await sqlRun(
      server,
      sql`UPDATE accounts SET disabled_at = ${at(server, 1)} WHERE id = (SELECT account_id FROM users WHERE name = 'Renamed Learner')`,
    );
    expect((await learner.get("/api/user")).status).toBe(401);
  });

  test("a notebook given to someone else outside the server leaves the next search's scope; one created through the API enters it", async () => {
    const learner = await server.client().loginAs("old_learner");
    await injectNotes(learner, [{ Title: "Quasar facts" }]);
    expect(await titlesFound(learner, "quasar")).toEqual(["Quasar facts"]);
    await sqlRun(server, sql`UPDATE notebooks SET creator_id = (SELECT id FROM users WHERE name <> 'Old Learner' LIMIT 1)`);
    expect(await titlesFound(learner, "quasar")).toEqual([]);
    await injectNotes(learner, [{ Title: "Quasar again" }]);
    expect(await titlesFound(learner, "quasar")).toEqual(["Quasar again"]);
  });

  test("versions are per account and per user: one learner's sign-in or new notebook leaves the other's alone; they only grow", async () => {
    const me = await idsOf(server, "old_learner");
    const other = await idsOf(server, "another_old_learner");
    const mine = async () => [await versionOf(server, "account", me.account_id), await versionOf(server, "user-access", me.user_id)];
    const theirs = async () => [
      await versionOf(server, "account", other.account_id),
      await versionOf(server, "user-access", other.user_id),
    ];
    const [myAccount, myAccess] = await mine();
    const before = await theirs();
    const learner = await server.client().loginAs("old_learner");
    expect((await mine())[0]).toBeGreaterThan(myAccount!);
    await injectNotes(learner, [{ Title: "Unrelated" }]);
    expect((await mine())[1]).toBeGreaterThan(myAccess!);
    expect(await theirs()).toEqual(before);
    const beforeNoteEdit = await mine();
    await sqlRun(server, sql`UPDATE notes SET title = 'Still unrelated' WHERE title = 'Unrelated'`);
    expect(await mine()).toEqual(beforeNoteEdit);
    await server.client().post("/api/testability/clean_db_and_reset_testability_settings");
    expect((await mine())[0]).toBeGreaterThan(beforeNoteEdit[0]!);
    expect((await mine())[1]).toBeGreaterThan(beforeNoteEdit[1]!);
  });
});

describe("the menu badges cache", () => {
  const server = useTestServer();
  /** The signed-in user as a request sees them (settings included), read afresh. */
  const current = async (externalIdentifier: string) => {
    const account = (await server.ctx.stores.accounts.byLogin(externalIdentifier))!;
    return { account, user: (await server.ctx.stores.users.byAccount(account.id))! };
  };
  const badges = async () => menuBadges(server.ctx, await current("old_learner"), "UTC");
  const learningVersion = async (externalIdentifier: string) =>
    versionOf(server, "user-learning", (await idsOf(server, externalIdentifier)).user_id);

  test("an assimilation, a setting written outside the server and the next half-day are all counted at once", async () => {
    const learner = await server.client().loginAs("old_learner");
    await travelTo(learner, 1, 8);
    const ids = await injectNotes(learner, [
      { Title: "Birds" },
      ...["Robin", "Wren", "Finch"].map((Title) => ({ Title, "Parent Title": "Birds" })),
    ]);
    expect(await badges()).toEqual({ assimilate: 4, recall: 0, messages: 0 });
    expect(await badges()).toEqual({ assimilate: 4, recall: 0, messages: 0 });

    const othersBefore = await learningVersion("another_old_learner");
    await assimilate(learner, ids.Robin!);
    expect((await badges()).assimilate).toBe(3);
    // Another learner's kept badges are not made of this learner's reviews.
    expect(await learningVersion("another_old_learner")).toBe(othersBefore);
    // A note's text is not counted: editing it keeps the badges (and their versions).
    const notebookVersion = async () => versionOf(server, "notebook", await notebookOf(server, ids.Wren!));
    const before = [await learningVersion("old_learner"), await notebookVersion()];
    expect((await learner.patch(`/api/text_content/${ids.Wren}/title`, { newTitle: "Winter wren" })).status).toBe(200);
    expect([await learningVersion("old_learner"), await notebookVersion()]).toEqual(before);
    expect((await badges()).assimilate).toBe(3);

    await sqlRun(server, sql`UPDATE users SET daily_assimilation_count = 2 WHERE name = 'Old Learner'`);
    expect((await badges()).assimilate).toBe(1);

    // Robin, assimilated on day 1, is to be recalled on day 2 at 10:00: counted from the half-day
    // that holds it, although nothing in the database changes when the clock gets there.
    expect((await badges()).recall).toBe(1);
    await sqlRun(server, sql`UPDATE memory_trackers SET next_recall_at = ${at(server, dayHour(2, 10))}`);
    expect((await badges()).recall).toBe(0);
    await travelTo(learner, 2, 8);
    expect((await badges()).recall).toBe(1);
  });

  test("a note added outside the server to a notebook I subscribe to is counted on my next page", async () => {
    const learner = await server.client().loginAs("old_learner");
    const owner = await server.client().loginAs("another_old_learner");
    await travelTo(owner, 1, 8);
    const ids = await injectNotes(owner, [{ Title: "Stars" }, { Title: "Vega", "Parent Title": "Stars" }]);
    const notebookId = await notebookOf(server, ids.Stars!);
    await sqlRun(server, sql`INSERT INTO bazaar_notebooks (notebook_id, created_at) VALUES (${notebookId}, ${at(server, 0)})`);
    expect((await learner.post(`/api/subscriptions/notebooks/${notebookId}/subscribe`, { dailyTargetOfNewNotes: 5 })).status).toBe(200);
    const counted = (await badges()).assimilate;
    await sqlRun(
      server,
      sql`INSERT INTO notes (notebook_id, parent_id, title, details, sibling_order, created_at, updated_at)
          VALUES (${notebookId}, ${ids.Stars!}, 'Deneb', '', 99999, ${at(server, 0)}, ${at(server, 0)})`,
    );
    expect((await badges()).assimilate).toBe(counted + 1);
  });

  test("a message from someone else is counted on the next page", async () => {
    const learner = await server.client().loginAs("old_learner");
    expect((await badges()).messages).toBe(0);
    const other = await server.client().loginAs("another_old_learner");
    const ids = await injectNotes(learner, [{ Title: "Shared thoughts" }]);
    await sqlRun(
      server,
      sql`INSERT INTO bazaar_notebooks (notebook_id, created_at) SELECT notebook_id, ${at(server, 0)} FROM notes WHERE id = ${ids["Shared thoughts"]!}`,
    );
    const started = await other.post(`/api/conversation/note/${ids["Shared thoughts"]}`, { message: "Hello there" });
    expect(started.status).toBe(200);
    expect((await badges()).messages).toBe(1);
  });
});
