/**
 * The messages between Engram and a worker process (see run-task.ts): Engram sends one `run`
 * message, the worker answers one `done` or `failed` message and is then stopped. Messages go
 * over Bun's IPC channel with structured-clone serialization, so bytes (Uint8Array), dates and
 * nested objects arrive as they were sent.
 */

/** Engram → worker: run this task once with this input. */
export interface RunMessage {
  type: "run";
  task: string;
  input: unknown;
}

/** Worker → Engram: the task's output, or why it failed (the error's class name and message). */
export type ResultMessage = { type: "done"; output: unknown } | { type: "failed"; error: { name: string; message: string } };

/** A task: a plain async function of plain data, run inside a worker process. */
export type WorkerTask<Input = never, Output = unknown> = (input: Input) => Promise<Output> | Output;

export const isRunMessage = (message: unknown): message is RunMessage =>
  typeof message === "object" &&
  message !== null &&
  (message as RunMessage).type === "run" &&
  typeof (message as RunMessage).task === "string";

export const isResultMessage = (message: unknown): message is ResultMessage =>
  typeof message === "object" &&
  message !== null &&
  ((message as ResultMessage).type === "done" || (message as ResultMessage).type === "failed");
