import { describe, expect, test } from "bun:test";
import { clientAddressOf, isTrusted, normalizeAddress, parseTrustedProxies } from "../../src/services/auth/client-address";

describe("client address", () => {
  const trusted = parseTrustedProxies("10.0.0.0/8, 127.0.0.1, fd00::/8");

  test("CIDR ranges match IPv4, IPv6 and IPv4-mapped IPv6 addresses", () => {
    expect(isTrusted("10.200.3.4", trusted)).toBe(true);
    expect(isTrusted("11.0.0.1", trusted)).toBe(false);
    expect(isTrusted("::ffff:127.0.0.1", trusted)).toBe(true);
    expect(isTrusted("127.0.0.2", trusted)).toBe(false);
    expect(isTrusted("fd12:3456::1", trusted)).toBe(true);
    expect(isTrusted("fe80::1", trusted)).toBe(false);
    expect(isTrusted("not an address", trusted)).toBe(false);
    expect(isTrusted("1.2.3.4", parseTrustedProxies("0.0.0.0/0"))).toBe(true);
  });

  test("addresses are written one way, so one client is one key", () => {
    expect(normalizeAddress("::ffff:192.0.2.1")).toBe("192.0.2.1");
    expect(normalizeAddress("2001:DB8::1")).toBe("2001:db8:0:0:0:0:0:1");
    expect(normalizeAddress("2001:db8:0::1")).toBe("2001:db8:0:0:0:0:0:1");
  });

  test("the socket address is the client unless the socket is a trusted proxy", () => {
    expect(clientAddressOf("203.0.113.9", "198.51.100.7", trusted)).toBe("203.0.113.9");
    expect(clientAddressOf("127.0.0.1", null, trusted)).toBe("127.0.0.1");
    expect(clientAddressOf("127.0.0.1", "198.51.100.7", trusted)).toBe("198.51.100.7");
    expect(clientAddressOf("::ffff:127.0.0.1", "198.51.100.7", trusted)).toBe("198.51.100.7");
    expect(clientAddressOf("127.0.0.1", "198.51.100.7", [])).toBe("127.0.0.1");
  });

  test("X-Forwarded-For: the right-most untrusted address, so a forged left part is ignored", () => {
    expect(clientAddressOf("127.0.0.1", "1.1.1.1, 198.51.100.7, 10.1.2.3", trusted)).toBe("198.51.100.7");
    expect(clientAddressOf("127.0.0.1", "forged, 198.51.100.7", trusted)).toBe("198.51.100.7");
    expect(clientAddressOf("127.0.0.1", "10.0.0.5, 10.0.0.6", trusted)).toBe("10.0.0.5");
    expect(clientAddressOf("127.0.0.1", "garbage", trusted)).toBe("127.0.0.1");
  });
});
