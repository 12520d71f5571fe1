/**
 * The history's days in zones whose midnights fall on whole hours (read from the hourly counts)
 * and in zones 30 or 45 minutes off the hour (read from the 15-minute counts): a recall lands on
 * its local day either way. Through HTTP only, so on both databases.
 */
import { describe, expect, test } from "bun:test";
import { assimilate, travelTo } from "../support/learning";
import { injectNotes } from "../support/notes";
import { useTestServer } from "../support/server";

describe("the history's local days", () => {
  const server = useTestServer();

  test("a recall near midnight lands on its own day in whole-hour and quarter-hour zones", async () => {
    const learner = await server.client().loginAs("old_learner");
    await travelTo(learner, 0, 8);
    const ids = await injectNotes(learner, [{ Title: "Zones" }, { Title: "Offset", "Parent Title": "Zones" }]);
    const [tracker] = await assimilate(learner, ids.Offset!);
    const at = async (iso: string) =>
      expect((await learner.post("/api/testability/time_travel", { travel_to: JSON.stringify(iso) })).status).toBe(200);
    // 18:15 UTC is 23:45 in Kolkata (+5:30), 15:45 in St. John's (-2:30), 03:15 on the 2nd in Tokyo;
    // 18:45 UTC is 00:15 on the 2nd in Kolkata: the same UTC hour, another local day.
    await at("1976-06-01T18:15:00.000Z");
    expect((await learner.patch(`/api/memory-trackers/${tracker!.id}/mark-as-repeated?successful=true`)).status).toBe(200);
    await at("1976-06-01T18:45:00.000Z");
    expect((await learner.patch(`/api/memory-trackers/${tracker!.id}/mark-as-repeated?successful=false`)).status).toBe(200);
    const lastDays = async (zone: string) =>
      ((await learner.get(`/api/stats?timezone=${zone}`)).body.history as { date: string; count: number }[])
        .slice(-2)
        .map(({ date, count }) => `${date}: ${count}`);
    expect(await lastDays("UTC")).toEqual(["1976-05-31: 0", "1976-06-01: 2"]);
    expect(await lastDays("Asia/Kolkata")).toEqual(["1976-06-01: 1", "1976-06-02: 1"]);
    expect(await lastDays("Asia/Tokyo")).toEqual(["1976-06-01: 0", "1976-06-02: 2"]);
    expect(await lastDays("America/St_Johns")).toEqual(["1976-05-31: 0", "1976-06-01: 2"]);
  });
});
