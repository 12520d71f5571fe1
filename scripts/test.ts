/**
 * `npm test`: every check, in order — lint (`npm run lint`: Biome's lint, format and import order), type check, client build, unit, store and API tests (bun test,
 * real server on temp SQLite files), DOM tests (bun test with happy-dom, run separately because
 * a global DOM breaks server code), and Playwright end-to-end tests in Debian's chromium.
 * Ends with one line "N passed, N failed". Arguments: --skip-e2e, --only-e2e.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dir, "..");
const args = new Set(process.argv.slice(2));
const bun = process.execPath;
let passed = 0;
let failed = 0;
let broken = false;
/** The failed tests' names, repeated at the end: CI keeps only the tail of a long run's output. */
const failures: string[] = [];

async function run(label: string, cmd: string[], parse?: (output: string) => void, env: Record<string, string> = {}) {
  console.log(`\n▶ ${label}`);
  const child = Bun.spawn(cmd, { cwd: root, stdout: "pipe", stderr: "pipe", env: { ...process.env, ...env } });
  let output = "";
  const pump = async (stream: ReadableStream<Uint8Array>, sink: NodeJS.WriteStream) => {
    const decoder = new TextDecoder();
    const reader = stream.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const text = decoder.decode(value, { stream: true });
      output += text;
      sink.write(text);
    }
  };
  await Promise.all([pump(child.stdout, process.stdout), pump(child.stderr, process.stderr)]);
  const code = await child.exited;
  parse?.(output);
  if (code !== 0) {
    broken = true;
    console.error(`✗ ${label} failed (exit ${code})`);
  }
}

const count = (output: string, pattern: RegExp) => [...output.matchAll(pattern)].reduce((sum, m) => sum + Number(m[1]), 0);
const parseBunTest = (output: string) => {
  passed += count(output, /^\s*(\d+) pass$/gm);
  failed += count(output, /^\s*(\d+) fail$/gm);
  failures.push(...(output.match(/^\(fail\) .*$/gm) ?? []));
};
const parsePlaywright = (output: string) => {
  passed += count(output, /^\s*(\d+) passed/gm);
  failed += count(output, /^\s*(\d+) failed/gm);
  // Playwright's summary lists each failed (and flaky) test under its count, indented.
  failures.push(...(output.match(/^\s+(?:\[\w+\] › )?tests\/\S+:\d+:\d+ › .*$/gm) ?? []).map((line) => line.trim()));
};

const hasTests = (dir: string) => existsSync(join(root, dir)) && readdirSync(join(root, dir)).some((f) => /\.test\.tsx?$/.test(f));

if (!args.has("--only-e2e")) {
  await run("Lint", ["node", "scripts/npm-run.mjs", "lint"]);
  await run("Type check", [bun, "node_modules/typescript/bin/tsc", "--noEmit", "-p", "."]);
  await run("Client bundle", [bun, "scripts/build-client.ts"]);
  // 20 s per test and hook (bun's default is 5 s): every API suite starts a real server and resets its database before each
  // test, which a busy 2-core machine can take longer than 5 s to do. Timing goals live in the bench, not here.
  await run("Unit, store and API tests", [bun, "test", "--timeout", "20000", "tests/unit", "tests/stores", "tests/api"], parseBunTest);
  if (hasTests("tests/dom")) {
    await run("DOM tests", [bun, "test", "--timeout", "20000", "--preload", "./tests/dom/setup.ts", "tests/dom"], parseBunTest);
  }
}
if (!args.has("--skip-e2e")) {
  const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  if (!existsSync(chromium)) {
    console.error(`\n✗ End-to-end tests need Debian's chromium at ${chromium}: run  sudo apt-get install -y chromium`);
    broken = true;
  } else {
    if (args.has("--only-e2e")) await run("Client bundle", [bun, "scripts/build-client.ts"]);
    await run("End-to-end tests (Playwright, chromium)", ["node", "node_modules/@playwright/test/cli.js", "test"], parsePlaywright);
  }
}

if (failures.length) console.log(`\nFailed or flaky:\n${[...new Set(failures)].join("\n")}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(broken || failed > 0 ? 1 : 0);
