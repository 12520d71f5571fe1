import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runInWorker, WorkerTaskError } from "../../src/workers/run-task";

const entry = [process.execPath, join(import.meta.dir, "../support/worker-test-tasks.ts")];
const limits = { timeoutMs: 20_000, memoryBytes: 512 * 1024 * 1024 };

async function failure(promise: Promise<unknown>): Promise<WorkerTaskError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(WorkerTaskError);
    return error as WorkerTaskError;
  }
  throw new Error("the run did not fail");
}

describe("worker processes", () => {
  test("a task runs in another process; bytes and dates cross the channel intact", async () => {
    const bytes = new Uint8Array([0, 1, 2, 255]);
    const at = new Date("2024-05-06T07:08:09Z");
    const output = (await runInWorker(entry, "echo", { bytes, at }, limits)) as { bytes: Uint8Array; at: Date; pid: number };
    expect(output.bytes).toEqual(bytes);
    expect(output.bytes).toBeInstanceOf(Uint8Array);
    expect(output.at).toEqual(at);
    expect(output.pid).not.toBe(process.pid);
  });

  test("an error thrown by the task comes back with its class name and message", async () => {
    const error = await failure(runInWorker(entry, "fail", {}, limits));
    expect(error.kind).toBe("failed");
    expect(error.taskErrorName).toBe("ParseError");
    expect(error.message).toBe("the input is not what it claims to be");
    const unknown = await failure(runInWorker(entry, "no-such-task", {}, limits));
    expect(unknown.message).toBe('the worker knows no task "no-such-task"');
  });

  test("while a task is stuck in a synchronous loop, this process goes on answering", async () => {
    const dir = mkdtempSync(join(tmpdir(), "engram-worker-test-"));
    try {
      const release = join(dir, "release");
      let finished = false;
      const run = runInWorker(entry, "spinUntil", { path: release }, limits).then((output) => {
        finished = true;
        return output;
      });
      // A server on this event loop answers while the worker spins.
      const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("OK") });
      try {
        expect(await (await fetch(`http://127.0.0.1:${server.port}/`)).text()).toBe("OK");
        expect(finished).toBe(false);
      } finally {
        server.stop(true);
      }
      writeFileSync(release, "");
      expect(await run).toBe("released");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a task over its time limit is stopped", async () => {
    const error = await failure(runInWorker(entry, "spinForever", {}, { ...limits, timeoutMs: 300 }));
    expect(error.kind).toBe("timeout");
    expect(error.message).toBe("it took longer than 0.3 s");
  });

  test.if(process.platform === "linux")("a task that allocates past its memory limit fails inside the worker", async () => {
    expect(await runInWorker(entry, "allocate", { mib: 64 }, limits)).toBe(64);
    const error = await failure(runInWorker(entry, "allocate", { mib: 2048 }, { ...limits, memoryBytes: 256 * 1024 * 1024 }));
    expect(["memory", "crashed"]).toContain(error.kind);
  });

  test("a worker that dies is reported, not waited for", async () => {
    const error = await failure(runInWorker(entry, "exit", {}, limits));
    expect(error.kind).toBe("crashed");
    expect(error.message).toContain("exit code 3");
  });
});
