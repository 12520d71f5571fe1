import { describe, expect, test } from "bun:test";
import { useTestServer } from "../support/server";

describe("user profile and settings", () => {
  const server = useTestServer();

  test("current-user-info is empty when signed out", async () => {
    const result = await server.client().get("/api/user/current-user-info");
    expect(result.status).toBe(200);
    expect(result.body).toEqual({});
  });

  test("an identity without a profile has no user until it creates one", async () => {
    const client = await server.client().loginAs("user");
    expect((await client.get("/api/user/current-user-info")).body).toEqual({ externalIdentifier: "user" });
    expect((await client.get("/api/user")).status).toBe(401);
    const created = await client.post("/api/user", { name: "  New Learner  " });
    expect(created.body).toMatchObject({
      name: "New Learner",
      externalIdentifier: "user",
      dailyAssimilationCount: 15,
      spaceIntervals: "0, 1, 1, 2, 3, 5, 8, 13, 21, 34, 55",
      admin: false,
    });
    expect((await client.get("/api/user/current-user-info")).body.user.name).toBe("New Learner");
    expect((await client.post("/api/user", { name: "Twice" })).status).toBe(400);
  });

  test("a blank nickname is refused with a field error", async () => {
    const client = await server.client().loginAs("user");
    const result = await client.post("/api/user", { name: "   " });
    expect(result.status).toBe(400);
    expect(result.body).toEqual({
      message: "binding error",
      errorType: "BINDING_ERROR",
      errors: { name: "size must be between 1 and 100" },
    });
  });

  test("creating a profile needs a signed-in identity", async () => {
    expect((await server.client().post("/api/user", { name: "Ghost" })).status).toBe(401);
  });

  test("settings change name, daily count and space intervals", async () => {
    const client = await server.client().loginAs("old_learner");
    const me = (await client.get("/api/user")).body;
    const result = await client.patch(`/api/user/${me.id}`, {
      name: "Older Learner",
      dailyAssimilationCount: 7,
      spaceIntervals: "1, 2, 4, 8",
    });
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ name: "Older Learner", dailyAssimilationCount: 7, spaceIntervals: "1, 2, 4, 8" });
    expect((await client.get("/api/user")).body.dailyAssimilationCount).toBe(7);
  });

  test("settings are validated field by field", async () => {
    const client = await server.client().loginAs("old_learner");
    const me = (await client.get("/api/user")).body;
    const bad = await client.patch(`/api/user/${me.id}`, { name: "", dailyAssimilationCount: -1, spaceIntervals: "1, two, 3" });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors).sort()).toEqual(["dailyAssimilationCount", "name", "spaceIntervals"]);
    const wrongType = await client.patch(`/api/user/${me.id}`, { name: "x", dailyAssimilationCount: "many" });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.errors.dailyAssimilationCount).toBe("must be a whole number from 0 to 1000");
    expect((await client.get("/api/user")).body.name).toBe("Old Learner");
  });

  test("nobody changes another user's settings", async () => {
    const other = (await (await server.client().loginAs("another_old_learner")).get("/api/user")).body;
    const client = await server.client().loginAs("old_learner");
    expect((await client.patch(`/api/user/${other.id}`, { name: "Hacked" })).status).toBe(403);
    expect((await client.patch(`/api/user/999999`, { name: "Nobody" })).status).toBe(404);
    expect((await server.client().patch(`/api/user/${other.id}`, { name: "Anon" })).status).toBe(401);
  });

  test("the test admin is an admin, other test users are not", async () => {
    expect((await (await server.client().loginAs("admin")).get("/api/user")).body.admin).toBe(true);
    expect((await (await server.client().loginAs("non_admin")).get("/api/user")).body.admin).toBe(false);
  });

  test("wrong basic-auth credentials are refused", async () => {
    const result = await server.client().get("/api/healthcheck", { authorization: `Basic ${btoa("admin:nope")}` });
    expect(result.status).toBe(401);
  });
});
