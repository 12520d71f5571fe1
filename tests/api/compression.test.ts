/**
 * Bytes: text answers go out Brotli-, gzip- or (dynamic ones) Zstandard-compressed by Accept-Encoding and decompress
 * to the same bytes as the identity answer; hashed assets are served from their precompressed twins
 * with Cache-Control immutable; event streams (the MCP endpoint) are never compressed.
 * Raw bytes come through node:http, which (unlike fetch) does not decompress on its own.
 */
import { describe, expect, test } from "bun:test";
import { request as httpRequest } from "node:http";
import { brotliDecompressSync, gunzipSync, zstdDecompressSync } from "node:zlib";
import {
  DYNAMIC_BROTLI_MIN_BYTES,
  dynamicEncoding,
  MIN_COMPRESS_BYTES,
  MIN_COMPRESS_JSON_BYTES,
  minCompressBytes,
  negotiateEncoding,
} from "../../src/web/compression";
import { injectNotes } from "../support/notes";
import { useTestServer } from "../support/server";

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function raw(url: string, headers: Record<string, string> = {}, method = "GET", body?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    if (body) req.write(body);
    req.end();
  });
}

function decode(answer: Raw): Buffer {
  const encoding = answer.headers["content-encoding"];
  if (encoding === "br") return brotliDecompressSync(answer.body);
  if (encoding === "gzip") return gunzipSync(answer.body);
  if (encoding === "zstd") return zstdDecompressSync(answer.body);
  expect(encoding).toBeUndefined();
  return answer.body;
}

/** React Query stamps each prefetched query with the time it was set: the only part of a page that changes between two renders. */
const withoutTimestamps = (html: string) => html.replace(/"(dataUpdatedAt|errorUpdatedAt|dehydratedAt)":\d+/g, '"$1":0');

describe("negotiateEncoding", () => {
  test("prefers Brotli, falls back to gzip, honours q=0 and *", () => {
    expect(negotiateEncoding("gzip, deflate, br, zstd")).toBe("br");
    expect(negotiateEncoding("gzip")).toBe("gzip");
    expect(negotiateEncoding("br;q=0, gzip;q=0.5")).toBe("gzip");
    expect(negotiateEncoding("identity")).toBeUndefined();
    expect(negotiateEncoding("*")).toBe("br");
    expect(negotiateEncoding("*, br;q=0")).toBe("gzip");
    expect(negotiateEncoding(null)).toBeUndefined();
    expect(negotiateEncoding("gzip, br", ["gzip", "br"])).toBe("gzip");
    expect(negotiateEncoding("br", ["gzip", "br"])).toBe("br");
  });

  test("a dynamic answer of a few kilobytes is Zstandard- or gzip-compressed when accepted, a large one Brotli-compressed", () => {
    const browser = "gzip, deflate, br, zstd";
    expect(dynamicEncoding(browser, MIN_COMPRESS_BYTES - 1)).toBeUndefined();
    expect(dynamicEncoding(browser, 20_000)).toBe("zstd");
    expect(dynamicEncoding("gzip, deflate, br", 20_000)).toBe("gzip");
    expect(dynamicEncoding("zstd", 20_000)).toBe("zstd");
    expect(dynamicEncoding(browser, DYNAMIC_BROTLI_MIN_BYTES)).toBe("br");
    expect(dynamicEncoding("zstd", DYNAMIC_BROTLI_MIN_BYTES)).toBe("zstd");
    expect(dynamicEncoding("br", 20_000)).toBe("br");
    expect(dynamicEncoding("gzip", DYNAMIC_BROTLI_MIN_BYTES)).toBe("gzip");
    expect(dynamicEncoding("identity", 20_000)).toBeUndefined();
  });

  test("a JSON answer of a few kilobytes goes out as it is; a page of that size is compressed", () => {
    const browser = "gzip, deflate, br, zstd";
    expect(minCompressBytes("application/json;charset=utf-8")).toBe(MIN_COMPRESS_JSON_BYTES);
    expect(minCompressBytes("application/problem+json")).toBe(MIN_COMPRESS_JSON_BYTES);
    expect(minCompressBytes("text/html;charset=utf-8")).toBe(MIN_COMPRESS_BYTES);
    expect(dynamicEncoding(browser, 5_000, minCompressBytes("application/json"))).toBeUndefined();
    expect(dynamicEncoding(browser, MIN_COMPRESS_JSON_BYTES, minCompressBytes("application/json"))).toBe("zstd");
    expect(dynamicEncoding(browser, 5_000, minCompressBytes("text/html"))).toBe("zstd");
  });
});

