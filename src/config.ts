/**
 * Engram's configuration, read from the environment once at start-up.
 * A bad value stops start-up with one line that says what is wrong (see main.ts).
 */
import { accessSync, constants, mkdirSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { ConfigError } from "./config-error";
import { parsePostgresUrl, poolSizeFromEnv } from "./db/postgres/connection";
import { type AddressRange, parseTrustedProxies } from "./services/auth/client-address";

export type Mode = "production" | "development" | "test";

export interface Config {
  port: number;
  host: string;
  mode: Mode;
  dataDir: string;
  /**
   * ENGRAM_DATABASE_URL: the PostgreSQL database that keeps all the data; unset, the SQLite file
   * <data dir>/engram.db does.
   */
  databaseUrl: string | undefined;
  /** ENGRAM_DATABASE_POOL_SIZE: this process's connections to PostgreSQL (default 10). */
  databasePoolSize: number;
  /** Public origin (scheme://host[:port]) when served behind a proxy; used for links and secure cookies. */
  publicUrl: URL | undefined;
  /** Where a failure report's "issue link" opens a prefilled new issue (a GitHub or GitLab project's new-issue URL). */
  issueTrackerUrl: URL | undefined;
  openAiApiKey: string | undefined;
  openAiBaseUrl: string;
  wikidataBaseUrl: string;
  /** ENGRAM_SHUTDOWN_GRACE (seconds): how long a SIGTERM/SIGINT waits for requests and jobs in progress. */
  shutdownGraceMs: number;
  /** ENGRAM_BACKUP_INTERVAL: hours between automatic snapshots (0: none). */
  backupIntervalHours: number;
  /** ENGRAM_BACKUP_KEEP: how many snapshots in <data dir>/backups are kept. */
  backupKeep: number;
  /** ENGRAM_TRUSTED_PROXIES: reverse proxies whose X-Forwarded-For names the client (addresses or CIDR ranges). */
  trustedProxies: AddressRange[];
  /**
   * ENGRAM_CHECK_RESPONSES (on/off): whether each /api answer is checked against its route's
   * response schema before it is sent (api/response-checks.ts). Off in production by default.
   */
  checkResponses: boolean;
  /**
   * How often a process streaming AI runs reads whether another process cancelled one (250 ms).
   * ENGRAM_TEST_RUN_WATCH_MS sets it in test mode only, so that a test can show a wake-up stop a
   * stream long before the poll would.
   */
  runWatchMs: number;
}

export { ConfigError };

const MODES: Mode[] = ["production", "development", "test"];
export const DEFAULT_OPENAI_BASE_URL = "https://api.openai.com/v1";
export const DEFAULT_WIKIDATA_BASE_URL = "https://www.wikidata.org";
export const DEFAULT_SHUTDOWN_GRACE_SECONDS = 10;

function parseUrl(name: string, value: string): URL {
  try {
    const url = new URL(value);
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error();
    return url;
  } catch {
    throw new ConfigError(`${name} must be an http(s) URL, got "${value}"`);
  }
}

/** Reads and validates the configuration from an environment map (process.env by default). */
export function readConfig(env: Record<string, string | undefined> = process.env): Config {
  const portText = env.PORT?.trim() || "3000";
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port < 0 || port > 65535) {
    throw new ConfigError(`PORT must be a whole number from 0 to 65535, got "${portText}"`);
  }
  const mode = (env.ENGRAM_MODE?.trim() || "production") as Mode;
  if (!MODES.includes(mode)) {
    throw new ConfigError(`ENGRAM_MODE must be one of ${MODES.join(", ")}, got "${env.ENGRAM_MODE}"`);
  }
  const host = env.HOST?.trim() || "0.0.0.0";
  if (/\s|\//.test(host)) throw new ConfigError(`HOST must be a host name or address, got "${host}"`);

  const publicUrlText = env.ENGRAM_PUBLIC_URL?.trim();
  const publicUrl = publicUrlText ? parseUrl("ENGRAM_PUBLIC_URL", publicUrlText) : undefined;
  const issueTrackerText = env.ENGRAM_ISSUE_TRACKER_URL?.trim();
  const issueTrackerUrl = issueTrackerText ? parseUrl("ENGRAM_ISSUE_TRACKER_URL", issueTrackerText) : undefined;
  const openAiBaseUrl = env.OPENAI_BASE_URL?.trim() || DEFAULT_OPENAI_BASE_URL;
  parseUrl("OPENAI_BASE_URL", openAiBaseUrl);
  const wikidataBaseUrl = env.WIKIDATA_BASE_URL?.trim() || DEFAULT_WIKIDATA_BASE_URL;
  parseUrl("WIKIDATA_BASE_URL", wikidataBaseUrl);
  const graceText = env.ENGRAM_SHUTDOWN_GRACE?.trim() || String(DEFAULT_SHUTDOWN_GRACE_SECONDS);
  if (!/^\d+(\.\d+)?$/.test(graceText) || Number(graceText) > 3600) {
    throw new ConfigError(`ENGRAM_SHUTDOWN_GRACE must be a number of seconds from 0 to 3600, got "${graceText}"`);
  }
  const shutdownGraceMs = Math.round(Number(graceText) * 1000);
  const intervalText = env.ENGRAM_BACKUP_INTERVAL?.trim() || "24";
  const backupIntervalHours = Number(intervalText);
  if (!/^\d+(\.\d+)?$/.test(intervalText) || backupIntervalHours > 24 * 366) {
    throw new ConfigError(`ENGRAM_BACKUP_INTERVAL must be a number of hours from 0 (no automatic backups) to 8784, got "${intervalText}"`);
  }
  const keepText = env.ENGRAM_BACKUP_KEEP?.trim() || "7";
  const backupKeep = Number(keepText);
  if (!/^\d+$/.test(keepText) || backupKeep < 1 || backupKeep > 10000) {
    throw new ConfigError(`ENGRAM_BACKUP_KEEP must be a whole number from 1 to 10000, got "${keepText}"`);
  }
  const checkText = env.ENGRAM_CHECK_RESPONSES?.trim().toLowerCase() || (mode === "production" ? "off" : "on");
  if (checkText !== "on" && checkText !== "off") {
    throw new ConfigError(`ENGRAM_CHECK_RESPONSES must be on or off, got "${env.ENGRAM_CHECK_RESPONSES}"`);
  }
  let trustedProxies: AddressRange[];
  try {
    trustedProxies = parseTrustedProxies(env.ENGRAM_TRUSTED_PROXIES ?? "");
  } catch (error) {
    throw new ConfigError(`ENGRAM_TRUSTED_PROXIES must be comma-separated IP addresses or CIDR ranges: ${(error as Error).message}`);
  }

  const databaseUrl = env.ENGRAM_DATABASE_URL?.trim() || undefined;
  // A URL that is not PostgreSQL's stops start-up here, before anything is opened.
  if (databaseUrl) parsePostgresUrl(databaseUrl);
  const databasePoolSize = poolSizeFromEnv(env);
  const runWatchText = mode === "test" ? env.ENGRAM_TEST_RUN_WATCH_MS?.trim() : undefined;
  const runWatchMs = runWatchText && /^\d+$/.test(runWatchText) ? Number(runWatchText) : 250;

  return {
    port,
    host,
    mode,
    dataDir: resolve(env.ENGRAM_DATA_DIR?.trim() || "data"),
    databaseUrl,
    databasePoolSize,
    publicUrl,
    issueTrackerUrl,
    openAiApiKey: env.OPENAI_API_KEY?.trim() || undefined,
    openAiBaseUrl,
    wikidataBaseUrl,
    shutdownGraceMs,
    backupIntervalHours,
    backupKeep,
    trustedProxies,
    checkResponses: checkText === "on",
    runWatchMs,
  };
}

export const isProduction = (config: Pick<Config, "mode">) => config.mode === "production";

/**
 * Creates the data folder if needed and checks Engram may write there, so that a wrong
 * ENGRAM_DATA_DIR is one clear line at start-up (a ConfigError), not a stack trace from SQLite.
 */
export function prepareDataDir(dataDir: string) {
  try {
    mkdirSync(dataDir, { recursive: true });
    if (!statSync(dataDir).isDirectory()) throw Object.assign(new Error("it is a file"), { code: "ENOTDIR" });
    accessSync(dataDir, constants.W_OK);
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    const reason =
      code === "ENOTDIR" || code === "EEXIST"
        ? "a file is in the way"
        : code === "EROFS"
          ? "read-only file system"
          : code === "ENOENT"
            ? "it cannot be created there"
            : code === "EACCES" || code === "EPERM"
              ? "permission denied"
              : message;
    throw new ConfigError(`the data folder ${dataDir} is not writable (${reason}; set ENGRAM_DATA_DIR to another folder)`);
  }
}

/** The one line for a listen error we can explain (port taken or not allowed); undefined for anything else. */
export function listenProblem(error: unknown, port: number): string | undefined {
  const code = (error as { code?: unknown })?.code;
  if (code === "EADDRINUSE") return `port ${port} is already in use (set PORT to another port).`;
  if (code === "EACCES") return `port ${port} needs privileges this user does not have (set PORT to a port above 1023).`;
  return undefined;
}
