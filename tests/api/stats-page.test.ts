/**
 * Issue 17, the figures only the /d/stats page shows: retention per notebook (summed per notebook
 * before the notebooks are looked up) and the most failed notes; never another user's reviews.
 */
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { accounts, users } from "../../src/db/schema";
import { statsPage } from "../../src/services/stats/stats";
import { assimilate, travelTo } from "../support/learning";
import { injectNotes } from "../support/notes";
import { type HttpClient, type TestServer, useTestServer } from "../support/server";

function currentUser(server: TestServer, identity: string) {
  const account = server.ctx.db.select().from(accounts).where(eq(accounts.externalIdentifier, identity)).get()!;
  const user = server.ctx.db.select().from(users).where(eq(users.accountId, account.id)).get()!;
  return { account, user };
}

async function repeat(client: HttpClient, trackerId: number, outcomes: boolean[]) {
  for (const successful of outcomes) {
    expect((await client.patch(`/api/memory-trackers/${trackerId}/mark-as-repeated?successful=${successful}`)).status).toBe(200);
  }
}

describe("the statistics page's figures (issue 17)", () => {
  const server = useTestServer();

  test("retention by notebook, most reviewed first, and the most failed notes, never another user's reviews", async () => {
    const learner = await server.client().loginAs("old_learner");
    const other = await server.client().loginAs("another_old_learner");
    await travelTo(learner, 0, 8);
    const ids = await injectNotes(learner, [
      { Title: "Rivers" }, { Title: "Nile", "Parent Title": "Rivers" }, { Title: "Amazon", "Parent Title": "Rivers" },
      { Title: "Cooking" }, { Title: "Bread", "Parent Title": "Cooking" },
      { Title: "Unused" }, { Title: "Nothing", "Parent Title": "Unused" },
    ]);
    const theirs = await injectNotes(other, [{ Title: "Theirs" }, { Title: "Moon", "Parent Title": "Theirs" }]);
    const [nile] = await assimilate(learner, ids.Nile!);
    const [amazon] = await assimilate(learner, ids.Amazon!);
    const [bread] = await assimilate(learner, ids.Bread!);
    const [moon] = await assimilate(other, theirs.Moon!);
    await repeat(learner, nile!.id, [true, false]);
    await repeat(learner, amazon!.id, [false, false, true]);
    await repeat(learner, bread!.id, [false]);
    await repeat(other, moon!.id, [false, false, false, false, false, false]);

    const page = statsPage(server.ctx, currentUser(server, "old_learner"), "UTC");
    expect(page.retentionByNotebook.map(({ title, reviews, successes }) => ({ title, reviews, successes }))).toEqual([
      { title: "Rivers", reviews: 5, successes: 2 },
      { title: "Cooking", reviews: 1, successes: 0 },
    ]);
    expect(page.mostFailedNotes.map(({ title, failures }) => ({ title, failures }))).toEqual([
      { title: "Amazon", failures: 2 },
      { title: "Nile", failures: 1 }, // ties by note id
      { title: "Bread", failures: 1 },
    ]);
    const theirPage = statsPage(server.ctx, currentUser(server, "another_old_learner"), "UTC");
    expect(theirPage.retentionByNotebook.map(({ title, reviews }) => ({ title, reviews }))).toEqual([{ title: "Theirs", reviews: 6 }]);
  });
});
