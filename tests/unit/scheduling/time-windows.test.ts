import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { endOfHalfDay, isValidTimeZone, localDay, localParts } from "../../../src/services/scheduling/time-windows";

describe("half-day window and local day", () => {
  test("Shanghai: morning ends at local noon, afternoon at local midnight", () => {
    // 06:00 local = 22:00Z the day before; 15:00 local = 07:00Z.
    expect(endOfHalfDay(new Date("1976-06-01T22:00:00Z"), "Asia/Shanghai").toISOString()).toBe("1976-06-02T04:00:00.000Z");
    expect(endOfHalfDay(new Date("1976-06-02T07:00:00Z"), "Asia/Shanghai").toISOString()).toBe("1976-06-02T16:00:00.000Z");
  });

  test("reference examples at 1989-01-01T00:00Z: Tokyo ends 03:00Z, Paris 11:00Z", () => {
    const now = new Date("1989-01-01T00:00:00Z");
    expect(endOfHalfDay(now, "Asia/Tokyo").toISOString()).toBe("1989-01-01T03:00:00.000Z");
    expect(endOfHalfDay(now, "Europe/Paris").toISOString()).toBe("1989-01-01T11:00:00.000Z");
    expect(endOfHalfDay(now, "UTC").toISOString()).toBe("1989-01-01T12:00:00.000Z");
  });

  test("across a daylight-saving change", () => {
    // New York, 2024-03-10: clocks jump from 02:00 to 03:00; noon is 16:00Z.
    expect(endOfHalfDay(new Date("2024-03-10T06:00:00Z"), "America/New_York").toISOString()).toBe("2024-03-10T16:00:00.000Z");
  });

  test("the local day of an instant", () => {
    expect(localDay(new Date("1976-06-01T20:00:00Z"), "Asia/Shanghai")).toBe("1976-06-02");
    expect(localDay(new Date("1976-06-01T20:00:00Z"), "UTC")).toBe("1976-06-01");
    expect(isValidTimeZone("Mars/Olympus")).toBe(false);
    expect(isValidTimeZone("Europe/Paris")).toBe(true);
  });

  test("local wall-clock parts (cached by zone and minute) equal Intl's for any instant from 1972 to 2100", () => {
    const zones = [
      "UTC",
      "Asia/Kolkata",
      "Asia/Kathmandu",
      "America/St_Johns",
      "Australia/Lord_Howe",
      "Europe/Paris",
      "America/New_York",
      "Pacific/Chatham",
    ];
    const direct = (instant: Date, timeZone: string) => {
      const format = new Intl.DateTimeFormat("en-US", {
        timeZone,
        hourCycle: "h23",
        year: "numeric",
        month: "numeric",
        day: "numeric",
        hour: "numeric",
        minute: "numeric",
        second: "numeric",
      });
      const parts = Object.fromEntries(
        format
          .formatToParts(instant)
          .filter((p) => p.type !== "literal")
          .map((p) => [p.type, Number(p.value)]),
      );
      return {
        year: parts.year!,
        month: parts.month!,
        day: parts.day!,
        hour: parts.hour! % 24,
        minute: parts.minute!,
        second: parts.second!,
      };
    };
    const instants = fc.integer({ min: Date.UTC(1972, 0, 1), max: Date.UTC(2100, 0, 1) }).map((ms) => new Date(ms));
    fc.assert(
      fc.property(instants, fc.constantFrom(...zones), (instant, zone) => {
        // Twice: the second answer comes from the cache.
        expect(localParts(instant, zone)).toEqual(direct(instant, zone));
        expect(localParts(new Date(instant.getTime() + 1), zone)).toEqual(direct(new Date(instant.getTime() + 1), zone));
      }),
      { numRuns: 2000 },
    );
  });
});
