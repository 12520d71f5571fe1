/**
 * A worker entry with tasks that misbehave on purpose, for tests/unit/workers.test.ts (the
 * production entry, src/workers/entry.ts, knows only Engram's own tasks).
 */
import { existsSync } from "node:fs";
import { serveWorkerTasks } from "../../src/workers/serve";

class ParseError extends Error {
  override name = "ParseError";
}

serveWorkerTasks({
  echo: (input: { bytes: Uint8Array; at: Date }) => ({ ...input, pid: process.pid }),
  fail: () => {
    throw new ParseError("the input is not what it claims to be");
  },
  /** Allocates `mib` MiB, a MiB at a time (kept, so nothing is freed). */
  allocate: (input: { mib: number }) => {
    const kept: Uint8Array[] = [];
    for (let i = 0; i < input.mib; i++) kept.push(new Uint8Array(1024 * 1024).fill(1));
    return kept.length;
  },
  /** Busy until the file appears, never yielding: a task stuck in a synchronous loop. */
  spinUntil: (input: { path: string }) => {
    while (!existsSync(input.path)) {
      // spin
    }
    return "released";
  },
  spinForever: () => {
    for (;;) {
      // spin
    }
  },
  exit: () => process.exit(3),
});
