import { defineConfig } from "@playwright/test";

/**
 * End-to-end tests: a real Engram server (started per test file, see tests/e2e/support.ts) and
 * Debian's chromium. Never let Playwright download a browser of its own.
 */
export default defineConfig({
  testDir: "tests/e2e",
  testMatch: /.*\.e2e\.ts$/,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  // One retry: on a busy 2-core machine a page can miss a 10 s expectation now and then. A test
  // that needed it is reported as "flaky" in the output (look at those); one that fails twice fails.
  retries: 1,
  reporter: [["list"]],
  outputDir: "test-results",
  use: {
    browserName: "chromium",
    headless: true,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
    screenshot: "only-on-failure",
    trace: "off",
  },
});
