#!/usr/bin/env node
// The entry behind `npm start`, `npm test`, `npm run test:postgres`, `npm run lint`, `npm run build`, `npm run dev`,
// `npm run bench`, `npm run backup`, `npm run restore`, `npm run admin`, `npm run mcp` and
// `npm run migrate-to-postgres`.
// It runs on plain Node (a fresh clone has only Node and npm): it installs what is missing,
// then hands over to Bun, forwarding signals so that stopping npm stops Engram too.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const bun = join(root, "node_modules", ".bin", "bun");

function dependenciesAreInstalled() {
  const marker = join(root, "node_modules", ".package-lock.json");
  if (!existsSync(bun) || !existsSync(marker)) return false;
  const lock = join(root, "package-lock.json");
  return !existsSync(lock) || statSync(marker).mtimeMs >= statSync(lock).mtimeMs;
}

function ensureInstalled() {
  if (dependenciesAreInstalled()) return;
  // `npm run mcp` speaks MCP on stdout: the install's own output goes to stderr there.
  const quiet = process.argv[2] === "mcp";
  (quiet ? console.error : console.log)("Installing dependencies (first run)...");
  const command = existsSync(join(root, "package-lock.json")) ? "ci" : "install";
  const result = spawnSync("npm", [command, "--no-audit", "--no-fund"], { cwd: root, stdio: quiet ? ["ignore", 2, 2] : "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/** Runs Bun with the arguments; resolves with its exit code. Signals reach the child. */
function runBun(args, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(bun, args, {
      cwd: root,
      stdio: "inherit",
      env: { ...process.env, ENGRAM_PARENT_PID: String(process.pid), ...env },
    });
    const forward = (signal) => child.kill(signal);
    for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, forward);
    // npm does not pass SIGTERM on to its script: when npm goes away, stop Bun too.
    const parent = process.ppid;
    const orphanWatch = setInterval(() => process.ppid !== parent && child.kill("SIGTERM"), 1000);
    child.on("exit", (code, signal) => {
      clearInterval(orphanWatch);
      for (const s of ["SIGINT", "SIGTERM", "SIGHUP"]) process.off(s, forward);
      resolve(code ?? (signal ? 128 + 1 : 1));
    });
  });
}

async function sequence(...steps) {
  for (const args of steps) {
    const code = await runBun(...args);
    if (code !== 0) process.exit(code);
  }
}

const task = process.argv[2];
ensureInstalled();
switch (task) {
  case "start":
    await sequence([["scripts/build-client.ts"]], [["src/main.ts"]]);
    break;
  case "dev":
    await sequence([["scripts/build-client.ts"]], [["src/main.ts"], { ENGRAM_MODE: process.env.ENGRAM_MODE ?? "development" }]);
    break;
  case "test":
    await sequence([["scripts/test.ts", ...process.argv.slice(3)]]);
    break;
  case "test:postgres": {
    // A throwaway PostgreSQL cluster, the PostgreSQL suites against it, the cluster stopped (scripts/postgres/test.sh).
    const result = spawnSync("bash", [join(root, "scripts/postgres/test.sh"), ...process.argv.slice(3)], { cwd: root, stdio: "inherit" });
    process.exit(result.status ?? 1);
    break;
  }
  case "lint": {
    // Biome in CI mode (also the first step of `npm test`): fails on any lint, format or import-order
    // finding, warnings included. Its launcher is a Node script.
    const biome = join(root, "node_modules", "@biomejs", "biome", "bin", "biome");
    const result = spawnSync(process.execPath, [biome, "ci", "--error-on-warnings", "."], { cwd: root, stdio: "inherit" });
    process.exit(result.status ?? 1);
    break;
  }
  case "build":
    await sequence([["scripts/build.ts"]]);
    break;
  case "bench":
    await sequence([["scripts/build-client.ts"]], [["scripts/bench/index.ts", ...process.argv.slice(3)]]);
    break;
  case "backup":
  case "restore":
    // File names are taken from where npm was typed (npm runs scripts from the package folder).
    await sequence([
      ["src/backup-cli.ts", task, ...process.argv.slice(3).map((file) => resolve(process.env.INIT_CWD ?? process.cwd(), file))],
    ]);
    break;
  case "admin":
    await sequence([["src/admin-cli.ts", ...process.argv.slice(3)]]);
    break;
  case "migrate-to-postgres":
    await sequence([["src/migrate-to-postgres-cli.ts", ...process.argv.slice(3)]]);
    break;
  case "mcp":
    // The stdio MCP relay (src/mcp-cli.ts); use `npm run --silent mcp -- ...` so npm prints nothing on stdout.
    await sequence([["src/mcp-cli.ts", ...process.argv.slice(3)]]);
    break;
  default:
    console.error(
      `Unknown task "${task}". Use start, dev, test, test:postgres, lint, build, bench, backup, restore, admin, mcp or migrate-to-postgres.`,
    );
    process.exit(2);
}
