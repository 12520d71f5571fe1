import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Starts src/main.ts as a self-hoster would, and answers what it printed and how it ended. */
async function startEngram(env: Record<string, string>) {
  const child = Bun.spawn([process.execPath, "src/main.ts"], {
    cwd: join(import.meta.dir, "../.."),
    env: { ...process.env, HOST: "127.0.0.1", ENGRAM_MODE: "production", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const timer = setTimeout(() => child.kill(), 20_000); // a start that did not fail: stop it
  const exitCode = await child.exited;
  clearTimeout(timer);
  return { exitCode, stderr: await new Response(child.stderr).text(), stdout: await new Response(child.stdout).text() };
}

describe("start-up problems are one clear line", () => {
  const folder = mkdtempSync(join(tmpdir(), "engram-startup-"));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  test("a port already in use", async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const result = await startEngram({ PORT: String(port), ENGRAM_DATA_DIR: join(folder, "data") });
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toBe(`Engram cannot start: port ${port} is already in use (set PORT to another port).\n`);
    } finally {
      taken.close();
    }
  }, 30_000);

  test("a data folder that cannot be created", async () => {
    const file = join(folder, "a-file");
    writeFileSync(file, "");
    const result = await startEngram({ PORT: "0", ENGRAM_DATA_DIR: join(file, "data") });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe(
      `Engram cannot start: the data folder ${join(file, "data")} is not writable (a file is in the way; set ENGRAM_DATA_DIR to another folder)\n`,
    );
  }, 30_000);
});
