import { useQuery } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { useDismiss } from "../../lib/use-dismiss";
import { useElementId } from "../../lib/island-id";
import type { NoteJson } from "../../lib/notes-queries";
import { WikidataAssociationDialog } from "./AssociationDialog";
import { wikidataEntityQuery, wikidataPageUrl } from "./wikidata-api";

function WikidataIcon() {
  // Wikidata's barcode, drawn as bars: decorative, the button's label names it.
  return (
    <svg width="20" height="20" viewBox="0 0 24 24" fill="currentColor" aria-hidden="true" focusable="false">
      <rect x="2" y="5" width="2" height="14" /><rect x="6" y="5" width="4" height="14" /><rect x="12" y="5" width="1.5" height="14" />
      <rect x="15.5" y="5" width="3" height="14" /><rect x="20.5" y="5" width="1.5" height="14" />
    </svg>
  );
}

/**
 * The toolbar's "wikidata options": a small menu with "associate wikidata" for a note without
 * an entity, or "Edit Wikidata ID" and "Go to Wikidata" (the Wikipedia article, else the
 * Wikidata page, in a new tab) for a note with one. Hidden when the note cannot be edited.
 */
export function WikidataOptions({ note, editable }: { note: NoteJson; editable: boolean }) {
  const [open, setOpen] = useState(false);
  const [dialogOpen, setDialogOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const menuId = useElementId("wikidata-options");
  const wikidataId = note.wikidataId;
  // Resolved when the menu opens, so the link already points at the article when clicked.
  const entity = useQuery({ ...wikidataEntityQuery(wikidataId ?? ""), enabled: open && !!wikidataId });
  const closeDialog = useCallback(() => setDialogOpen(false), []);

  const closeMenu = useCallback(() => setOpen(false), []);
  useDismiss(open, closeMenu, ref);

  if (!editable) return null;
  const openDialog = () => {
    setOpen(false);
    setDialogOpen(true);
  };

  return (
    <div className="toolbar-menu wikidata-options" ref={ref}>
      <button type="button" className="icon-button labelled" title="wikidata options" aria-label="wikidata options" aria-haspopup="menu"
        aria-expanded={open} aria-controls={menuId} onClick={() => setOpen((o) => !o)}>
        <WikidataIcon />
      </button>
      {open && (
        <div className="dropdown wikidata-options-menu" role="menu" id={menuId} aria-label="wikidata options">
          {wikidataId ? (
            <>
              <button type="button" role="menuitem" onClick={openDialog}>Edit Wikidata ID</button>
              <a role="menuitem" href={wikidataPageUrl(wikidataId, entity.data)} target="_blank" rel="noopener noreferrer"
                onClick={() => setOpen(false)}>
                Go to Wikidata
              </a>
            </>
          ) : (
            <button type="button" role="menuitem" onClick={openDialog}>associate wikidata</button>
          )}
        </div>
      )}
      {dialogOpen && <WikidataAssociationDialog note={note} onClose={closeDialog} />}
    </div>
  );
}
