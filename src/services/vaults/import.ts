/**
 * "Import from Obsidian": a vault (zip) merged into a notebook under its head note. A note with
 * the same title under the same parent is updated, not duplicated, so importing the same vault
 * twice changes nothing. The upload is saved to a temporary file and a worker process reads it
 * entry by entry and writes it with its own connection in short transactions, publishing it in
 * one short transaction at the end (operations/vault-import-task.ts): the server keeps answering
 * meanwhile, and a failed import writes nothing. One import into a notebook at a time.
 */
import type { AppContext } from "../../context";
import { type OperationJson, operationJson, runOperation, saveUpload } from "../../operations";
import { OPERATION_LEASE_MS } from "../../store/operations/operations-store";
import { IMPORT_WORKER_MEMORY_BYTES, WorkerTaskError } from "../../workers/run-task";
import { ConflictError, ValidationError } from "../errors";
import { noteTextSaved } from "../notes/note-changes";
import { requireNotebook } from "../notes/rows";
import { authorizeEdit } from "../policies";
import type { CurrentUser } from "../users";
import type { ImportReport } from "./read-vault";

export type { ImportReport } from "./read-vault";

/** The 400 every failed import answers (spec 8: "Failed to import file"), with the reason. */
export function importFailure(reason: string): ValidationError {
  return new ValidationError({ file: `Failed to import file: ${reason}` });
}

export const IMPORT_RUNNING = "An import into this notebook is still running: wait until it ends, then import again";

/** The worker of one vault import: a vault at the limits takes well under both. */
export const VAULT_IMPORT_LIMITS = { timeoutMs: 60 * 60_000, memoryBytes: IMPORT_WORKER_MEMORY_BYTES };

/**
 * An import's result for the request that waits for it: the report, or the 400 saying why it
 * failed (nothing was written then).
 */
export async function awaitImport<T>(run: Promise<T>): Promise<T> {
  try {
    return await run;
  } catch (error) {
    if (error instanceof WorkerTaskError) {
      throw importFailure(error.kind === "failed" ? error.message : `the import was stopped: ${error.message}`);
    }
    throw error;
  }
}

/**
 * Starts importing a vault into a notebook the user may edit. Answers the operation at once and
 * the run (the report when it ends); a failed run rejects with a WorkerTaskError.
 */
export async function startVaultImport(
  ctx: AppContext,
  current: CurrentUser,
  notebookId: number,
  file: unknown,
): Promise<{ operation: OperationJson; run: Promise<ImportReport> }> {
  const notebook = await requireNotebook(ctx, notebookId);
  await authorizeEdit(ctx, current, notebook);
  if (!(file instanceof Blob)) throw new ValidationError({ file: "must be a .zip file" });
  const name = file instanceof File ? file.name : "";
  if (name && !/\.zip$/i.test(name)) throw new ValidationError({ file: "must be a .zip file" });
  const now = ctx.clock.now();
  const operation = await ctx.stores.operations.start(
    { kind: "obsidian-import", userId: current.user.id, notebookId, label: name || "vault.zip" },
    now.getTime(),
    Date.now() + OPERATION_LEASE_MS,
  );
  if (!operation) throw new ConflictError(IMPORT_RUNNING);
  const upload = await saveUpload(file, "vault.zip");
  const run = runOperation(
    ctx,
    operation.id,
    "import-obsidian-vault",
    {
      database: ctx.database.place,
      operationId: operation.id,
      zipPath: upload.path,
      notebookId,
      userId: current.user.id,
      now,
    },
    VAULT_IMPORT_LIMITS,
    upload.dir,
  ).then(({ changedNoteIds, ...report }) => {
    // Pages open on a note the import changed show its new text.
    for (const id of changedNoteIds) noteTextSaved(ctx, id);
    return report;
  });
  // Nobody may be waiting (the browser polls): a failure is in the operation, not unhandled.
  run.catch(() => undefined);
  return { operation: operationJson(operation), run };
}
