/**
 * Pages: every page's menu shows the Assimilate badge, which the server counts as it
 * renders the page. It counts candidates only as far as today's take needs (assimilationDueCount),
 * and must always equal what GET /api/assimilation/count says is due.
 */
import { describe, expect, test } from "bun:test";
import { assimilationDueCount } from "../../src/services/memory/assimilation";
import { findUserByAccount } from "../../src/services/users";
import { injectNotes } from "../support/notes";
import { useTestServer } from "../support/server";

describe("the page shell's Assimilate badge", () => {
  const server = useTestServer();

  test("equals the assimilation count's dueCount with own notes, subscriptions, quotas and today's assimilations", async () => {
    const learner = await server.client().loginAs("old_learner");
    const owner = await server.client().loginAs("another_old_learner");
    await injectNotes(learner, [
      { Title: "Mine" },
      ...Array.from({ length: 12 }, (_, i) => ({ Title: `Own ${i}`, "Parent Title": "Mine" })),
    ]);
    const shared = await injectNotes(
      owner,
      [{ Title: "Shared" }, ...Array.from({ length: 6 }, (_, i) => ({ Title: `Shared ${i}`, "Parent Title": "Shared" }))],
      "another_old_learner",
    );
    expect((await owner.post("/api/testability/share_to_bazaar", { noteTopology: "Shared" })).status).toBe(200);
    const notebookId = (await owner.get(`/api/notes/${shared.Shared}`)).body.notebook.id;

    const me = await learner.get("/api/user/current-user-info");
    const accountRow = (await server.ctx.stores.accounts.byLogin(me.body.externalIdentifier))!;
    const badge = async () => {
      const user = (await findUserByAccount(server.ctx, accountRow.id))!;
      const account = (await server.ctx.stores.accounts.byId(accountRow.id))!;
      return assimilationDueCount(server.ctx, { account, user }, "UTC");
    };
    const due = async () => (await learner.get("/api/assimilation/count?timezone=UTC")).body.dueCount as number;
    const seen: number[] = [];
    const check = async () => {
      const expected = await due();
      expect(await badge()).toBe(expected);
      seen.push(expected);
    };

    for (const daily of ["5", "20"]) {
      await learner.post("/api/testability/update_current_user", { daily_assimilation_count: daily });
      await check();
    }
    expect((await learner.post(`/api/subscriptions/notebooks/${notebookId}/subscribe`, { dailyTargetOfNewNotes: 3 })).status).toBe(200);
    await check();
    await learner.post("/api/testability/update_current_user", { daily_assimilation_count: "2" });
    await check();
    await learner.post("/api/testability/update_current_user", { daily_assimilation_count: "8" });
    await check();
    const [first, second] = (await learner.get("/api/assimilation/assimilating?timezone=UTC")).body;
    for (const note of [first, second]) expect((await learner.post("/api/assimilation", { noteId: note.id })).status).toBe(200);
    await check();
    await learner.post("/api/testability/update_current_user", { daily_assimilation_count: "2" });
    await check();
    // The situations differ: own notes only, capped by the daily count, a subscription's quota, today's assimilations.
    expect(seen).toEqual([5, 13, 16, 2, 8, 6, 0]);
  });
});
