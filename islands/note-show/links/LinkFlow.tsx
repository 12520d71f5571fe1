import { type FormEvent, useState } from "react";
import { ApiError, api, call } from "../../lib/api";
import { DialogActions } from "../../lib/forms";
import { NoteSearchDialog } from "../../lib/note-search";
import { type NoteJson, type NoteTopologyJson, notePath } from "../../lib/notes-queries";
import { Modal } from "../../lib/ui/Dialog";
import { confirmPopup } from "../../lib/ui-store";
import { LinkTypePicker } from "./LinkTypePicker";
import { useStoreRealms } from "./store-realms";

/**
 * "search and link note": pick a target in the note-search dialog, then a link type ("no link"
 * only moves the note under the target). A notebook's head note is first asked whether to move
 * under the target's notebook. "Move Under" in the dialog moves at once (it confirms itself).
 */
export function LinkFlow({ note, onClose }: { note: NoteJson; onClose: () => void }) {
  const [target, setTarget] = useState<NoteTopologyJson>();
  const storeRealms = useStoreRealms();

  async function moveUnder(chosen: NoteTopologyJson) {
    const realms = await call(api.links.move({ sourceNote: note.id })({ targetNote: chosen.id }).post({ asFirstChild: false }));
    storeRealms(realms);
    window.location.href = notePath(note.id);
  }

  async function chooseTarget(chosen: NoteTopologyJson) {
    if (
      note.parentId === null &&
      (await confirmPopup(
        `"${note.noteTopology.titleOrPredicate}" is the head of a notebook. Move the whole notebook under "${chosen.titleOrPredicate}"?`,
      ))
    ) {
      await moveUnder(chosen);
      return;
    }
    setTarget(chosen);
  }

  if (!target) {
    return (
      <NoteSearchDialog noteId={note.id} title="Search and link note" onClose={onClose} onLink={chooseTarget} onMoveUnder={moveUnder} />
    );
  }
  return <LinkTypeDialog note={note} target={target} onClose={onClose} onMoveUnder={moveUnder} />;
}

function LinkTypeDialog({
  note,
  target,
  onClose,
  onMoveUnder,
}: {
  note: NoteJson;
  target: NoteTopologyJson;
  onClose: () => void;
  onMoveUnder: (target: NoteTopologyJson) => Promise<void>;
}) {
  const [linkType, setLinkType] = useState("related to");
  const [error, setError] = useState<string>();
  const [submitting, setSubmitting] = useState(false);
  const storeRealms = useStoreRealms();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (submitting) return;
    setSubmitting(true);
    try {
      if (linkType === "no link") {
        await onMoveUnder(target);
        return;
      }
      storeRealms(await call(api.links.create({ sourceNote: note.id })({ targetNote: target.id }).post({ linkType })));
      onClose();
    } catch (e) {
      if (e instanceof ApiError) setError(e.errors.linkType ?? e.message);
      setSubmitting(false);
    }
  }

  return (
    <Modal title={`Link to ${target.titleOrPredicate}`} onClose={onClose}>
      <form onSubmit={submit}>
        <p className="link-sentence">
          <strong>{note.noteTopology.titleOrPredicate}</strong> is <em>{linkType}</em> <strong>{target.titleOrPredicate}</strong>
        </p>
        <LinkTypePicker value={linkType} onChange={setLinkType} allowNoLink />
        {error && (
          <div className="field-error" role="alert">
            {error}
          </div>
        )}
        <DialogActions onCancel={onClose} submitLabel="Create link" submitting={submitting} />
      </form>
    </Modal>
  );
}
