import type { EditConflict } from "../../lib/use-autosave";

/**
 * Someone else saved a change to the same place as the learner's unsaved one: both versions,
 * side by side (one above the other on a phone), and the choice. Nothing is saved until the
 * learner chooses; the version not kept goes into the undo history, so nothing is lost.
 */
export function EditConflictChoice({ conflict, what }: { conflict: EditConflict; what: "title" | "details" }) {
  return (
    <section className="edit-conflict alert warning" role="alertdialog" aria-label={`Edit conflict in the ${what}`}>
      <p>
        Someone else changed the {what} while you were editing, in the same place. Which version do you keep? The other one can be brought
        back with undo.
      </p>
      <div className="edit-conflict-versions">
        <figure>
          <figcaption>Your version</figcaption>
          <pre dir="auto">{conflict.mine}</pre>
        </figure>
        <figure>
          <figcaption>Their version</figcaption>
          <pre dir="auto">{conflict.theirs}</pre>
        </figure>
      </div>
      <div className="edit-conflict-actions">
        <button type="button" className="button primary" onClick={conflict.keepMine}>
          Keep my version
        </button>
        <button type="button" className="button" onClick={conflict.keepTheirs}>
          Keep their version
        </button>
      </div>
    </section>
  );
}
