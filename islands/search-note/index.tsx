import { useCallback, useState } from "react";
import { icons } from "../lib/icons";
import { NoteSearchDialog } from "../lib/note-search";

/** The top bar's "search note": searches every notebook of the user; results link to their notes. */
export default function SearchNote() {
  const [open, setOpen] = useState(false);
  const close = useCallback(() => setOpen(false), []);
  return (
    <>
      <button type="button" className="icon-button search-note-button" aria-label="search note" title="search note"
        onClick={() => setOpen(true)}>
        {icons.search()}
      </button>
      {open && <NoteSearchDialog title="Search note" onClose={close} />}
    </>
  );
}
