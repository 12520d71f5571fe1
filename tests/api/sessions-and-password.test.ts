import { beforeEach, describe, expect, test } from "bun:test";
import { describeUserAgent } from "../../src/services/auth/sessions";
import { clearSignInLimits, useTestServer } from "../support/server";

const FIREFOX_LINUX = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
const SAFARI_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

describe("the account's sessions and password (production mode)", () => {
  const server = useTestServer({ ENGRAM_MODE: "production" }, { resetBeforeEach: false });
  beforeEach(() => clearSignInLimits(server));

  async function twoSessions(username: string) {
    const laptop = server.client();
    await laptop.request("POST", "/users/sign-up", {
      form: { username, password: "first password" },
      headers: { "user-agent": FIREFOX_LINUX },
    });
    const phone = server.client();
    await phone.request("POST", "/users/sign-in", {
      form: { username, password: "first password" },
      headers: { "user-agent": SAFARI_IPHONE },
    });
    expect(laptop.sessionCookie && phone.sessionCookie).toBeTruthy();
    return { laptop, phone };
  }

  test("signed out: 401 before anything else", async () => {
    const nobody = server.client();
    expect((await nobody.get("/api/user/sessions")).status).toBe(401);
    expect((await nobody.post("/api/user/sessions/sign-out-others")).status).toBe(401);
    expect((await nobody.post("/api/user/password", { newPassword: 1 })).status).toBe(401);
  });

  test("lists the account's sessions with when they started, were last used and the browser", async () => {
    const { laptop } = await twoSessions("lister");
    const list = await laptop.get("/api/user/sessions");
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(2);
    const current = list.body.find((s: { current: boolean }) => s.current);
    const other = list.body.find((s: { current: boolean }) => !s.current);
    expect(current).toMatchObject({ browser: "Firefox on Linux" });
    expect(other).toMatchObject({ browser: "Safari on iPhone" });
    expect(Date.parse(current.createdAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(Date.parse(current.lastUsedAt)).toBeGreaterThan(Date.now() - 60_000);
  });

  test("sign out other sessions ends them and keeps this one", async () => {
    const { laptop, phone } = await twoSessions("leaver");
    const result = await laptop.post("/api/user/sessions/sign-out-others");
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ signedOut: 1 });
    expect((await phone.get("/api/user/current-user-info")).body).toEqual({});
    expect((await laptop.get("/api/user/current-user-info")).body).toEqual({ externalIdentifier: "leaver" });
    expect((await laptop.get("/api/user/sessions")).body).toHaveLength(1);
  });

  test("a password change needs the current password and a new one of 8 characters, with field errors", async () => {
    const { laptop } = await twoSessions("changer1");
    const missing = await laptop.post("/api/user/password", {});
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.body.errors).sort()).toEqual(["currentPassword", "newPassword"]);
    const short = await laptop.post("/api/user/password", { currentPassword: "first password", newPassword: "short" });
    expect(short.status).toBe(400);
    expect(short.body.errors).toEqual({ newPassword: "The password must be 8 to 256 characters long" });
    const wrong = await laptop.post("/api/user/password", { currentPassword: "not it", newPassword: "second password" });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors).toEqual({ currentPassword: "The current password is wrong" });
  });

  test("a password change ends every other session; the new password signs in, the old one does not", async () => {
    const { laptop, phone } = await twoSessions("changer2");
    const changed = await laptop.post("/api/user/password", { currentPassword: "first password", newPassword: "second password" });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({ signedOut: 1, revokedTokens: 0 });
    expect((await phone.get("/api/user/current-user-info")).body).toEqual({});
    expect((await laptop.get("/api/user/current-user-info")).body).toEqual({ externalIdentifier: "changer2" });
    expect((await server.client().signIn("changer2", "first password")).status).toBe(400);
    expect((await server.client().signIn("changer2", "second password")).status).toBe(303);
  });

  test("wrong current passwords are limited like sign-ins", async () => {
    const { laptop } = await twoSessions("guesser");
    for (let i = 0; i < 5; i++) {
      expect((await laptop.post("/api/user/password", { currentPassword: `guess ${i}`, newPassword: "second password" })).status).toBe(400);
    }
    const locked = await laptop.post("/api/user/password", { currentPassword: "first password", newPassword: "second password" });
    expect(locked.status).toBe(429);
    expect(locked.body.message).toBe("Too many attempts, try again in 1 minute.");
  });
});

describe("browser names from user agents", () => {
  test.each([
    [FIREFOX_LINUX, "Firefox on Linux"],
    [SAFARI_IPHONE, "Safari on iPhone"],
    [
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0",
      "Edge on Windows",
    ],
    ["Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36", "Chrome on Android"],
    [
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15",
      "Safari on macOS",
    ],
    [null, "Unknown browser"],
  ])("%p is %p", (userAgent, name) => {
    expect(describeUserAgent(userAgent)).toBe(name);
  });
});
