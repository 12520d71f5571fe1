import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";

/**
 * Several Engram processes started from one installation share build/client: a second start must
 * neither rebuild what is up to date nor take away the bundle a running server is serving.
 */
const root = join(import.meta.dir, "../..");
const client = join(root, "build/client");
const build = (...args: string[]) =>
  Bun.spawn([process.execPath, "scripts/build-client.ts", ...args], { cwd: root, stdout: "pipe", stderr: "pipe" });

/** What a running server would find missing right now: the manifest, or a file it names. */
function missingFromBundle(): string[] {
  try {
    const manifest = JSON.parse(readFileSync(join(client, "manifest.json"), "utf8")) as { files: Record<string, string> };
    return Object.values(manifest.files).filter((name) => !existsSync(join(client, name)));
  } catch {
    return ["manifest.json"];
  }
}

/** Every file the bundle names, sorted. */
function bundleFiles(): string[] {
  const manifest = JSON.parse(readFileSync(join(client, "manifest.json"), "utf8")) as { files: Record<string, string> };
  return Object.values(manifest.files).sort();
}

describe("one installation, several starts", () => {
  test("two builds at once: the bundle stays whole throughout, every file keeps its name, and a start after them skips the build", async () => {
    const first = build();
    expect(await first.exited).toBe(0);
    const files = bundleFiles();
    expect(files.some((name) => /^vendor-\w+\.js$/.test(name))).toBe(true);

    const builds = [build("--force"), build("--force")];
    const seenMissing = new Set<string>();
    let running = true;
    const done = Promise.all(builds.map((b) => b.exited)).finally(() => {
      running = false;
    });
    while (running) {
      for (const name of missingFromBundle()) seenMissing.add(name);
      await Bun.sleep(5);
    }
    expect(await done).toEqual([0, 0]);
    expect([...seenMissing]).toEqual([]);
    // The same sources give the same file names from build to build: a server started on one
    // bundle finds its files in the next, and browsers keep their cached copies.
    expect(bundleFiles()).toEqual(files);
    expect(readdirSync(join(root, "build")).filter((name) => /^(client|entries)-/.test(name))).toEqual([]);
    expect(readlinkSync(client)).toStartWith("bundle-");

    const again = build();
    expect(await again.exited).toBe(0);
    expect(await new Response(again.stdout).text()).toStartWith("Client bundle up to date");
  }, 180_000);
});
