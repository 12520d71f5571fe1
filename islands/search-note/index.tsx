import { useCallback, useRef, useState } from "react";
import { icons } from "../lib/icons";
import { lazyComponent } from "../lib/lazy";
import { startTypeAhead, type TypeAhead } from "../lib/type-ahead";

/** The search dialog, fetched when it first opens (or when the pointer comes over its button). */
const NoteSearchDialog = lazyComponent(() => import("../lib/note-search").then((m) => m.NoteSearchDialog));

/** The top bar's "search note": searches every notebook of the user; results link to their notes. */
export default function SearchNote() {
  const [open, setOpen] = useState(false);
  const close = useCallback(() => setOpen(false), []);
  // Keys typed while the dialog's code arrives go into its search box.
  const typeAhead = useRef<TypeAhead | undefined>(undefined);
  const takeTypedKeys = useCallback(() => typeAhead.current?.take() ?? "", []);
  return (
    <>
      <button
        type="button"
        className="icon-button search-note-button"
        aria-label="search note"
        title="search note"
        onPointerEnter={() => void NoteSearchDialog.preload().catch(() => {})}
        onClick={() => {
          typeAhead.current = startTypeAhead();
          setOpen(true);
        }}
      >
        {icons.search()}
      </button>
      {open && <NoteSearchDialog title="Search note" onClose={close} takeTypedKeys={takeTypedKeys} />}
    </>
  );
}
