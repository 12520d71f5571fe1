/**
 * Long work beside the request loop: an operation (a row of `operations`) is started by a
 * request, run by a worker process with its own database connection (src/workers), and its
 * progress and result are read from the database by any request, so the user who started it
 * sees them, also after a reload. A request that wants the result waits for it without holding
 * the loop; the browser asks for `Prefer: respond-async` and polls GET /api/operations/{id}.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AppContext } from "../context";
import { NotFoundError } from "../services/errors";
import { authorizeOwnRecord } from "../services/policies";
import type { CurrentUser } from "../services/users";
import type { OperationRow } from "../store/operations/operations-store";
import { runWorkerTask, type WorkerLimits, WorkerTaskError } from "../workers/run-task";
import type { WorkerTasks } from "../workers/tasks";
import { removeUnpublished } from "./remove-unpublished";

export interface OperationJson {
  id: number;
  kind: OperationRow["kind"];
  label: string;
  status: OperationRow["status"];
  phase: OperationRow["phase"];
  done: number;
  total: number | null;
  notebookId: number | null;
  result: unknown;
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
}

export function operationJson(row: OperationRow): OperationJson {
  return {
    id: row.id,
    kind: row.kind,
    label: row.label,
    status: row.status,
    phase: row.phase,
    done: row.done,
    total: row.total,
    notebookId: row.notebookId,
    result: row.result === null ? null : JSON.parse(row.result),
    error: row.error,
    createdAt: new Date(row.createdAt).toISOString(),
    finishedAt: row.finishedAt === null ? null : new Date(row.finishedAt).toISOString(),
  };
}

/** A pause on the loop between two batches of clean-up, so requests are answered meanwhile. */
const yieldToRequests = () => new Promise<void>((resolve) => setTimeout(resolve, 2));

/** Fails an operation and removes what it wrote but did not publish (in batches, between requests). */
export async function failAndClean(ctx: AppContext, operationId: number, reason: string) {
  await ctx.stores.operations.fail(operationId, reason, ctx.clock.now().getTime());
  await removeUnpublished(ctx.stores.operations, operationId, yieldToRequests);
}

/** Operations whose worker died (a restart, a crash): failed and cleaned up. Cheap when there are none. */
export async function reapAbandoned(ctx: AppContext) {
  // Leases are wall-clock time (a worker renews them by Date.now()), never the test clock.
  const reason = "it stopped before it was done (Engram restarted); nothing of it was kept, try again";
  for (const operation of await ctx.stores.operations.abandoned(Date.now())) {
    // Its worker may have renewed the lease since: only a lease still run out is failed.
    if (await ctx.stores.operations.fail(operation.id, reason, ctx.clock.now().getTime(), Date.now()))
      await removeUnpublished(ctx.stores.operations, operation.id, yieldToRequests);
  }
}

/** Why a run gave no result, as the user reads it. */
function reasonOf(error: unknown): string {
  if (error instanceof WorkerTaskError && error.kind !== "failed") return `it was stopped: ${error.message}`;
  return (error as Error)?.message || "it stopped";
}

/**
 * Runs `task` for a started operation in a worker; answers its output. However the run ends
 * without one (the task failed, the worker ran out of time or memory or crashed), the operation
 * is failed with the reason and its unpublished rows removed before the promise rejects.
 * `files` (a temporary folder with the upload) is removed at the end.
 */
export async function runOperation<Name extends keyof WorkerTasks>(
  ctx: AppContext,
  operationId: number,
  task: Name,
  input: Parameters<WorkerTasks[Name]>[0],
  limits: WorkerLimits,
  files?: string,
): Promise<Awaited<ReturnType<WorkerTasks[Name]>>> {
  try {
    return await runWorkerTask(task, input, limits);
  } catch (error) {
    await failAndClean(ctx, operationId, reasonOf(error));
    throw error;
  } finally {
    if (files) await rm(files, { recursive: true, force: true });
  }
}

/** A private temporary folder holding the upload as `name` (the worker reads it from there). */
export async function saveUpload(file: Blob, name: string): Promise<{ dir: string; path: string }> {
  const dir = await mkdtemp(join(tmpdir(), "engram-upload-"));
  const path = join(dir, name);
  await Bun.write(path, file);
  return { dir, path };
}

async function ownOperation(ctx: AppContext, current: CurrentUser, id: number): Promise<OperationRow> {
  const row = await ctx.stores.operations.find(id);
  if (!row) throw new NotFoundError("Operation");
  authorizeOwnRecord(current, row.userId, "operation");
  return row;
}

/** GET /api/operations/{id}. */
export async function getOperation(ctx: AppContext, current: CurrentUser, id: number): Promise<OperationJson> {
  return operationJson(await ownOperation(ctx, current, id));
}

/** GET /api/operations: the user's running operations and the finished ones not dismissed yet. */
export async function listOperations(ctx: AppContext, current: CurrentUser): Promise<OperationJson[]> {
  await reapAbandoned(ctx);
  return (await ctx.stores.operations.visible(current.user.id)).map(operationJson);
}

/** POST /api/operations/{id}/dismiss: a finished operation's result was seen; it is no longer listed. */
export async function dismiss(ctx: AppContext, current: CurrentUser, id: number): Promise<OperationJson> {
  await ownOperation(ctx, current, id);
  return operationJson((await ctx.stores.operations.dismiss(id, ctx.clock.now().getTime()))!);
}
