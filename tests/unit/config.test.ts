import { describe, expect, test } from "bun:test";
import { ConfigError, readConfig } from "../../src/config";

describe("configuration", () => {
  test("defaults: production at port 3000 with data in ./data", () => {
    const config = readConfig({});
    expect(config.mode).toBe("production");
    expect(config.port).toBe(3000);
    expect(config.dataDir.endsWith("/data")).toBe(true);
    expect(config.openAiApiKey).toBeUndefined();
  });

  test("reads every documented variable", () => {
    const config = readConfig({
      PORT: "4010",
      HOST: "127.0.0.1",
      ENGRAM_MODE: "test",
      ENGRAM_DATA_DIR: "/tmp/x",
      ENGRAM_PUBLIC_URL: "https://engram.example.org",
      OPENAI_API_KEY: "sk-test",
      OPENAI_BASE_URL: "http://127.0.0.1:5001/v1",
      WIKIDATA_BASE_URL: "http://127.0.0.1:5002",
    });
    expect(config).toMatchObject({ port: 4010, host: "127.0.0.1", mode: "test", dataDir: "/tmp/x", openAiApiKey: "sk-test" });
    expect(config.publicUrl?.origin).toBe("https://engram.example.org");
  });

  test.each([
    [{ PORT: "http" }, "PORT must be a whole number"],
    [{ PORT: "70000" }, "PORT must be a whole number"],
    [{ ENGRAM_MODE: "staging" }, "ENGRAM_MODE must be one of production, development, test"],
    [{ ENGRAM_PUBLIC_URL: "engram.example.org" }, "ENGRAM_PUBLIC_URL must be an http(s) URL"],
    [{ OPENAI_BASE_URL: "ftp://x" }, "OPENAI_BASE_URL must be an http(s) URL"],
    [{ WIKIDATA_BASE_URL: "::" }, "WIKIDATA_BASE_URL must be an http(s) URL"],
    [
      { ENGRAM_BACKUP_INTERVAL: "daily" },
      'ENGRAM_BACKUP_INTERVAL must be a number of hours from 0 (no automatic backups) to 8784, got "daily"',
    ],
    [{ ENGRAM_BACKUP_INTERVAL: "-1" }, "ENGRAM_BACKUP_INTERVAL must be a number of hours"],
    [{ ENGRAM_BACKUP_INTERVAL: "9000" }, "ENGRAM_BACKUP_INTERVAL must be a number of hours"],
    [{ ENGRAM_BACKUP_KEEP: "0" }, 'ENGRAM_BACKUP_KEEP must be a whole number from 1 to 10000, got "0"'],
    [{ ENGRAM_BACKUP_KEEP: "2.5" }, "ENGRAM_BACKUP_KEEP must be a whole number"],
    [{ ENGRAM_SHUTDOWN_GRACE: "ten" }, 'ENGRAM_SHUTDOWN_GRACE must be a number of seconds from 0 to 3600, got "ten"'],
    [{ ENGRAM_SHUTDOWN_GRACE: "-1" }, "ENGRAM_SHUTDOWN_GRACE must be a number of seconds"],
    [{ ENGRAM_SHUTDOWN_GRACE: "10s" }, "ENGRAM_SHUTDOWN_GRACE must be a number of seconds"],
    [{ ENGRAM_SHUTDOWN_GRACE: "3601" }, "ENGRAM_SHUTDOWN_GRACE must be a number of seconds"],
    [
      { ENGRAM_TRUSTED_PROXIES: "10.0.0.1, proxy.local" },
      'ENGRAM_TRUSTED_PROXIES must be comma-separated IP addresses or CIDR ranges: "proxy.local"',
    ],
    [{ ENGRAM_TRUSTED_PROXIES: "10.0.0.0/33" }, "ENGRAM_TRUSTED_PROXIES must be"],
    [{ ENGRAM_TRUSTED_PROXIES: "256.1.1.1" }, "ENGRAM_TRUSTED_PROXIES must be"],
    [{ ENGRAM_TRUSTED_PROXIES: "fd00::/129" }, "ENGRAM_TRUSTED_PROXIES must be"],
    [{ ENGRAM_TRUSTED_PROXIES: "1:2:3" }, "ENGRAM_TRUSTED_PROXIES must be"],
  ])("bad configuration %p is refused with one clear line", (env, message) => {
    expect(() => readConfig(env)).toThrow(ConfigError);
    expect(() => readConfig(env)).toThrow(message);
  });

  test("ENGRAM_BACKUP_INTERVAL (hours, 24 by default, 0 turns automatic backups off) and ENGRAM_BACKUP_KEEP (7 by default)", () => {
    expect(readConfig({})).toMatchObject({ backupIntervalHours: 24, backupKeep: 7 });
    expect(readConfig({ ENGRAM_BACKUP_INTERVAL: "0", ENGRAM_BACKUP_KEEP: "30" })).toMatchObject({ backupIntervalHours: 0, backupKeep: 30 });
    expect(readConfig({ ENGRAM_BACKUP_INTERVAL: " 6.5 " }).backupIntervalHours).toBe(6.5);
  });

  test("ENGRAM_TRUSTED_PROXIES: addresses and CIDR ranges, IPv4 and IPv6; none by default", () => {
    expect(readConfig({}).trustedProxies).toEqual([]);
    const { trustedProxies } = readConfig({ ENGRAM_TRUSTED_PROXIES: " 10.0.0.1, 172.16.0.0/12,::1 , fd00::/8" });
    expect(trustedProxies).toHaveLength(4);
    expect(trustedProxies.map((r) => [r.version, r.prefix])).toEqual([
      [4, 32],
      [4, 12],
      [6, 128],
      [6, 8],
    ]);
  });

  test("ENGRAM_SHUTDOWN_GRACE: seconds, 10 by default, fractions and 0 allowed", () => {
    expect(readConfig({}).shutdownGraceMs).toBe(10_000);
    expect(readConfig({ ENGRAM_SHUTDOWN_GRACE: "30" }).shutdownGraceMs).toBe(30_000);
    expect(readConfig({ ENGRAM_SHUTDOWN_GRACE: " 2.5 " }).shutdownGraceMs).toBe(2_500);
    expect(readConfig({ ENGRAM_SHUTDOWN_GRACE: "0" }).shutdownGraceMs).toBe(0);
  });

  test("ENGRAM_CHECK_RESPONSES: off in production and on elsewhere by default; on or off when given", () => {
    expect(readConfig({}).checkResponses).toBe(false);
    expect(readConfig({ ENGRAM_MODE: "test" }).checkResponses).toBe(true);
    expect(readConfig({ ENGRAM_MODE: "development" }).checkResponses).toBe(true);
    expect(readConfig({ ENGRAM_CHECK_RESPONSES: " ON " }).checkResponses).toBe(true);
    expect(readConfig({ ENGRAM_MODE: "test", ENGRAM_CHECK_RESPONSES: "off" }).checkResponses).toBe(false);
    expect(() => readConfig({ ENGRAM_CHECK_RESPONSES: "yes" })).toThrow('ENGRAM_CHECK_RESPONSES must be on or off, got "yes"');
  });
});
