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

/** The vendor file (React, React DOM, TanStack Query) the bundle names. */
function vendorFile(): string | undefined {
  const manifest = JSON.parse(readFileSync(join(client, "manifest.json"), "utf8")) as { files: Record<string, string> };
  return Object.values(manifest.files).find((name) => /^vendor-\w+\.js$/.test(name));
}

describe("one installation, several starts", () => {
  test("two builds at once: the bundle stays whole throughout, the vendor file keeps its name, and a start after them skips the build", async () => {
    const first = build();
    expect(await first.exited).toBe(0);
    const vendor = vendorFile();
    expect(vendor).toBeDefined();

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
    // The same libraries keep their file's name from build to build (browsers keep their copy).
    expect(vendorFile()).toBe(vendor!);
    expect(readdirSync(join(root, "build")).filter((name) => /^(client|entries)-/.test(name))).toEqual([]);
    expect(readlinkSync(client)).toStartWith("bundle-");

    const again = build();
    expect(await again.exited).toBe(0);
    expect(await new Response(again.stdout).text()).toStartWith("Client bundle up to date");
  }, 180_000);
});