describe("compressed answers", () => {
  const server = useTestServer();

  async function cookieOf(name: string) {
    const answer = await raw(`${server.url}/api/healthcheck`, {
      authorization: `Basic ${btoa(`${name}:password`)}`,
      "accept-encoding": "br",
    });
    const cookies = answer.headers["set-cookie"] ?? [];
    // Elysia adds the cookies once, after the compression hook: never twice.
    expect(cookies.length).toBe(1);
    return cookies[0]!.split(";")[0]!;
  }

  test("JSON decompresses to the same bytes as the identity answer, in Brotli, gzip and Zstandard", async () => {
    const learner = await server.client().loginAs("old_learner");
    const rows = [
      { Title: "Big" },
      ...Array.from({ length: 40 }, (_, i) => ({ Title: `Child ${i}`, "Parent Title": "Big", Details: `Details of child ${i}` })),
    ];
    const ids = await injectNotes(learner, rows);
    const cookie = await cookieOf("old_learner");
    const url = `${server.url}/api/notes/${ids.Big}`;
    const plain = await raw(url, { cookie });
    expect(plain.status).toBe(200);
    expect(plain.body.length).toBeGreaterThanOrEqual(MIN_COMPRESS_JSON_BYTES);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers.vary).toContain("accept-encoding");
    for (const encoding of ["br", "gzip", "zstd"]) {
      const packed = await raw(url, { cookie, "accept-encoding": encoding });
      expect(packed.status).toBe(200);
      expect(packed.headers["content-encoding"]).toBe(encoding);
      expect(packed.headers["content-type"]).toContain("application/json");
      expect(packed.headers["x-content-type-options"]).toBe("nosniff");
      expect(packed.body.length).toBeLessThan(plain.body.length / 2);
      expect(decode(packed).equals(plain.body)).toBe(true);
    }
    // A browser's Accept-Encoding: the answer of a few kilobytes is Zstandard-compressed (gzip
    // without zstd), a large one Brotli-compressed.
    expect((await raw(url, { cookie, "accept-encoding": "gzip, deflate, br, zstd" })).headers["content-encoding"]).toBe("zstd");
    expect((await raw(url, { cookie, "accept-encoding": "gzip, deflate, br" })).headers["content-encoding"]).toBe("gzip");
    const long = await injectNotes(learner, [{ Title: "Long", Details: Array.from({ length: 9000 }, (_, i) => `word${i}`).join(" ") }]);
    const longUrl = `${server.url}/api/notes/${long.Long}`;
    const longPlain = await raw(longUrl, { cookie });
    expect(longPlain.body.length).toBeGreaterThan(DYNAMIC_BROTLI_MIN_BYTES);
    const longPacked = await raw(longUrl, { cookie, "accept-encoding": "gzip, deflate, br" });
    expect(longPacked.headers["content-encoding"]).toBe("br");
    expect(decode(longPacked).equals(longPlain.body)).toBe(true);
  });

  test("a search answer of a few kilobytes goes out uncompressed, whatever the browser accepts", async () => {
    const learner = await server.client().loginAs("old_learner");
    await injectNotes(learner, [
      { Title: "Zebra root" },
      ...Array.from({ length: 30 }, (_, i) => ({
        Title: `Ze ${i}`,
        "Parent Title": "Zebra root",
        Details: `Stripes number ${i} `.repeat(5),
      })),
    ]);
    const cookie = await cookieOf("old_learner");
    const body = JSON.stringify({ searchKey: "ze", allMyNotebooksAndSubscriptions: true, allMyCircles: false });
    const headers = { cookie, "content-type": "application/json" };
    const plain = await raw(`${server.url}/api/notes/search`, headers, "POST", body);
    const asked = await raw(`${server.url}/api/notes/search`, { ...headers, "accept-encoding": "gzip, deflate, br, zstd" }, "POST", body);
    expect(asked.status).toBe(200);
    expect((JSON.parse(plain.body.toString()) as unknown[]).length).toBe(30);
    expect(plain.body.length).toBeGreaterThan(MIN_COMPRESS_BYTES);
    expect(plain.body.length).toBeLessThan(MIN_COMPRESS_JSON_BYTES);
    expect(asked.headers["content-encoding"]).toBeUndefined();
    expect(asked.headers.vary).toContain("accept-encoding");
    expect(asked.body.equals(plain.body)).toBe(true);
  });

  test("server-rendered pages are compressed, the not-found page too", async () => {
    const cookie = await cookieOf("old_learner");
    const plain = await raw(`${server.url}/`, { cookie });
    const packed = await raw(`${server.url}/`, { cookie, "accept-encoding": "gzip, deflate, br" });
    expect(packed.status).toBe(200);
    // A page of a few kilobytes: gzip, as small as Brotli here and faster to make.
    expect(packed.headers["content-encoding"]).toBe("gzip");
    expect(packed.headers["content-type"]).toContain("text/html");
    expect(withoutTimestamps(decode(packed).toString())).toBe(withoutTimestamps(plain.body.toString()));
    expect(decode(packed).toString()).toContain("Welcome Old Learner!");

    const missing = await raw(`${server.url}/no-such-page`, { "accept-encoding": "gzip" });
    expect(missing.status).toBe(404);
    expect(missing.headers["content-encoding"]).toBe("gzip");
    expect(decode(missing).toString()).toContain("<html");
  });

  test("hashed assets come from their precompressed twins, immutable, identical once decompressed", async () => {
    const page = (await raw(`${server.url}/users/identify`)).body.toString();
    const urls = [...page.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!);
    expect(urls.some((url) => url.endsWith(".js"))).toBe(true);
    expect(urls.some((url) => url.endsWith(".css"))).toBe(true);
    for (const url of urls) {
      const plain = await raw(server.url + url);
      expect(plain.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      for (const encoding of ["br", "gzip"]) {
        const packed = await raw(server.url + url, { "accept-encoding": encoding });
        expect(packed.headers["content-encoding"]).toBe(encoding);
        expect(packed.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
        expect(packed.headers["content-type"]).toBe(plain.headers["content-type"]);
        expect(decode(packed).equals(plain.body)).toBe(true);
      }
    }
    // The twins are not assets of their own.
    expect((await raw(`${server.url}${urls[0]}.br`)).status).toBe(404);
  });

  test("the favicon (SVG) is compressed", async () => {
    const plain = await raw(`${server.url}/favicon.svg`);
    const packed = await raw(`${server.url}/favicon.svg`, { "accept-encoding": "gzip" });
    if (plain.body.length >= 256) expect(packed.headers["content-encoding"]).toBe("gzip");
    expect(decode(packed).equals(plain.body)).toBe(true);
  });

  test("the MCP endpoint's event stream is passed through uncompressed and still streams", async () => {
    const learner = await server.client().loginAs("old_learner");
    const token = (await learner.post("/api/user/generate-token", { label: "Stream" })).body.token as string;
    const initialize = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "test", version: "1" } },
    });
    const answer = await raw(
      `${server.url}/api/mcp`,
      {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "accept-encoding": "gzip, br",
      },
      "POST",
      initialize,
    );
    expect(answer.status).toBe(200);
    expect(answer.headers["content-type"]).toContain("text/event-stream");
    expect(answer.headers["content-encoding"]).toBeUndefined();
    const text = answer.body.toString();
    expect(text).toContain("event: message");
    expect(text).toContain('"serverInfo"');
  });
});
