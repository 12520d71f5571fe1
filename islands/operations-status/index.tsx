import { useQuery, useQueryClient } from "@tanstack/react-query";
import { OperationProgress } from "../lib/operations/OperationProgress";
import { dismissOperation, type OperationJson, operationsQuery } from "../lib/operations/queries";

type ImportResult = { created?: number; updated?: number; trackers?: number; reviews?: number; noteId?: number; file?: string };

/** A finished operation's result in one line. */
function resultText(operation: OperationJson): string {
  if (operation.status === "failed") {
    return operation.kind === "backup"
      ? `The backup was not taken: ${operation.error}`
      : `Failed to import ${operation.label}: ${operation.error}`;
  }
  const result = (operation.result ?? {}) as ImportResult;
  if (operation.kind === "backup") return `Backup written: ${result.file ?? ""}`;
  const parts = [`${(result.created ?? 0).toLocaleString("en")} notes created`];
  if (result.updated) parts.push(`${result.updated.toLocaleString("en")} updated`);
  if (result.trackers) parts.push(`${result.trackers.toLocaleString("en")} memory trackers`);
  return `Import of ${operation.label} complete: ${parts.join(", ")}.`;
}

/**
 * Long work the user started (imports, backups) on every page of the shell while it runs and
 * until its result is dismissed: the server renders it only when there is some, so a reload
 * during an import shows its progress again, and its result when it ended meanwhile.
 */
export default function OperationsStatus({ operations }: { operations: OperationJson[] }) {
  const queryClient = useQueryClient();
  const { data } = useQuery({ ...operationsQuery(), initialData: operations });
  if (data.length === 0) return null;
  async function dismiss(id: number) {
    await dismissOperation(id);
    await queryClient.invalidateQueries({ queryKey: operationsQuery().queryKey });
  }
  return (
    <section className="operations-status" aria-label="Work in the background">
      <ul>
        {data.map((operation) => (
          <li key={operation.id} className={`operation operation-${operation.status}`}>
            {operation.status === "running" ? (
              <OperationProgress operation={operation} />
            ) : (
              <>
                <p role={operation.status === "failed" ? "alert" : "status"} dir="auto">
                  {resultText(operation)}
                </p>
                {operation.kind === "anki-import" && operation.status === "done" && (operation.result as ImportResult)?.noteId && (
                  <a className="button small" href={`/n${(operation.result as ImportResult).noteId}`}>
                    Open the notebook
                  </a>
                )}
                <button type="button" className="button small" onClick={() => void dismiss(operation.id)}>
                  Dismiss
                </button>
              </>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
