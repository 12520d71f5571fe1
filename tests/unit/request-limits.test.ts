import { describe, expect, test } from "bun:test";
import { parseId } from "../../src/api/ids";
import { bodyLimitOf, parseJsonWithLimits, REQUEST_LIMITS, RequestLimitError, scanJson } from "../../src/api/request-limits";
import { stripControlCharacters } from "../../src/services/text-input";

describe("scanJson", () => {
  test("refuses a million nested brackets in one linear pass, without recursion", () => {
    const text = "[".repeat(1_000_000) + "]".repeat(1_000_000);
    const started = performance.now();
    expect(() => scanJson(text)).toThrow(RequestLimitError);
    expect(performance.now() - started).toBeLessThan(200);
  });

  test("accepts 64 levels and refuses 65", () => {
    expect(() => scanJson("[".repeat(64) + "]".repeat(64))).not.toThrow();
    expect(() => scanJson(`${'{"a":'.repeat(65)}1${"}".repeat(65)}`)).toThrow("nested deeper than 64 levels");
  });

  test("brackets, commas and escaped quotes inside strings do not count", () => {
    expect(() => scanJson(JSON.stringify({ a: '[[[[\\"{{{{'.repeat(1000) + ",".repeat(20_000) }))).not.toThrow();
  });

  test("refuses a list or object of more entries than the limit", () => {
    expect(() => scanJson(JSON.stringify(Array.from({ length: REQUEST_LIMITS.entries + 1 }, () => 0)))).toThrow("more than");
    expect(() => scanJson(JSON.stringify(Array.from({ length: REQUEST_LIMITS.entries - 1 }, () => 0)))).not.toThrow();
  });
});

describe("parseJsonWithLimits", () => {
  test("strips control characters from strings and keys, keeps tabs and line breaks", () => {
    expect(parseJsonWithLimits('{"a\\u0000":"x\\u0000\\u0007\\ty\\nz\\u007f"}')).toEqual({ a: "x\ty\nz" });
  });

  test("drops keys named like Object.prototype members, so the value still converts to text", () => {
    const value = parseJsonWithLimits('{"a":{"toString":0,"valueOf":1,"__proto__":{"x":1},"constructor":2,"b":3}}') as { a: object };
    expect(value).toEqual({ a: { b: 3 } });
    expect(`${value.a}`).toBe("[object Object]");
  });

  test("refuses text that is not JSON and too long strings with a 400", () => {
    expect(() => parseJsonWithLimits("{")).toThrow("not valid JSON");
    expect(() => parseJsonWithLimits(JSON.stringify({ a: "x".repeat(REQUEST_LIMITS.stringLength + 1) }))).toThrow("longer than");
  });
});

test("the details route may send 200,000 characters; other routes the default", () => {
  expect(bodyLimitOf("/api/text_content/12/details")).toBeGreaterThan(200_000 * 4);
  expect(bodyLimitOf("/api/text_content/12/title")).toBe(REQUEST_LIMITS.bodyBytes);
});

test("parseId accepts positive decimal integers only", () => {
  expect(parseId("1")).toBe(1);
  expect(parseId("123456789012345")).toBe(123456789012345);
  for (const bad of ["0x1", " 1", "1 ", "1e0", "-1", "1.5", "01", "+1", "0", "", "1234567890123456", "١"])
    expect(parseId(bad)).toBeUndefined();
});

test("stripControlCharacters removes C0 (but tab, LF, CR), DEL and C1", () => {
  expect(stripControlCharacters("a\u0000b\u001fc\td\ne\rf\u007fg\u0085h\u009fi é")).toBe("abc\td\ne\rfghi é");
});
