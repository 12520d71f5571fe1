import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { reversedLabel } from "../../../src/services/links/link-types";
import { ApiError, api } from "../../lib/api";
import { Modal } from "../../lib/ui/Dialog";
import { NoteSearchDialog } from "../../lib/note-search";
import { type NoteJson, type NoteRealmJson, type NoteTopologyJson, noteRealmQuery, notePath } from "../../lib/notes-queries";
import { NoteTitle } from "../../lib/note-title";
import { confirmPopup } from "../../lib/ui-store";
import { LinkTypePicker } from "./LinkTypePicker";
import { DialogActions } from "../../lib/forms";

/** Puts the realms an API call answered into the cache, so every island shows them. */
function useStoreRealms() {
  const queryClient = useQueryClient();
  return (realms: NoteRealmJson[]) => {
    for (const realm of realms) queryClient.setQueryData(noteRealmQuery(realm.id).queryKey, realm);
  };
}

/**
 * "search and link note": pick a target in the note-search dialog, then a link type ("no link"
 * only moves the note under the target). A notebook's head note is first asked whether to move
 * under the target's notebook. "Move Under" in the dialog moves at once (it confirms itself).
 */
export function LinkFlow({ note, onClose }: { note: NoteJson; onClose: () => void }) {
  const [target, setTarget] = useState<NoteTopologyJson>();
  const storeRealms = useStoreRealms();

  async function moveUnder(chosen: NoteTopologyJson) {
    const realms = await api.post<NoteRealmJson[]>(`/api/links/move/${note.id}/${chosen.id}`, { asFirstChild: false });
    storeRealms(realms);
    window.location.href = notePath(note.id);
  }

  async function chooseTarget(chosen: NoteTopologyJson) {
    if (note.parentId === null &&
      (await confirmPopup(`"${note.noteTopology.titleOrPredicate}" is the head of a notebook. Move the whole notebook under "${chosen.titleOrPredicate}"?`))) {
      await moveUnder(chosen);
      return;
    }
    setTarget(chosen);
  }

  if (!target) {
    return <NoteSearchDialog noteId={note.id} title="Search and link note" onClose={onClose} onLink={chooseTarget} onMoveUnder={moveUnder} />;
  }
  return <LinkTypeDialog note={note} target={target} onClose={onClose} onMoveUnder={moveUnder} />;
}

function LinkTypeDialog({ note, target, onClose, onMoveUnder }: {
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
      storeRealms(await api.post<NoteRealmJson[]>(`/api/links/create/${note.id}/${target.id}`, { linkType }));
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
        {error && <div className="field-error" role="alert">{error}</div>}
        <DialogActions onCancel={onClose} submitLabel="Create link" submitting={submitting} />
      </form>
    </Modal>
  );
}

/** On a link note's page: subject, the link type (changeable) and the object. */
export function LinkNoteHeader({ note, editable }: { note: NoteJson; editable: boolean }) {
  const [changing, setChanging] = useState(false);
  const [linkType, setLinkType] = useState(note.noteTopology.linkType ?? "related to");
  const storeRealms = useStoreRealms();
  return (
    <div className="link-note-header">
      <h1 className="note-title link-note-title" dir="auto">
        <NoteTitle topology={note.noteTopology} linkEnds />
      </h1>
      {editable && (
        <button type="button" className="button small" onClick={() => setChanging(true)}>Change link type</button>
      )}
      {changing && (
        <Modal title="Change link type" onClose={() => setChanging(false)}>
          <form onSubmit={async (event) => {
            event.preventDefault();
            storeRealms(await api.post<NoteRealmJson[]>(`/api/links/${note.id}`, { linkType }));
            setChanging(false);
          }}>
            <LinkTypePicker value={linkType} onChange={setLinkType} allowNoLink={false} />
            <DialogActions onCancel={() => setChanging(false)} submitLabel="Update" />
          </form>
        </Modal>
      )}
    </div>
  );
}

/** "Referenced by": the links that point at this note, read backwards ("a generalization of Dog"). */
export function ReferencedBy({ notes }: { notes: NoteJson[] }) {
  if (notes.length === 0) return null;
  return (
    <section className="referenced-by" aria-labelledby="referenced-by-heading">
      <h2 id="referenced-by-heading">Referenced by</h2>
      <ul>
        {notes.map((link) => {
          const subject = link.noteTopology.parentOrSubjectNoteTopology;
          return (
            <li key={link.id}>
              <a href={notePath(link.id)} className="reversed-label">{reversedLabel(link.noteTopology.linkType ?? "")}</a>{" "}
              {subject ? <a href={notePath(subject.id)}>{subject.titleOrPredicate}</a> : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
