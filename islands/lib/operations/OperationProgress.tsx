import type { OperationJson } from "./queries";

const WHAT: Record<OperationJson["kind"], string> = {
  "obsidian-import": "Importing",
  "anki-import": "Importing",
  backup: "Backing up",
};

const count = (n: number) => n.toLocaleString("en");

/** What the work is doing now, in words: "Importing deck.apkg: 1,200 of 20,000 notes". */
export function progressText(operation: OperationJson): string {
  const { phase, done, total, label } = operation;
  const what = `${WHAT[operation.kind]} ${label}`;
  if (phase === "waiting") return `${what}: waiting for a free worker...`;
  if (phase === "publishing") return `${what}: publishing...`;
  const unit = phase === "reading" ? "files read" : "notes written";
  return total ? `${what}: ${count(done)} of ${count(total)} ${unit}` : `${what}: reading the file...`;
}

/** A running operation's progress bar with its counts (indeterminate until the total is known). */
export function OperationProgress({ operation }: { operation: OperationJson }) {
  const known = operation.total !== null && operation.total > 0 && operation.phase !== "waiting" && operation.phase !== "publishing";
  return (
    <div className="obsidian-progress operation-progress" role="status">
      {known ? (
        <progress max={operation.total ?? 1} value={operation.done} aria-label="Import progress" />
      ) : (
        <progress aria-label="Import progress" />
      )}
      <span>{progressText(operation)}</span>
    </div>
  );
}
