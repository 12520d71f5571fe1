import { describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { useTestServer } from "../support/server";
import { sqlRows } from "../support/test-database";

describe("test hooks", () => {
  const server = useTestServer();

  test("reset empties the data and recreates the test profiles", async () => {
    const client = await server.client().loginAs("old_learner");
    await client.post("/api/user/generate-token", { label: "gone after reset" });
    await client.post("/api/testability/clean_db_and_reset_testability_settings");
    // Sorted here: SQLite's and PostgreSQL's collations order capitals and lower case differently.
    const names = (await sqlRows<{ name: string }>(server, sql`SELECT name FROM users`)).map((u) => u.name).sort();
    expect(names).toEqual(["A Trainer", "Another Old Learner", "Non Admin", "Old Learner", "admin"]);
    expect(await sqlRows(server, sql`SELECT id FROM user_tokens`)).toEqual([]);
  });

  test("inject_notes makes all its notes or none: an unknown parent title leaves nothing made", async () => {
    const client = await server.client().loginAs("old_learner");
    const notebooks = async () => (await client.get("/api/notebooks")).body.notebooks.length;
    const before = await notebooks();
    const answer = await client.post("/api/testability/inject_notes", {
      externalIdentifier: "",
      circleName: null,
      noteTestData: [{ Title: "Made first" }, { Title: "Orphan", "Parent Title": "No such note" }],
    });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe('Parent note "No such note" not found');
    expect(await notebooks()).toBe(before);
  });

  test("time travel freezes the clock at a JSON-encoded instant, and relative travel moves from now", async () => {
    const client = server.client();
    await client.post("/api/testability/time_travel", { travel_to: JSON.stringify("1976-06-02T08:00:00.000Z") });
    expect(server.ctx.clock.now().toISOString()).toBe("1976-06-02T08:00:00.000Z");
    await client.post("/api/testability/time_travel_relative_to_now", { hours: "-100" });
    const expected = Date.now() - 100 * 3_600_000;
    expect(Math.abs(server.ctx.clock.now().getTime() - expected)).toBeLessThan(5_000);
    expect((await client.post("/api/testability/time_travel", { travel_to: "not a time" })).status).toBe(400);
  });

  test("the randomizer picks first, last or seeded", async () => {
    const client = server.client();
    await client.post("/api/testability/randomizer", { choose: "last" });
    expect(server.ctx.randomizer.choose(["a", "b", "c"])).toBe("c");
    await client.post("/api/testability/randomizer", { choose: "seed", seed: 7 });
    const seeded = [1, 2, 3, 4, 5, 6, 7, 8].map(() => server.ctx.randomizer.next());
    await client.post("/api/testability/randomizer", { choose: "seed", seed: 7 });
    expect([1, 2, 3, 4, 5, 6, 7, 8].map(() => server.ctx.randomizer.next())).toEqual(seeded);
    await client.post("/api/testability/clean_db_and_reset_testability_settings");
    expect(server.ctx.randomizer.choose(["a", "b", "c"])).toBe("a");
  });

  test("the feature toggle is read and set, and reset turns it off", async () => {
    const client = server.client();
    expect((await client.get("/api/testability/feature_toggle")).body).toBe(false);
    await client.post("/api/testability/feature_toggle", { enabled: true });
    expect((await client.get("/api/testability/feature_toggle")).body).toBe(true);
    await client.post("/api/testability/clean_db_and_reset_testability_settings");
    expect((await client.get("/api/testability/feature_toggle")).body).toBe(false);
  });

  test("service URLs can be replaced and restored", async () => {
    const client = server.client();
    await client.post("/api/testability/replace_service_url", { openAi: "http://127.0.0.1:5001", wikidata: "http://127.0.0.1:5002" });
    expect(server.ctx.serviceUrls.openAi).toBe("http://127.0.0.1:5001");
    expect(server.ctx.serviceUrls.wikidata).toBe("http://127.0.0.1:5002");
    await client.post("/api/testability/replace_service_url", { openAi: "" });
    expect(server.ctx.serviceUrls.openAi).toBe(server.ctx.config.openAiBaseUrl);
    expect(server.ctx.serviceUrls.wikidata).toBe("http://127.0.0.1:5002");
  });

  test("update_current_user changes the signed-in user's settings", async () => {
    const client = await server.client().loginAs("old_learner");
    await client.post("/api/testability/update_current_user", { daily_assimilation_count: "2", space_intervals: "1, 2, 4, 8" });
    expect((await client.get("/api/user")).body).toMatchObject({ dailyAssimilationCount: 2, spaceIntervals: "1, 2, 4, 8" });
  });
});
