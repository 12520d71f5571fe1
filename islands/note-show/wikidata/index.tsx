import { useQuery } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { lazyComponent } from "../../lib/lazy";
import type { NoteJson } from "../../lib/notes-queries";
import { Menu, MenuItem, MenuLink } from "../../lib/ui/Menu";
import { wikidataEntityQuery, wikidataPageUrl } from "./wikidata-api";

const WikidataAssociationDialog = lazyComponent(() => import("./AssociationDialog").then((m) => m.WikidataAssociationDialog));

function WikidataIcon() {
  // Wikidata's barcode, drawn as bars: decorative, the button's label names it.
  return (
    <svg width="20" height="20" viewBox="0 0 24 24" fill="currentColor" aria-hidden="true" focusable="false">
      <rect x="2" y="5" width="2" height="14" />
      <rect x="6" y="5" width="4" height="14" />
      <rect x="12" y="5" width="1.5" height="14" />
      <rect x="15.5" y="5" width="3" height="14" />
      <rect x="20.5" y="5" width="1.5" height="14" />
    </svg>
  );
}

/**
 * The toolbar's "wikidata options": a small menu with "associate wikidata" for a note without
 * an entity, or "Edit Wikidata ID" and "Go to Wikidata" (the Wikipedia article, else the
 * Wikidata page, in a new tab) for a note with one. Hidden when the note cannot be edited.
 */
export function WikidataOptions({ note, editable }: { note: NoteJson; editable: boolean }) {
  const [dialogOpen, setDialogOpen] = useState(false);
  const [menuOpened, setMenuOpened] = useState(false);
  const wikidataId = note.wikidataId;
  // Resolved when the menu opens, so the link already points at the article when clicked.
  const entity = useQuery({ ...wikidataEntityQuery(wikidataId ?? ""), enabled: menuOpened && !!wikidataId });
  const closeDialog = useCallback(() => setDialogOpen(false), []);

  if (!editable) return null;
  const openDialog = () => setDialogOpen(true);

  return (
    <>
      <Menu
        label="wikidata options"
        title="wikidata options"
        triggerClassName="icon-button labelled"
        trigger={<WikidataIcon />}
        align="start"
        onOpenChange={(open) => open && setMenuOpened(true)}
      >
        {wikidataId ? (
          <>
            <MenuItem onSelect={openDialog}>Edit Wikidata ID</MenuItem>
            <MenuLink href={wikidataPageUrl(wikidataId, entity.data)} newTab>
              Go to Wikidata
            </MenuLink>
          </>
        ) : (
          <MenuItem onSelect={openDialog}>associate wikidata</MenuItem>
        )}
      </Menu>
      {dialogOpen && <WikidataAssociationDialog note={note} onClose={closeDialog} />}
    </>
  );
}
