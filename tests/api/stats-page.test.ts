/**
 * The figures only the /d/stats page shows: retention per notebook (summed per notebook
 * before the notebooks are looked up) and the most failed notes; never another user's reviews.
 */
import { describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { statsPage } from "../../src/services/stats/stats";
import { run } from "../../src/store/session";
import { assimilate, travelTo } from "../support/learning";
import { injectNotes } from "../support/notes";
import { type HttpClient, type TestServer, useTestServer } from "../support/server";
import { inWrite, sqlRow, sqlRun } from "../support/test-database";

async function currentUser(server: TestServer, identity: string) {
  const account = (await server.ctx.stores.accounts.byLogin(identity))!;
  const user = (await server.ctx.stores.users.byAccount(account.id))!;
  return { account, user };
}

async function repeat(client: HttpClient, trackerId: number, outcomes: boolean[]) {
  for (const successful of outcomes) {
    expect((await client.patch(`/api/memory-trackers/${trackerId}/mark-as-repeated?successful=${successful}`)).status).toBe(200);
  }
}

describe("the statistics page's figures", () => {
  const server = useTestServer();

  test("retention by notebook, most reviewed first, and the most failed notes, never another user's reviews", async () => {
    const learner = await server.client().loginAs("old_learner");
    const other = await server.client().loginAs("another_old_learner");
    await travelTo(learner, 0, 8);
    const ids = await injectNotes(learner, [
      { Title: "Rivers" },
      { Title: "Nile", "Parent Title": "Rivers" },
      { Title: "Amazon", "Parent Title": "Rivers" },
      { Title: "Cooking" },
      { Title: "Bread", "Parent Title": "Cooking" },
      { Title: "Unused" },
      { Title: "Nothing", "Parent Title": "Unused" },
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

    const page = await statsPage(server.ctx, await currentUser(server, "old_learner"), "UTC");
    expect(page.retentionByNotebook.map(({ title, reviews, successes }) => ({ title, reviews, successes }))).toEqual([
      { title: "Rivers", reviews: 5, successes: 2 },
      { title: "Cooking", reviews: 1, successes: 0 },
    ]);
    expect(page.mostFailedNotes.map(({ title, failures }) => ({ title, failures }))).toEqual([
      { title: "Amazon", failures: 2 },
      { title: "Nile", failures: 1 }, // ties by note id
      { title: "Bread", failures: 1 },
    ]);
    const theirPage = await statsPage(server.ctx, await currentUser(server, "another_old_learner"), "UTC");
    expect(theirPage.retentionByNotebook.map(({ title, reviews }) => ({ title, reviews }))).toEqual([{ title: "Theirs", reviews: 6 }]);
  });

  test("a most failed link note is named as its sentence, not by its link type", async () => {
    const learner = await server.client().loginAs("old_learner");
    await travelTo(learner, 0, 8);
    const ids = await injectNotes(learner, [
      { Title: "Biology" },
      { Title: "Ribosome", "Parent Title": "Biology" },
      { Title: "RNA", "Parent Title": "Biology" },
    ]);
    const linked = await learner.post("/api/testability/link_notes", {
      type: "using",
      source_id: String(ids.Ribosome),
      target_id: String(ids.RNA),
    });
    expect(linked.status).toBe(200);
    const link = (await sqlRow<{ id: number }>(server, sql`SELECT id FROM notes WHERE target_note_id IS NOT NULL`))!;
    const [tracker] = await assimilate(learner, link.id);
    await repeat(learner, tracker!.id, [false]);
    const page = await statsPage(server.ctx, await currentUser(server, "old_learner"), "UTC");
    expect(page.mostFailedNotes.map(({ title }) => title)).toEqual(["Ribosome — using — RNA"]);
  });

  test("kept between requests: an answer counts again, a renamed note or notebook shows its new title at once", async () => {
    const learner = await server.client().loginAs("old_learner");
    await travelTo(learner, 0, 8);
    const ids = await injectNotes(learner, [{ Title: "Rivers" }, { Title: "Nile", "Parent Title": "Rivers" }]);
    const [nile] = await assimilate(learner, ids.Nile!);
    await repeat(learner, nile!.id, [false]);
    const me = await currentUser(server, "old_learner");
    expect((await statsPage(server.ctx, me, "UTC")).mostFailedNotes.map(({ title, failures }) => ({ title, failures }))).toEqual([
      { title: "Nile", failures: 1 },
    ]);
    await repeat(learner, nile!.id, [false]);
    expect((await statsPage(server.ctx, me, "UTC")).mostFailedNotes[0]!.failures).toBe(2);
    expect((await learner.patch(`/api/text_content/${ids.Nile}/title`, { newTitle: "The Nile" })).status).toBe(200);
    expect((await learner.patch(`/api/text_content/${ids.Rivers}/title`, { newTitle: "Great rivers" })).status).toBe(200);
    const page = await statsPage(server.ctx, me, "UTC");
    expect(page.mostFailedNotes.map(({ title, failures }) => ({ title, failures }))).toEqual([{ title: "The Nile", failures: 2 }]);
    expect(page.retentionByNotebook.map(({ title, reviews }) => ({ title, reviews }))).toEqual([{ title: "Great rivers", reviews: 2 }]);
    expect((await learner.get("/api/stats?timezone=UTC")).body.retentionByWeek.at(-1).reviews).toBe(2);
  });

  test("FSRS spreads: trackers by stability and by recall probability today (t/S against each bound's threshold)", async () => {
    const learner = await server.client().loginAs("old_learner");
    await travelTo(learner, 0, 8);
    const titles = ["S1", "S2", "S3", "S4", "S5", "S6", "S7", "Removed"];
    const ids = await injectNotes(learner, [{ Title: "Spread" }, ...titles.map((Title) => ({ Title, "Parent Title": "Spread" }))]);
    const current = await currentUser(server, "old_learner");
    await sqlRun(server, sql`UPDATE users SET scheduler = 'fsrs' WHERE id = ${current.user.id}`);
    const now = server.ctx.clock.now().getTime();
    const DAY = 86_400_000;
    // [stability in days, days since the last recall]: t/S 0, 0.8, 1.5, 5, 10 fall in R ≥ 95 %, 90–95, 80–90, 70–80, < 70 % (FSRS-6 defaults).
    const trackers: [string, number, number][] = [
      ["S1", 0.5, 0],
      ["S2", 3, 2.4],
      ["S3", 20, 30],
      ["S4", 60, 300],
      ["S5", 200, 2000],
      ["S6", 400, 0],
      ["S7", 0, 1],
      ["Removed", 10, 100],
    ];
    await inWrite(server, function* (s) {
      for (const [title, stability, daysAgo] of trackers) {
        yield* run(
          s,
          s.db.insert(s.t.memoryTrackers).values({
            userId: current.user.id,
            noteId: ids[title]!,
            spelling: false,
            assimilatedAt: new Date(now - 3000 * DAY),
            lastRecalledAt: new Date(now - daysAgo * DAY),
            nextRecallAt: new Date(now + DAY),
            repetitionCount: 1,
            forgettingCurveIndex: 100,
            removedFromTracking: title === "Removed",
            stability,
            difficulty: 5,
          }),
        );
      }
    });
    const fsrs = (await statsPage(server.ctx, await currentUser(server, "old_learner"), "UTC")).fsrs!;
    expect(fsrs.stability).toEqual([
      { label: "under 1 day", count: 2 },
      { label: "1–7 days", count: 1 },
      { label: "1–4 weeks", count: 1 },
      { label: "1–3 months", count: 1 },
      { label: "3–12 months", count: 1 },
      { label: "over a year", count: 1 },
    ]);
    expect(fsrs.retrievability).toEqual([
      { label: "under 70 %", count: 1 },
      { label: "70–80 %", count: 1 },
      { label: "80–90 %", count: 1 },
      { label: "90–95 %", count: 1 },
      { label: "95 % and more", count: 3 }, // S1 and S6 just recalled, S7 of stability 0
    ]);
  });
});
