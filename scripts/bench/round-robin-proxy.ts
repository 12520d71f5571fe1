/**
 * A tiny loopback load balancer for the postgres bench: each request goes to the next of the
 * PROXY_UPSTREAMS (comma-separated base URLs) in turn, as Caddy's round robin does in compose.yaml.
 * Answers pass through untouched (still compressed, redirects not followed). Listens on HOST:PORT;
 * stops itself when ENGRAM_PARENT_PID (the bench) is gone.
 */
const upstreams = (process.env.PROXY_UPSTREAMS ?? "")
  .split(",")
  .map((url) => url.trim().replace(/\/$/, ""))
  .filter(Boolean);
if (upstreams.length === 0) throw new Error("PROXY_UPSTREAMS names no upstream");

let next = 0;
const server = Bun.serve({
  port: Number(process.env.PORT ?? 0),
  hostname: process.env.HOST ?? "127.0.0.1",
  async fetch(request) {
    const url = new URL(request.url);
    const upstream = upstreams[next++ % upstreams.length]!;
    const hasBody = request.method !== "GET" && request.method !== "HEAD";
    return fetch(`${upstream}${url.pathname}${url.search}`, {
      method: request.method,
      headers: request.headers,
      body: hasBody ? await request.arrayBuffer() : undefined,
      redirect: "manual",
      decompress: false,
    });
  },
});
console.log(`Round-robin proxy on http://${server.hostname}:${server.port} → ${upstreams.join(", ")}`);

const parent = Number(process.env.ENGRAM_PARENT_PID);
if (parent > 1) {
  setInterval(() => {
    try {
      process.kill(parent, 0);
    } catch {
      process.exit(0);
    }
  }, 1000).unref();
}
