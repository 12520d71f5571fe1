/**
 * Starts Engram: reads the configuration (one clear line and exit on a bad value, an unwritable
 * data folder or a port in use), opens the database, serves on HOST:PORT and prints the URL. SIGINT/SIGTERM
 * shut down gracefully (lifecycle.ts: requests and jobs in progress finish within ENGRAM_SHUTDOWN_GRACE,
 * then the database is closed); if the npm parent process dies, Engram stops too.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { type Config, ConfigError, listenProblem, prepareDataDir, readConfig } from "./config";
import type { AppContext } from "./context";
import { parsePostgresUrl } from "./db/postgres/connection";
import { shutDown } from "./lifecycle";

// React picks its development or production build when first imported: choose production
// unless told otherwise, before the server (and React) is loaded below.
process.env.NODE_ENV ??= "production";

export async function start() {
  const { createContext } = await import("./context");
  const { createApp } = await import("./server");
  const { skipResponseChecks } = await import("./api/response-checks");
  let config: Config;
  try {
    config = readConfig();
    prepareDataDir(config.dataDir);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Engram cannot start: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  let ctx: AppContext;
  try {
    ctx = await createContext(config);
  } catch (error) {
    // PostgreSQL: a wrong URL, an unreachable server, refused credentials or a server too old.
    if (error instanceof ConfigError) {
      console.error(`Engram cannot start: ${error.message}`);
      process.exit(1);
    }
    // A -wal that does not belong to engram.db (a backup copied over it): say what to do, not a stack trace.
    // Whether the -wal is there is read before anything is awaited: the failed connection, once
    // collected, closes and may take the -wal with it.
    const file = join(config.dataDir, "engram.db");
    const walThere = existsSync(`${file}-wal`);
    const { strayWalProblem } = await import("./services/backups/restore");
    const problem = strayWalProblem(error, file, walThere);
    if (!problem) throw error;
    console.error(`Engram cannot start: ${problem}`);
    process.exit(1);
  }
  const app = (() => {
    try {
      const built = createApp(ctx);
      // A decision for the whole process (the schemas are shared): made here, never by createApp.
      if (!config.checkResponses) skipResponseChecks(built.routes);
      return built.listen({ port: config.port, hostname: config.host });
    } catch (error) {
      const problem = listenProblem(error, config.port);
      if (!problem) throw error;
      console.error(`Engram cannot start: ${problem}`);
      // SQLite closes at once (nothing is awaited inside); PostgreSQL's pool is dropped with the process.
      void ctx.database.close();
      process.exit(1);
    }
  })();
  const port = app.server?.port ?? config.port;
  const shownHost = config.host === "0.0.0.0" || config.host === "::" ? "localhost" : config.host;

  // Graceful: stop accepting, let requests and jobs in progress finish within the grace, close the database.
  let stopping = false;
  const stop = async (reason: string) => {
    if (stopping) return;
    stopping = true;
    const stopped = shutDown(ctx, app, { graceMs: config.shutdownGraceMs }); // refuses new connections at once
    console.log(`Engram is stopping (${reason}): finishing the requests in progress (at most ${config.shutdownGraceMs / 1000} s)`);
    const report = await stopped;
    if (!report.requestsFinished) console.error("Requests still in progress when ENGRAM_SHUTDOWN_GRACE ran out were cut off.");
    if (report.unfinishedSteps.length > 0)
      console.error(`Not finished when ENGRAM_SHUTDOWN_GRACE ran out: ${report.unfinishedSteps.join(", ")}.`);
    console.log("Engram stopped.");
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
  // Printed once the signals are handled: from this line on, a SIGTERM is graceful.
  console.log(`Engram (${config.mode} mode) is running at http://${shownHost}:${port}`);
  console.log(config.databaseUrl ? `Data: PostgreSQL at ${databaseWhere(config.databaseUrl)}` : `Data: ${config.dataDir}`);

  const parentPid = Number(process.env.ENGRAM_PARENT_PID);
  if (parentPid > 1) {
    setInterval(() => {
      try {
        process.kill(parentPid, 0);
      } catch {
        void stop("the npm process that started it is gone");
      }
    }, 1000).unref();
  }
  return { app, ctx };
}

/** host:port/database of a PostgreSQL URL: where the data is, without the password. */
function databaseWhere(url: string): string {
  const { host, port, database } = parsePostgresUrl(url);
  return `${host}:${port}/${database}`;
}

if (import.meta.main) await start();
