import { useState } from "react";
import { api, call } from "../../lib/api";
import { DialogActions } from "../../lib/forms";
import type { NoteJson } from "../../lib/notes-queries";
import { Modal } from "../../lib/ui/Dialog";
import { LinkTypePicker } from "./LinkTypePicker";
import { useStoreRealms } from "./store-realms";

/** "Change link type" on a link note's page (LinkNoteHeader.tsx). */
export function ChangeLinkTypeDialog({ note, onClose }: { note: NoteJson; onClose: () => void }) {
  const [linkType, setLinkType] = useState(note.noteTopology.linkType ?? "related to");
  const storeRealms = useStoreRealms();
  return (
    <Modal title="Change link type" onClose={onClose}>
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          storeRealms(await call(api.links({ link: note.id }).post({ linkType })));
          onClose();
        }}
      >
        <LinkTypePicker value={linkType} onChange={setLinkType} allowNoLink={false} />
        <DialogActions onCancel={onClose} submitLabel="Update" />
      </form>
    </Modal>
  );
}
