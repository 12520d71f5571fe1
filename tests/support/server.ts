/**
 * Starts a real Engram server for API tests: a fresh SQLite file in a temp folder (or, when
 * ENGRAM_TEST_DATABASE_URL is set, a fresh PostgreSQL database on that server, dropped when the
 * server stops), real HTTP on a free port. `http` is a tiny client that keeps the session cookie
 * like a browser would.
 */

import { afterAll, beforeAll, beforeEach } from "bun:test";
import { appendFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { buildClient } from "../../scripts/build-client";
import { type Config, readConfig } from "../../src/config";
import { type AppContext, createContext, type SqliteAppContext } from "../../src/context";
import { createApp } from "../../src/server";
import { rawRun } from "../../src/store/session";
import { type FakeOpenAI, type FakeOpenAIOptions, startFakeOpenAI } from "../fakes";
import { contractViolations, recordResponsesOf, takeResponsesOf } from "./contract";
import { freshPostgresDatabase, postgresTestUrl } from "./database-under-test";
import { SQLITE_ONLY_HINT } from "./sqlite-only";

/**
 * The server's context as tests see it: `db` and `sqlite` read the SQLite file directly; on
 * PostgreSQL they throw, saying the test is SQLite-only (tests/support/sqlite-only.ts).
 */
export type TestContext = AppContext & Pick<SqliteAppContext, "db" | "sqlite">;

function testContext(ctx: AppContext): TestContext {
  if ("db" in ctx) return ctx as SqliteAppContext;
  const refuse = (): never => {
    throw new Error(`This test reads the SQLite database directly (ctx.db, ctx.sqlite), and runs on PostgreSQL: ${SQLITE_ONLY_HINT}`);
  };
  return Object.defineProperties(ctx, { db: { get: refuse }, sqlite: { get: refuse } }) as TestContext;
}

export interface TestServer {
  url: string;
  ctx: TestContext;
  /** A new client with its own cookie jar. */
  client(): HttpClient;
  stop(): Promise<void>;
}

let clientBuilt: Promise<unknown> | undefined;
async function ensureClientBundle() {
  if (existsSync(join(import.meta.dir, "../../build/client/manifest.json"))) return;
  clientBuilt ??= buildClient();
  await clientBuilt;
}

export async function startTestServer(env: Record<string, string> = {}): Promise<TestServer> {
  await ensureClientBundle();
  const dataDir = mkdtempSync(join(tmpdir(), "engram-test-"));
  const postgres = postgresTestUrl() ? await freshPostgresDatabase(postgresTestUrl()!) : undefined;
  const config: Config = readConfig({
    ENGRAM_MODE: "test",
    ENGRAM_DATA_DIR: dataDir,
    PORT: "0",
    ...(postgres ? { ENGRAM_DATABASE_URL: postgres.url, ENGRAM_DATABASE_POOL_SIZE: "5" } : {}),
    ...env,
  });
  const ctx = testContext(await createContext(config));
  const app = createApp(ctx).listen({ port: 0, hostname: "127.0.0.1" });
  const url = `http://127.0.0.1:${app.server!.port}`;
  recordResponsesOf(url);
  return {
    url,
    ctx,
    client: () => new HttpClient(url),
    /** Stops the server, then fails when a JSON answer it gave differs from the wire contract (./contract.ts). */
    async stop() {
      const responses = await takeResponsesOf(url);
      await app.stop(true);
      await ctx.database.close();
      await postgres?.drop();
      rmSync(dataDir, { recursive: true, force: true });
      const violations = contractViolations(responses);
      if (process.env.CONTRACT_REPORT) appendFileSync(process.env.CONTRACT_REPORT, violations.map((line) => `${line}\n`).join(""));
      if (violations.length > 0) {
        throw new Error(
          `Answers that differ from the reference contract (list deliberate ones in ANSWER_DIFFERENCES, tests/api/openapi-differences.ts):\n${violations.join("\n")}`,
        );
      }
    },
  };
}

/** Forgets every sign-in attempt counted so far, on either database. */
export function clearSignInLimits(server: TestServer): Promise<unknown> {
  return server.ctx.database.write((s) => rawRun(s, sql`DELETE FROM ${s.t.signInLimits}`));
}

/** Empties the database and recreates the test profiles (the clean_db hook). */
export async function resetTestData(server: TestServer) {
  const result = await server.client().post("/api/testability/clean_db_and_reset_testability_settings");
  if (result.status !== 200) throw new Error(`reset failed: ${result.status}`);
}

/**
 * One real server for the enclosing describe block: started before its tests and stopped after;
 * unless `resetBeforeEach` is false, its data is reset to the test profiles before each test.
 * The object answered is filled in when the server has started.
 */
export function useTestServer(env: Record<string, string> = {}, { resetBeforeEach = true } = {}): TestServer {
  const server = {} as TestServer;
  beforeAll(async () => {
    Object.assign(server, await startTestServer(env));
  });
  afterAll(() => server.stop());
  if (resetBeforeEach) beforeEach(() => resetTestData(server));
  return server;
}

/**
 * One real server whose AI provider is a fake OpenAI server (tests/fakes), both for the enclosing
 * describe block. Before each test the fake forgets its requests and scripted answers, the data is
 * reset to the test profiles and the server is pointed at the fake. The objects answered are
 * filled in when both have started.
 */
export function useTestServerWithFakeOpenAI(options: FakeOpenAIOptions = {}): { server: TestServer; fake: FakeOpenAI } {
  const server = {} as TestServer;
  const fake = {} as FakeOpenAI;
  beforeAll(async () => {
    // Property descriptors, not values: the fake's getters and setters (models, apiKey) stay live.
    Object.defineProperties(fake, Object.getOwnPropertyDescriptors(await startFakeOpenAI(options)));
    Object.assign(server, await startTestServer({ OPENAI_API_KEY: "test-key" }));
  }, 30_000);
  afterAll(async () => {
    await server.stop();
    await fake.stop();
  });
  beforeEach(async () => {
    fake.reset();
    await resetTestData(server);
    await server.client().post("/api/testability/replace_service_url", { openAi: fake.url });
  });
  return { server, fake };
}

/**
 * A JSON body as a test reads it: field by field, each checked by an expect. The one loose type of
 * the tests; a test that wants the route's type passes it (client.get<NoteRealmJson>(...)).
 */
// biome-ignore lint/suspicious/noExplicitAny: bodies of any route, read loosely and checked with expect (see above).
export type Json = any;

export interface HttpResult<T = Json> {
  status: number;
  body: T;
  headers: Headers;
  text: string;
}

export class HttpClient {
  private cookies = new Map<string, string>();
  private bearer: string | undefined;

  constructor(readonly baseUrl: string) {}

  withBearer(token: string) {
    this.bearer = token;
    return this;
  }

  /** Takes another client's cookies (the same browser, reaching another server on the same database). */
  withCookies(other: HttpClient) {
    for (const [name, value] of other.cookies) this.cookies.set(name, value);
    return this;
  }

  get sessionCookie() {
    return this.cookies.get("engram_session");
  }

  async request<T = Json>(
    method: string,
    path: string,
    options: {
      json?: unknown;
      form?: Record<string, string>;
      headers?: Record<string, string>;
    } = {},
  ): Promise<HttpResult<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    if (this.bearer) headers.authorization = `Bearer ${this.bearer}`;
    let body: BodyInit | undefined;
    if (options.json !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(options.json);
    } else if (options.form) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(options.form).toString();
    }
    const response = await fetch(this.baseUrl + path, { method, headers, body, redirect: "manual" });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      const [name, ...rest] = pair!.split("=");
      const value = rest.join("=");
      if (!value || /expires=Thu, 01 Jan 1970/i.test(cookie) || /max-age=0/i.test(cookie)) this.cookies.delete(name!.trim());
      else this.cookies.set(name!.trim(), value);
    }
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, body: parsed as T, headers: response.headers, text };
  }

  get<T = Json>(path: string, headers?: Record<string, string>) {
    return this.request<T>("GET", path, { headers });
  }
  post<T = Json>(path: string, json: unknown = {}, headers?: Record<string, string>) {
    return this.request<T>("POST", path, { json, headers });
  }
  patch<T = Json>(path: string, json: unknown = {}) {
    return this.request<T>("PATCH", path, { json });
  }
  delete<T = Json>(path: string) {
    return this.request<T>("DELETE", path);
  }

  /** Non-production test login: GET /api/healthcheck with basic auth. */
  async loginAs(name: string, password = "password") {
    const result = await this.get("/api/healthcheck", { authorization: `Basic ${btoa(`${name}:${password}`)}` });
    if (result.status !== 200) throw new Error(`login as ${name} failed: ${result.status} ${result.text}`);
    return this;
  }

  /** Production sign-up through the real form. */
  signUp(username: string, password: string) {
    return this.request("POST", "/users/sign-up", { form: { username, password } });
  }

  signIn(username: string, password: string) {
    return this.request("POST", "/users/sign-in", { form: { username, password } });
  }
}

/** A route of the app as tests walk them (Elysia's own type of `app.routes` grows too deep for the checker). */
export interface RouteInfo {
  method: string;
  path: string;
  hooks?: { body?: unknown };
}

/** Every route of an app built on this context. */
export function appRoutes(ctx: AppContext): RouteInfo[] {
  return (createApp(ctx) as unknown as { routes: RouteInfo[] }).routes;
}
