/**
 * Graceful restarts with a real server process (src/main.ts, as `npm start` runs it): SIGTERM
 * during a sign-up lets the sign-up finish, refuses new connections, exits 0 within the grace
 * and leaves the WAL checkpointed; the account is there after a restart on the same data folder.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { HttpClient } from "../support/server";

interface Running {
  child: Subprocess<"ignore", "pipe", "pipe">;
  port: number;
  /** Resolves when the server has printed a line matching `pattern` (from the start of its output). */
  printed(pattern: RegExp): Promise<string>;
  output(): string;
}

async function startEngram(dataDir: string, env: Record<string, string> = {}): Promise<Running> {
  const child = Bun.spawn([process.execPath, "src/main.ts"], {
    cwd: join(import.meta.dir, "../.."),
    env: { ...process.env, HOST: "127.0.0.1", PORT: "0", ENGRAM_MODE: "production", ENGRAM_DATA_DIR: dataDir, ...env },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  let text = "";
  const waiters: Array<() => void> = [];
  void (async () => {
    const decoder = new TextDecoder();
    const reader = child.stdout.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value);
      for (const wake of waiters.splice(0)) wake();
    }
  })();
  const printed = async (pattern: RegExp) => {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const match = text.match(pattern);
      if (match) return match[0];
      if (Date.now() > deadline || child.exitCode !== null) {
        throw new Error(`no line like ${pattern} in: ${text}${await new Response(child.stderr).text()}`);
      }
      await Promise.race([new Promise<void>((wake) => waiters.push(wake)), Bun.sleep(100)]);
    }
  };
  const running = await printed(/running at http:\/\/127\.0\.0\.1:(\d+)/);
  return { child, port: Number(running.split(":").pop()), printed, output: () => text };
}

/** A raw HTTP/1.1 connection, so the test decides when each part of a request is sent. */
async function openConnection(port: number) {
  const socket: Socket = connect(port, "127.0.0.1");
  let received = "";
  socket.on("data", (data) => (received += data.toString()));
  const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", () => resolve());
    socket.once("error", reject);
  });
  return { socket, closed, received: () => received };
}

function connectionRefused(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve("accepted");
    });
    socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

describe("graceful restarts", () => {
  const folders: string[] = [];
  const children: Subprocess[] = [];
  const newFolder = () => {
    const folder = mkdtempSync(join(tmpdir(), "engram-restart-"));
    folders.push(folder);
    return folder;
  };
  afterAll(() => {
    for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });

  test("SIGTERM during a sign-up: the sign-up completes, new connections are refused, exit 0, the account survives the restart", async () => {
    const dataDir = newFolder();
    const engram = await startEngram(dataDir);
    children.push(engram.child);

    // A sign-up in flight: the headers and half the form are sent, the rest comes after SIGTERM.
    const form = new URLSearchParams({ username: "midrestart", password: "restart-proof password" }).toString();
    const half = Math.floor(form.length / 2);
    const connection = await openConnection(engram.port);
    connection.socket.write(
      `POST /users/sign-up HTTP/1.1\r\nHost: 127.0.0.1:${engram.port}\r\nContent-Type: application/x-www-form-urlencoded\r\n` +
        `Content-Length: ${Buffer.byteLength(form)}\r\nConnection: close\r\n\r\n${form.slice(0, half)}`,
    );
    await Bun.sleep(300);

    const signalledAt = performance.now();
    engram.child.kill("SIGTERM");
    await engram.printed(/Engram is stopping \(SIGTERM\)/);
    expect(await connectionRefused(engram.port)).toBe("ECONNREFUSED");

    connection.socket.write(form.slice(half));
    await connection.closed;
    const response = connection.received();
    expect(response).toStartWith("HTTP/1.1 303");
    expect(response).toMatch(/set-cookie: engram_session=[^;\s]+/i);

    expect(await engram.child.exited).toBe(0);
    expect(performance.now() - signalledAt).toBeLessThan(10_000);
    expect(engram.output()).toContain("Engram stopped.");
    // The WAL was checkpointed into engram.db (TRUNCATE leaves the -wal empty, or SQLite removed it).
    const wal = join(dataDir, "engram.db-wal");
    expect(existsSync(wal) ? statSync(wal).size : 0).toBe(0);

    // Restarted on the same data folder: the account signed up during the shutdown exists.
    const again = await startEngram(dataDir);
    children.push(again.child);
    const client = new HttpClient(`http://127.0.0.1:${again.port}`);
    const signIn = await client.signIn("midrestart", "restart-proof password");
    expect(signIn.status).toBe(303);
    expect(client.sessionCookie).toBeTruthy();
    again.child.kill("SIGTERM");
    expect(await again.child.exited).toBe(0);
  }, 60_000);

  test("a request still running when ENGRAM_SHUTDOWN_GRACE ends is cut off, and Engram exits 0 at the end of the grace", async () => {
    const engram = await startEngram(newFolder(), { ENGRAM_SHUTDOWN_GRACE: "1" });
    children.push(engram.child);
    // An idle keep-alive connection does not hold the shutdown; a request whose body never ends does.
    const idle = new HttpClient(`http://127.0.0.1:${engram.port}`);
    expect((await idle.get("/api/healthcheck")).status).toBe(200);
    const stuck = await openConnection(engram.port);
    stuck.socket.write(
      `POST /users/sign-up HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\nusername=`,
    );
    await Bun.sleep(300);

    const signalledAt = performance.now();
    engram.child.kill("SIGTERM");
    expect(await engram.child.exited).toBe(0);
    const took = performance.now() - signalledAt;
    expect(took).toBeGreaterThanOrEqual(900);
    expect(took).toBeLessThan(5_000);
    await stuck.closed;
    expect(stuck.received()).toBe("");
    expect(await new Response(engram.child.stderr).text()).toContain("cut off");
  }, 60_000);

  test("with nothing in progress, SIGINT stops at once", async () => {
    const engram = await startEngram(newFolder());
    children.push(engram.child);
    const signalledAt = performance.now();
    engram.child.kill("SIGINT");
    expect(await engram.child.exited).toBe(0);
    expect(performance.now() - signalledAt).toBeLessThan(3_000);
    expect(engram.output()).toContain("Engram is stopping (SIGINT)");
  }, 60_000);
});
