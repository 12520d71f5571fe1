/**
 * Starts a real Engram process for a test file (its own port and temp data folder) and gives
 * Playwright tests its URL. Mode "production" is a fresh instance as a self-hoster gets it;
 * "test" has the test hooks and the /users/identify login.
 */

import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { test as base, expect, type Page } from "@playwright/test";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

export interface EngramServer {
  url: string;
  stop(): Promise<void>;
}

export async function startEngram(mode: "production" | "test", env: Record<string, string> = {}): Promise<EngramServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), "engram-e2e-"));
  const child: ChildProcess = spawn(join(root, "node_modules/.bin/bun"), ["src/main.ts"], {
    cwd: root,
    env: { ...process.env, ENGRAM_MODE: mode, PORT: String(port), HOST: "127.0.0.1", ENGRAM_DATA_DIR: dataDir, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    try {
      if ((await fetch(`${url}/api/healthcheck`)).ok) break;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`Engram did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    async stop() {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A test file's fixtures: one Engram server per worker, in the mode the file asks for. */
export function engramTest(mode: "production" | "test") {
  return base.extend<{ engram: EngramServer }, { engramServer: EngramServer }>({
    engramServer: [
      // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's first parameter as an object pattern, even an empty one.
      async ({}, use) => {
        const server = await startEngram(mode);
        await use(server);
        await server.stop();
      },
      { scope: "worker" },
    ],
    engram: async ({ engramServer }, use) => use(engramServer),
    // Every goto and reload waits for the islands to hydrate, as a person waits for the page to load.
    page: async ({ page }, use) => {
      const goto = page.goto.bind(page);
      const reload = page.reload.bind(page);
      page.goto = async (...args: Parameters<Page["goto"]>) => {
        const response = await goto(...args);
        if (response?.headers()["content-type"]?.includes("text/html")) await waitForHydration(page);
        return response;
      };
      page.reload = async (...args: Parameters<Page["reload"]>) => {
        const response = await reload(...args);
        await waitForHydration(page);
        return response;
      };
      await use(page);
    },
  });
}

/**
 * Saves a screenshot worth showing people under $ENGRAM_SHOTS_DIR as `<name>.png`, when that is set
 * (nothing is compared: the tests assert what they check; these are for looking at).
 */
export async function showcase(page: Page, name: string, options: { fullPage?: boolean } = {}) {
  const folder = process.env.ENGRAM_SHOTS_DIR;
  if (folder) await page.screenshot({ path: join(folder, `${name}.png`), fullPage: options.fullPage ?? false });
}

/** Non-production: resets the data to the test profiles. */
export async function resetTestData(url: string) {
  const response = await fetch(`${url}/api/testability/clean_db_and_reset_testability_settings`, { method: "POST" });
  if (!response.ok) throw new Error(`reset failed: ${response.status}`);
}

/** Signs in through the non-production login page, as a person would. */
export async function signInThroughIdentifyPage(page: Page, url: string, username: string, from = "/") {
  await page.goto(`${url}/users/identify?from=${encodeURIComponent(from)}`);
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill("password");
  await page.getByRole("button", { name: "Login" }).click();
  await waitForHydration(page);
}

/** Waits until every island of the page has hydrated (typing before that may be reset by React). */
export async function waitForHydration(page: Page) {
  await page.locator("body[data-hydrated]").waitFor({ state: "attached" });
}

/** Calls a test hook and answers its JSON, or its text when it is not JSON. */
export async function testability(page: Page, url: string, path: string, data?: unknown) {
  const response = await page.request.post(`${url}/api/testability/${path}`, { data: data ?? {} });
  if (!response.ok()) throw new Error(`${path}: ${response.status()} ${await response.text()}`);
  const text = await response.text();
  return text.startsWith("{") || text.startsWith("[") ? JSON.parse(text) : text;
}

/** Injects notes for a user (old_learner unless told); answers each title's note id. */
export async function injectNotes(
  page: Page,
  url: string,
  rows: Record<string, string>[],
  user = "old_learner",
): Promise<Record<string, number>> {
  return testability(page, url, "inject_notes", { externalIdentifier: user, circleName: null, noteTestData: rows });
}

/** "Day D, hour H" of the test hooks, in UTC. */
export const dayHour = (day: number, hour = 8) => new Date(Date.UTC(1976, 5, 1 + day, hour)).toISOString();

/** Signs up through the sign-up page and creates the profile, as a newcomer does; ends on the welcome page. */
export async function signUpThroughPages(page: Page, url: string, username: string, password: string, nickname: string) {
  await page.goto(`${url}/users/sign-up`);
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign up" }).click();
  await waitForHydration(page);
  await page.getByLabel("Nickname").fill(nickname);
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByRole("heading", { name: `Welcome ${nickname}!` })).toBeVisible();
  await waitForHydration(page);
}

/** The routes every fake gets: POST /script queues JSON replies by schema name; GET /uploaded-files shows the fine-tuning uploads. */
const STANDARD_FAKE_ROUTES = `
  fake.on("POST", "/script", (request) => {
    for (const { schemaName, value } of request.body) fake.chat.respondWithJson(value, { match: { schemaName } });
    return Response.json({ pending: fake.chat.pending });
  });
  fake.on("GET", "/uploaded-files", () => Response.json({ files: fake.files, jobs: fake.fineTuningJobs }));`;

/**
 * The fake OpenAI server (tests/fakes/openai.ts) in a Bun child process, since Playwright runs in
 * Node. `routes` is code that adds a test file's own scripting routes to `fake`; `options` is the
 * startFakeOpenAI options as source text. Stop it with `process.kill()`.
 */
export async function startFakeOpenAIProcess(routes = "", options = "{}"): Promise<{ url: string; process: ChildProcess }> {
  const code = `
    import { startFakeOpenAI } from ${JSON.stringify(join(root, "tests/fakes/openai.ts"))};
    const fake = await startFakeOpenAI(${options});
    ${STANDARD_FAKE_ROUTES}
    ${routes}
    console.log(fake.url);`;
  const child = spawn(join(root, "node_modules/.bin/bun"), ["-e", code], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on("data", (chunk) => {
      output += chunk;
      const match = /http:\/\/127\.0\.0\.1:\d+\/v1/.exec(output);
      if (match) resolve(match[0]);
    });
    child.stderr!.on("data", (chunk) => (output += chunk));
    child.once("exit", () => reject(new Error(`fake OpenAI did not start:\n${output}`)));
  });
  return { url, process: child };
}

/**
 * Engram in test mode whose AI provider is a fake OpenAI server in its own process (routes and
 * options as startFakeOpenAIProcess takes them), both for the enclosing describe block. The
 * objects answered are filled in when both have started; each test points Engram at `fake.url`.
 */
export function useEngramWithFakeOpenAI(routes = "", options = "{}") {
  const ai = {} as EngramServer;
  const fake = {} as { url: string; process: ChildProcess };
  base.beforeAll(async () => {
    Object.assign(fake, await startFakeOpenAIProcess(routes, options));
    Object.assign(ai, await startEngram("test", { OPENAI_API_KEY: "test-key" }));
  });
  base.afterAll(async () => {
    await ai.stop?.();
    fake.process?.kill("SIGTERM");
  });
  return { ai, fake };
}
