import { describe, expect, test } from "bun:test";
import { timeZoneOfRequest } from "../../src/web/time-zone-cookie";

const requestWith = (cookie?: string) => new Request("http://localhost/", cookie ? { headers: { cookie } } : {});

describe("the reader's time zone for server-rendered counters", () => {
  test("comes from the engram_tz cookie", () => {
    expect(timeZoneOfRequest(requestWith("engram_session=abc; engram_tz=Asia%2FShanghai"))).toBe("Asia/Shanghai");
  });

  test.each([undefined, "engram_tz=Mars%2FOlympus", "engram_tz=%E0%A4%A", `engram_tz=${"A".repeat(100)}`, "other_tz=Europe%2FParis"])(
    "is UTC when the cookie is %p",
    (cookie) => expect(timeZoneOfRequest(requestWith(cookie))).toBe("UTC"),
  );
});
