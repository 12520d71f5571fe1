/**
 * The platform bench: what every request pays in Engram (security headers, the cross-site check,
 * session authentication, the error contract) and what every page pays (React streaming SSR of the
 * document and the shell), as throughput ratios against the bare Elysia and Elysia + sqlite
 * baselines measured in the same run.
 *
 *   GET /api/user/current-user-info   signed in as old_learner (session cookie)
 *   GET /                             the server-rendered home page, signed in
 */
import { type Bench, type Goal, load, type ServerHandle, signIn, startEngram } from "./harness";

/**
 * Regression guards, set at about two thirds of what a 2-core machine measured when this bench was
 * written (API 0.15-0.17× sqlite, home page 0.029-0.033× bare); raise them as the platform gets faster.
 */
const API_GOAL: Goal = { against: "sqlite", minRatio: 0.1 };
const PAGE_GOAL: Goal = { against: "bare", minRatio: 0.02 };

/** Fetches once and checks the answer really is the signed-in one (not a redirect or an error page). */
async function expectSignedIn(server: ServerHandle, path: string, cookie: string, mustContain: string) {
  const response = await fetch(server.url + path, { headers: { cookie }, redirect: "manual" });
  const text = await response.text();
  if (response.status !== 200 || !text.includes(mustContain)) {
    throw new Error(`GET ${path} is not the signed-in answer (${response.status}): ${text.slice(0, 300)}`);
  }
}

export const platform: Bench = {
  name: "platform",
  description: "signed-in GET /api/user/current-user-info and the server-rendered home page GET /",
  async run({ reporter, settings, baselines }) {
    await baselines();
    const server = await startEngram();
    try {
      const cookie = await signIn(server, "old_learner");
      await expectSignedIn(server, "/api/user/current-user-info", cookie, `"Old Learner"`);
      await expectSignedIn(server, "/", cookie, "Welcome Old Learner!");

      reporter.section("platform");
      const api = await load({ url: `${server.url}/api/user/current-user-info`, headers: { cookie }, pid: server.pid }, settings);
      reporter.row("GET /api/user/current-user-info (signed in)", api, API_GOAL);
      const home = await load({ url: `${server.url}/`, headers: { cookie }, pid: server.pid }, settings);
      reporter.row("GET / home page SSR (signed in)", home, PAGE_GOAL);
    } finally {
      await server.stop();
    }
  },
};
