/**
 * Connecting to PostgreSQL (ENGRAM_DATABASE_URL): a pool of ENGRAM_DATABASE_POOL_SIZE connections
 * (default 10) and the start-up checks, each failure one line (a ConfigError, printed as
 * "Engram cannot start: …"): not a PostgreSQL URL, the server unreachable, the sign-in refused,
 * a server older than 15.
 */
import { SQL } from "bun";
import { ConfigError } from "../../config-error";

export const DEFAULT_POOL_SIZE = 10;
export const OLDEST_SERVER_VERSION = 15;

export function poolSizeFromEnv(env: Record<string, string | undefined> = process.env): number {
  const text = env.ENGRAM_DATABASE_POOL_SIZE?.trim();
  if (!text) return DEFAULT_POOL_SIZE;
  const size = Number(text);
  if (!Number.isInteger(size) || size < 1 || size > 1000) {
    throw new ConfigError(`ENGRAM_DATABASE_POOL_SIZE must be a whole number from 1 to 1000 (it is "${text}")`);
  }
  return size;
}

/** The URL's parts, or a ConfigError when it is not a PostgreSQL URL (the password never appears in a message). */
export function parsePostgresUrl(url: string): { host: string; port: number; user: string; database: string } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError("ENGRAM_DATABASE_URL is not a PostgreSQL URL (postgres://user:password@host:5432/database)");
  }
  if (parsed.protocol !== "postgres:" && parsed.protocol !== "postgresql:") {
    throw new ConfigError(
      `ENGRAM_DATABASE_URL is not a PostgreSQL URL (it starts with ${parsed.protocol}//; use postgres://user:password@host:5432/database)`,
    );
  }
  if (!parsed.hostname) throw new ConfigError("ENGRAM_DATABASE_URL names no host (postgres://user:password@host:5432/database)");
  return {
    host: parsed.hostname,
    port: parsed.port ? Number(parsed.port) : 5432,
    user: decodeURIComponent(parsed.username) || "postgres",
    database: decodeURIComponent(parsed.pathname.slice(1)) || decodeURIComponent(parsed.username) || "postgres",
  };
}

/** The problem with a server of this `server_version_num` (150004 is 15.4), or null when it will do. */
export function serverVersionProblem(versionNum: number, where: string): string | null {
  const major = Math.floor(versionNum / 10000);
  if (Number.isFinite(major) && major >= OLDEST_SERVER_VERSION) return null;
  return `the PostgreSQL server at ${where} is version ${major}; Engram needs PostgreSQL ${OLDEST_SERVER_VERSION} or newer`;
}

/** A failed first query, said in one line. */
export function connectionProblem(error: unknown, where: string, user: string, database: string): string | null {
  const { code, errno, message } = (error ?? {}) as { code?: string; errno?: string; message?: string };
  if (code === "ERR_POSTGRES_CONNECTION_REFUSED" || code === "ERR_POSTGRES_CONNECTION_TIMEOUT" || code === "ECONNREFUSED") {
    return `the PostgreSQL server at ${where} is unreachable (${message ?? code})`;
  }
  if (errno === "28P01" || errno === "28000" || code === "ERR_POSTGRES_UNSUPPORTED_AUTHENTICATION_METHOD") {
    return `the PostgreSQL server at ${where} refused user "${user}": authentication failed`;
  }
  if (errno === "3D000") return `the PostgreSQL server at ${where} has no database "${database}" (create it first)`;
  return null;
}

/** A pool on the URL's database, checked as above. */
export async function connectPostgres(url: string, poolSize = DEFAULT_POOL_SIZE): Promise<SQL> {
  const { host, port, user, database } = parsePostgresUrl(url);
  const where = `${host}:${port}`;
  const client = new SQL(url, { max: poolSize, connectionTimeout: 10 });
  try {
    const [row] = await client`SELECT current_setting('server_version_num')::integer AS version`;
    const problem = serverVersionProblem(Number(row?.version), where);
    if (problem) throw new ConfigError(problem);
    return client;
  } catch (error) {
    await client.close();
    if (error instanceof ConfigError) throw error;
    const problem = connectionProblem(error, where, user, database);
    if (problem) throw new ConfigError(problem);
    throw error;
  }
}
