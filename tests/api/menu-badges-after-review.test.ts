/**
 * After a review only the Recall badge is counted again (reviews raise their own version), and
 * every badge stays right: the review moves the Recall count, an assimilation and a tracker
 * removed from tracking move the others. Through HTTP and the app's own stores, so on both databases.
 */
import { describe, expect, test } from "bun:test";
import { menuBadges } from "../../src/services/menu-badges";
import { assimilate, travelTo } from "../support/learning";
import { injectNotes } from "../support/notes";
import { useTestServer } from "../support/server";

describe("the menu badges after a review", () => {
  const server = useTestServer();

  test("a review counts the Recall badge again and leaves the learning version; other changes count every badge", async () => {
    const learner = await server.client().loginAs("old_learner");
    await travelTo(learner, 0, 8);
    const ids = await injectNotes(learner, [
      { Title: "Trees" },
      ...["Oak", "Ash", "Elm", "Yew"].map((Title) => ({ Title, "Parent Title": "Trees" })),
    ]);
    const [oak] = await assimilate(learner, ids.Oak!);
    const [ash] = await assimilate(learner, ids.Ash!);
    const account = (await server.ctx.stores.accounts.byLogin("old_learner"))!;
    const current = async () => ({ account, user: (await server.ctx.stores.users.byAccount(account.id))! });
    const badges = async () => menuBadges(server.ctx, await current(), "UTC");
    const learning = async () => server.ctx.stores.cacheVersions.version("user-learning", (await current()).user.id);
    // Both are due a day later; the head note and two more are still to assimilate.
    await travelTo(learner, 2, 8);
    expect(await badges()).toEqual({ assimilate: 3, recall: 2, messages: 0 });

    const before = await learning();
    expect((await learner.patch(`/api/memory-trackers/${oak!.id}/mark-as-repeated?successful=true`)).status).toBe(200);
    expect(await learning()).toBe(before);
    expect(await badges()).toEqual({ assimilate: 3, recall: 1, messages: 0 });

    // An assimilation: one note less to assimilate, and its tracker due before noon.
    const [elm] = await assimilate(learner, ids.Elm!);
    expect(new Date(elm!.nextRecallAt).getTime()).toBeLessThanOrEqual(Date.UTC(1976, 5, 3, 12));
    expect(await learning()).toBeGreaterThan(before);
    expect(await badges()).toEqual({ assimilate: 2, recall: 2, messages: 0 });
    expect((await learner.post(`/api/memory-trackers/${ash!.id}/remove`, {})).status).toBe(200);
    expect(await badges()).toEqual({ assimilate: 2, recall: 1, messages: 0 });
  });
});
