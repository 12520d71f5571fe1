import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { addExpiry, expiryFrom, parseExpiry } from "../../src/services/assessments/expiry";

const day = (iso: string) => new Date(`${iso}T00:00:00.000Z`);
const ymd = (date: Date) => date.toISOString().slice(0, 10);

describe("certificate expiry", () => {
  test("parses '1y 1m 1d' and its parts; refuses what is not a period", () => {
    expect(parseExpiry("1y 1m 1d")).toEqual({ years: 1, months: 1, days: 1 });
    expect(parseExpiry("6m")).toEqual({ years: 0, months: 6, days: 0 });
    expect(parseExpiry(" 2y ")).toEqual({ years: 2, months: 0, days: 0 });
    for (const bad of ["", "y", "forever", "1w", "-1y", "1d 1y"]) expect(parseExpiry(bad)).toBeUndefined();
  });

  test("adds whole calendar units: 5y from 2024-01-01 is 2029-01-01; 1y 1m 1d; month ends clamp", () => {
    expect(ymd(expiryFrom(day("2024-01-01"), "5y"))).toBe("2029-01-01");
    expect(ymd(expiryFrom(day("2024-01-01"), "1y 1m 1d"))).toBe("2025-02-02");
    expect(ymd(expiryFrom(day("2024-01-31"), "1m"))).toBe("2024-02-29");
    expect(ymd(expiryFrom(day("2024-02-29"), "1y"))).toBe("2025-02-28");
    expect(ymd(expiryFrom(day("2024-12-31"), "1d"))).toBe("2025-01-01");
    expect(ymd(expiryFrom(day("2024-03-15"), "not a period"))).toBe("2025-03-15");
  });

  test("property: a longer period never expires earlier, and the day of month never spills into the next month", () => {
    const date = fc.date({ min: new Date("1970-01-01"), max: new Date("2200-01-01"), noInvalidDate: true });
    const period = fc.record({ years: fc.nat(50), months: fc.nat(30), days: fc.nat(400) });
    fc.assert(
      fc.property(date, period, fc.nat(5), (start, p, extraMonths) => {
        const end = addExpiry(start, p);
        expect(end.getTime()).toBeGreaterThanOrEqual(start.getTime());
        expect(addExpiry(start, { ...p, months: p.months + extraMonths }).getTime()).toBeGreaterThanOrEqual(end.getTime());
        const noDays = addExpiry(start, { ...p, days: 0 });
        expect((noDays.getUTCFullYear() - start.getUTCFullYear()) * 12 + noDays.getUTCMonth() - start.getUTCMonth()).toBe(
          p.years * 12 + p.months,
        );
      }),
    );
  });
});
