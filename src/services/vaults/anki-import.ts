/**
 * "Import Anki deck": an .apkg becomes a new notebook in one transaction. The deck tree becomes
 * the note tree; optionally each reviewed card's state carries over as a memory tracker whose
 * next recall and interval follow the card's due date and interval, its review history going
 * into the recall log. Suspended cards keep their notes out of assimilation and recall.
 */
import type { AppContext } from "../../context";
import { type OperationJson, operationJson, runOperation, saveUpload } from "../../operations";
import { OPERATION_LEASE_MS } from "../../store/operations/operations-store";
import { IMPORT_WORKER_MEMORY_BYTES } from "../../workers/run-task";
import { ValidationError } from "../errors";
import { schedulerOf } from "../memory/reviews";
import { parseSpaceIntervals } from "../scheduling/forgetting-curve";
import type { CurrentUser } from "../users";
import type { AnkiImportReport } from "./anki-schedule";

export type { AnkiImportReport } from "./anki-schedule";

/** The worker of one deck import: stopped after an hour or past its memory limit (a deck at the limits takes well under both). */
export const ANKI_WORKER_LIMITS = { timeoutMs: 60 * 60_000, memoryBytes: IMPORT_WORKER_MEMORY_BYTES };

/**
 * Starts importing an .apkg as a new notebook: a worker reads and writes it (see
 * operations/anki-import-task.ts). Answers the operation at once and the run (the report when it
 * ends; a failed run rejects with a WorkerTaskError, having written nothing).
 */
export async function startAnkiImport(
  ctx: AppContext,
  current: CurrentUser,
  file: unknown,
  withReviewState: boolean,
): Promise<{ operation: OperationJson; run: Promise<AnkiImportReport> }> {
  if (!(file instanceof Blob)) throw new ValidationError({ file: "must be an .apkg file" });
  const name = file instanceof File ? file.name : "Anki deck.apkg";
  if (!/\.(apkg|colpkg)$/i.test(name)) throw new ValidationError({ file: "must be an .apkg file" });
  const now = ctx.clock.now();
  const operation = (await ctx.stores.operations.start(
    { kind: "anki-import", userId: current.user.id, label: name },
    now.getTime(),
    Date.now() + OPERATION_LEASE_MS,
  ))!;
  const upload = await saveUpload(file, "deck.apkg");
  const run = runOperation(
    ctx,
    operation.id,
    "import-anki-deck",
    {
      database: ctx.database.place,
      operationId: operation.id,
      path: upload.path,
      name: name.replace(/\.(apkg|colpkg)$/i, "") || "Anki deck",
      user: current.user,
      intervals: parseSpaceIntervals(current.user.spaceIntervals),
      fsrs: schedulerOf(current.user) === "fsrs",
      withReviewState,
      now,
    },
    ANKI_WORKER_LIMITS,
    upload.dir,
  );
  run.catch(() => undefined);
  return { operation: operationJson(operation), run };
}
