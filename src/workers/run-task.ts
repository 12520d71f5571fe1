/**
 * Runs a task in a worker process, beside the request loop: reading an untrusted upload can take
 * seconds and much memory, and a worker that runs out of either is stopped without touching the
 * server. Each run gets a fresh process (nothing leaks from one upload to the next) with a time
 * limit and, on Linux, a memory limit the kernel enforces (RLIMIT_DATA, set with the shell's
 * `ulimit -d` before the worker starts): an allocation past it fails inside the worker.
 *
 *   const deck = await runWorkerTask("read-anki-package", { path, name }, { timeoutMs: 60_000, memoryBytes: 1 << 30 });
 *
 * Tasks are registered in tasks.ts. From a clone the worker is `bun src/workers/entry.ts`; the
 * single binary runs itself as `engram worker` (scripts/build.ts calls useBinaryWorkers()).
 */
import { existsSync } from "node:fs";
import { setPriority } from "node:os";
import { join } from "node:path";
import { isResultMessage, type RunMessage } from "./protocol";
import type { WorkerTasks } from "./tasks";

export interface WorkerLimits {
  /** The run is stopped after this long. */
  timeoutMs: number;
  /** Most memory the worker may allocate (Linux only: elsewhere only the time limit holds). */
  memoryBytes: number;
}

/** Why a run gave no output: the task threw, or ran out of time or memory, or the worker died. */
export type WorkerFailure = "failed" | "timeout" | "memory" | "crashed";

export class WorkerTaskError extends Error {
  constructor(
    readonly kind: WorkerFailure,
    message: string,
    /** For "failed": the class name of the error the task threw (e.g. "VaultImportError"). */
    readonly taskErrorName?: string,
  ) {
    super(message);
    this.name = "WorkerTaskError";
  }
}

/**
 * The memory limit of an import's worker. The limit is the kernel's on the data segment, which
 * counts the address space Bun reserves as well as what it uses: under about 3 GiB of it the
 * runtime is short of room and an import runs four times slower, though it uses (resident) only
 * some 150 MiB at 10,000 notes.
 */
export const IMPORT_WORKER_MEMORY_BYTES = 4096 * 1024 * 1024;

/** Workers running at once; more runs wait for a free one (each may use its whole memory limit). */
export const MAX_RUNNING_WORKERS = 2;

let binaryCommand: string[] | undefined;

/** The single binary runs its workers as `<binary> worker`. */
export function useBinaryWorkers() {
  binaryCommand = [process.execPath, "worker"];
}

function workerCommand(): string[] {
  return binaryCommand ?? [process.execPath, join(import.meta.dir, "entry.ts")];
}

/** Runs a registered task; its input and output are as typed in tasks.ts. */
export function runWorkerTask<Name extends keyof WorkerTasks>(
  task: Name,
  input: Parameters<WorkerTasks[Name]>[0],
  limits: WorkerLimits,
): Promise<Awaited<ReturnType<WorkerTasks[Name]>>> {
  return runInWorker(workerCommand(), task, input, limits) as Promise<Awaited<ReturnType<WorkerTasks[Name]>>>;
}

let running = 0;
const waiting: (() => void)[] = [];

async function takeSlot() {
  if (running < MAX_RUNNING_WORKERS) {
    running++;
    return;
  }
  await new Promise<void>((resolve) => waiting.push(resolve));
}

function releaseSlot() {
  const next = waiting.shift();
  if (next) next();
  else running--;
}

/** What the worker may see of Engram's environment: no secrets, only what a runtime needs. */
function workerEnvironment(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of ["PATH", "HOME", "TMPDIR", "LANG", "LC_ALL", "TZ", "NODE_ENV"]) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}

/** The shell's exit code when `ulimit` itself fails. */
const ULIMIT_FAILED = 97;

/** The command with its memory limit (when the platform can enforce one). */
function limitedCommand(command: string[], memoryBytes: number): string[] {
  if (process.platform !== "linux" || !existsSync("/bin/sh")) return command;
  const kib = String(Math.max(1, Math.ceil(memoryBytes / 1024)));
  return ["/bin/sh", "-c", `ulimit -d "$1" 2>/dev/null || exit ${ULIMIT_FAILED}; shift; exec "$@"`, "engram-worker", kib, ...command];
}

/** A worker's CPU niceness: when the cores are busy, the server's requests are answered first. */
export const WORKER_NICENESS = Number(process.env.ENGRAM_WORKER_NICENESS ?? 10);

function lowerPriority(pid: number) {
  try {
    setPriority(pid, WORKER_NICENESS);
  } catch {
    // A platform that does not let a process lower its child's priority: the worker runs as it is.
  }
}

const OUT_OF_MEMORY = /out of memory/i;

/** The last line a worker wrote to stderr (read to the end, at most the last 4 KiB kept). */
async function lastLine(stream: ReadableStream<Uint8Array>): Promise<string> {
  let tail = "";
  const decoder = new TextDecoder();
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    tail = (tail + decoder.decode(value, { stream: true })).slice(-4096);
  }
  return (
    tail
      .split("\n")
      .map((line) => line.trim())
      .filter(Boolean)
      .at(-1)
      ?.slice(0, 300) ?? ""
  );
}
const mib = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MiB`;

/**
 * Runs `task` in a worker started with `command` (an entry that calls serveWorkerTasks); the
 * typed runWorkerTask is the usual way in, tests pass an entry of their own.
 */
export async function runInWorker(command: string[], task: string, input: unknown, limits: WorkerLimits): Promise<unknown> {
  await takeSlot();
  try {
    return await runOnce(command, task, input, limits);
  } finally {
    releaseSlot();
  }
}

function runOnce(command: string[], task: string, input: unknown, limits: WorkerLimits): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let settled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const finish = (outcome: { output: unknown } | { error: WorkerTaskError }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.kill("SIGKILL");
      if ("error" in outcome) reject(outcome.error);
      else resolve(outcome.output);
    };
    const child = Bun.spawn(limitedCommand(command, limits.memoryBytes), {
      env: workerEnvironment(),
      // Its output is kept only to explain a crash (a runtime's crash report is no use in the server's log).
      stdio: ["ignore", "ignore", "pipe"],
      serialization: "advanced",
      ipc(message) {
        if (!isResultMessage(message)) return;
        if (message.type === "done") return finish({ output: message.output });
        const { name, message: text } = message.error;
        const kind = OUT_OF_MEMORY.test(text) ? "memory" : "failed";
        const reason = kind === "memory" ? `it needs more than ${mib(limits.memoryBytes)} of memory` : text;
        finish({ error: new WorkerTaskError(kind, reason, name) });
      },
    });
    lowerPriority(child.pid);
    timer = setTimeout(
      () => finish({ error: new WorkerTaskError("timeout", `it took longer than ${limits.timeoutMs / 1000} s`) }),
      limits.timeoutMs,
    );
    const stderr = lastLine(child.stderr);
    void child.exited.then(async (code) => {
      if (settled) return;
      const said = await stderr;
      const reason =
        code === ULIMIT_FAILED
          ? "the worker's memory limit could not be set"
          : `the worker stopped unexpectedly (${child.signalCode ?? `exit code ${code}`}${said ? `: ${said}` : ""})`;
      finish({ error: new WorkerTaskError("crashed", reason) });
    });
    const message: RunMessage = { type: "run", task, input };
    try {
      child.send(message);
    } catch (error) {
      finish({ error: new WorkerTaskError("crashed", `the task could not be sent to the worker (${(error as Error).message})`) });
    }
  });
}
