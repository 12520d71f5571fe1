/**
 * /d/stats draws its figures once and keeps the HTML while they hold: an answer, a renamed note or
 * notebook, the next day and new FSRS weights each show at once, and one user's drawing is never
 * another's. Through HTTP and the app's own database handle, so on both databases.
 */
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { DEFAULT_WEIGHTS } from "../../src/services/scheduling/fsrs";
import { run } from "../../src/store/session";
import { assimilate, travelTo } from "../support/learning";
import { injectNotes } from "../support/notes";
import { type HttpClient, useTestServer } from "../support/server";

async function repeat(client: HttpClient, trackerId: number, successful: boolean) {
  expect((await client.patch(`/api/memory-trackers/${trackerId}/mark-as-repeated?successful=${successful}`)).status).toBe(200);
}

/** The page's figures (the shell around them carries the moment it was rendered). */
async function page(client: HttpClient) {
  const html = (await client.get("/d/stats")).text;
  return html.slice(html.indexOf('<div class="stats-page">'), html.indexOf("</main>"));
}

describe("the drawn statistics page", () => {
  const server = useTestServer();

  test("is drawn again after an answer, a renamed note or notebook and on the next day; never shown to another user", async () => {
    const learner = await server.client().loginAs("old_learner");
    await travelTo(learner, 0, 8);
    const ids = await injectNotes(learner, [{ Title: "Rivers" }, { Title: "Nile <b>&</b>", "Parent Title": "Rivers" }]);
    const [nile] = await assimilate(learner, ids["Nile <b>&</b>"]!);
    await repeat(learner, nile!.id, false);
    const first = await page(learner);
    expect(first).toContain('Nile &lt;b&gt;&amp;&lt;/b&gt;</a> <span class="muted">(1 time)</span>');
    expect(first).toContain("<td>Rivers</td><td>1</td>");
    expect(await page(learner)).toBe(first);

    await repeat(learner, nile!.id, false);
    expect(await page(learner)).toContain("(2 times)");
    expect((await learner.patch(`/api/text_content/${ids["Nile <b>&</b>"]}/title`, { newTitle: "The Nile" })).status).toBe(200);
    expect((await learner.patch(`/api/text_content/${ids.Rivers}/title`, { newTitle: "Great rivers" })).status).toBe(200);
    const renamed = await page(learner);
    expect(renamed).toContain("The Nile</a>");
    expect(renamed).toContain("<td>Great rivers</td><td>2</td>");

    await travelTo(learner, 1, 8);
    const nextDay = await page(learner);
    expect(nextDay).toContain("1976-06-02: 0 recalls");
    expect(nextDay).toContain("1976-06-01: 2 recalls");

    const other = await server.client().loginAs("another_old_learner");
    const theirs = await page(other);
    expect(theirs).not.toContain("The Nile");
    expect(theirs).toContain("Nothing to show yet.");
  });

  test("new FSRS weights count the retrievability spread with their own curve, even when only the weights were written", async () => {
    const learner = await server.client().loginAs("old_learner");
    const me = (await learner.get("/api/user")).body;
    expect((await learner.patch(`/api/user/${me.id}`, { name: me.name, scheduler: "fsrs" })).status).toBe(200);
    await travelTo(learner, 0, 8);
    const ids = await injectNotes(learner, [{ Title: "Curves" }, { Title: "Decay", "Parent Title": "Curves" }]);
    const [tracker] = await assimilate(learner, ids.Decay!);
    // The API answers the stability in hours: 55.356 h is 2.3065 days. A week later t/S is 3.03: under the
    // default curve the recall probability falls below 80 % at t/S 3.32, so it is 80–90 %; with a decay
    // of 0.5 it falls below 80 % at t/S 2.40.
    expect(tracker!.stability).toBeCloseTo(55.356, 3);
    await travelTo(learner, 7, 8);
    expect(await page(learner)).toContain("80–90 %: 1");
    const weights = [...DEFAULT_WEIGHTS.slice(0, 20), 0.5];
    await server.ctx.database.write((s) =>
      run(
        s,
        s.db
          .update(s.t.users)
          .set({ fsrsWeights: JSON.stringify(weights) })
          .where(eq(s.t.users.id, me.id)),
      ),
    );
    expect(await page(learner)).toContain("70–80 %: 1");
  });
});
