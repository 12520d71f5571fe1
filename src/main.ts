/**
 * Starts Engram: reads the configuration (one clear line and exit on a bad value, an unwritable
 * data folder or a port in use), opens the database, serves on HOST:PORT and prints the URL. SIGINT/SIGTERM close the server and the
 * database cleanly; if the npm parent process dies, Engram stops too.
 */
import { join } from "node:path";
import { ConfigError, listenProblem, prepareDataDir, readConfig } from "./config";

// React picks its development or production build when first imported: choose production
// unless told otherwise, before the server (and React) is loaded below.
process.env.NODE_ENV ??= "production";

export async function start() {
  const { createContext } = await import("./context");
  const { createApp } = await import("./server");
  let config;
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
  let ctx;
  try {
    ctx = createContext(config);
  } catch (error) {
    // A -wal that does not belong to engram.db (a backup copied over it): say what to do, not a stack trace.
    const { strayWalProblem } = await import("./services/backups/restore");
    const problem = strayWalProblem(error, join(config.dataDir, "engram.db"));
    if (!problem) throw error;
    console.error(`Engram cannot start: ${problem}`);
    process.exit(1);
  }
  let app;
  try {
    app = createApp(ctx).listen({ port: config.port, hostname: config.host });
  } catch (error) {
    const problem = listenProblem(error, config.port);
    if (!problem) throw error;
    console.error(`Engram cannot start: ${problem}`);
    ctx.sqlite.close();
    process.exit(1);
  }
  const port = app.server?.port ?? config.port;
  const shownHost = config.host === "0.0.0.0" || config.host === "::" ? "localhost" : config.host;
  console.log(`Engram (${config.mode} mode) is running at http://${shownHost}:${port}`);
  console.log(`Data: ${config.dataDir}`);

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await app.stop(true);
    ctx.sqlite.close();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);

  const parentPid = Number(process.env.ENGRAM_PARENT_PID);
  if (parentPid > 1) {
    setInterval(() => {
      try {
        process.kill(parentPid, 0);
      } catch {
        void stop();
      }
    }, 1000).unref();
  }
  return { app, ctx };
}

if (import.meta.main) await start();
