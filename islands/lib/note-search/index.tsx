import { useQuery } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { useElementId } from "../island-id";
import { noteTitleText } from "../note-title";
import { type NoteTopologyJson, notePath } from "../notes-queries";
import { Modal } from "../ui/Dialog";
import { confirmPopup } from "../ui-store";
import { formatDistance, type NoteSearchResultJson } from "./merge";
import { noteSearchQuery } from "./queries";
import { useDebouncedValue } from "./use-debounced";

/** Spec 9: the search waits this long after the last keystroke. */
export const SEARCH_DEBOUNCE_MS = 500;

export interface NoteSearchDialogProps {
  /** Searching from a note ("search and link note"): it is never a result, and results offer Link and Move Under. */
  noteId?: number;
  /** The dialog's title, e.g. "Search and link note" or "Search note". */
  title: string;
  onClose: () => void;
  /** The Link button of a result. */
  onLink?: (target: NoteTopologyJson) => void;
  /** The Move Under button of a result (asks for confirmation first). */
  onMoveUnder?: (target: NoteTopologyJson) => void;
  /** The keys typed while the dialog was loading (type-ahead.ts), for the search box. */
  takeTypedKeys?: () => string;
}

function Checkbox({
  label,
  name,
  checked,
  onChange,
}: {
  label: string;
  name: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  const id = useElementId(`note-search-${name}`);
  return (
    <label htmlFor={id} className="note-search-option">
      <input type="checkbox" id={id} name={name} checked={checked} onChange={(event) => onChange(event.target.checked)} />
      {label}
    </label>
  );
}

function ResultCard({
  result,
  onLink,
  onMoveUnder,
}: {
  result: NoteSearchResultJson;
  onLink?: (target: NoteTopologyJson) => void;
  onMoveUnder?: (target: NoteTopologyJson) => void;
}) {
  const topology = result.noteTopology;
  const title = noteTitleText(topology);
  const hasActions = Boolean(onLink || onMoveUnder);
  async function moveUnder() {
    if (await confirmPopup(`Are you sure you want to move this note under "${title}"?`)) onMoveUnder?.(topology);
  }
  return (
    // The distance ranks the results; it means nothing to a reader, so it is kept out of sight.
    <li className="card note-search-result" data-distance={formatDistance(result.distance)}>
      <h3 className="note-search-result-title" dir="auto">
        {hasActions ? title : <a href={notePath(topology.id)}>{title}</a>}
      </h3>
      {topology.shortDetails && (
        <p className="note-search-result-details" dir="auto">
          {topology.shortDetails}
        </p>
      )}
      {hasActions && (
        <div className="note-search-result-actions">
          {onLink && (
            <button type="button" className="button primary" onClick={() => onLink(topology)}>
              Link
            </button>
          )}
          {onMoveUnder && (
            <button type="button" className="button" onClick={moveUnder}>
              Move Under
            </button>
          )}
        </div>
      )}
    </li>
  );
}

/**
 * The note-search dialog: a key (searched 500 ms after the last keystroke, or at once on Enter),
 * how wide to look, and the literal and semantic results merged, closest first, in a grid.
 */
export function NoteSearchDialog({ noteId, title, onClose, onLink, onMoveUnder, takeTypedKeys }: NoteSearchDialogProps) {
  const inputId = useElementId(`note-search-key-${noteId ?? "global"}`);
  const [searchKey, setSearchKey] = useState("");
  // The search box takes the keys typed while the dialog was loading, once it has the focus.
  const takeKeys = useCallback(() => {
    const typed = takeTypedKeys?.();
    if (typed) setSearchKey((key) => key + typed);
  }, [takeTypedKeys]);
  // Without a note the search covers every notebook anyway: the option starts checked.
  const [allMine, setAllMine] = useState(noteId === undefined);
  const [allCircles, setAllCircles] = useState(false);
  const trimmed = searchKey.trim();
  const [debouncedKey, flush] = useDebouncedValue(trimmed, SEARCH_DEBOUNCE_MS);
  const term = { searchKey: debouncedKey, allMyNotebooksAndSubscriptions: allMine, allMyCircles: allCircles };
  const query = useQuery({ ...noteSearchQuery(noteId, term), enabled: debouncedKey !== "" });

  // Circles include my notebooks: checking circles checks mine, unchecking mine unchecks circles.
  const changeAllMine = (checked: boolean) => {
    setAllMine(checked);
    if (!checked) setAllCircles(false);
  };
  const changeAllCircles = (checked: boolean) => {
    setAllCircles(checked);
    if (checked) setAllMine(true);
  };

  const searching = trimmed !== "" && (trimmed !== debouncedKey || query.isPending || query.isFetching);
  const results = trimmed !== "" && !searching ? (query.data?.results ?? []) : [];
  let status = "";
  if (searching) status = "Searching ...";
  else if (trimmed !== "" && query.isError) status = "The search failed.";
  else if (trimmed !== "" && results.length === 0) status = "No matching notes found.";

  return (
    <Modal title={title} onClose={onClose}>
      <div className="note-search">
        {/* biome-ignore lint/a11y/useSemanticElements: the <search> element is too new for the browsers we support; the role says the same. */}
        <form
          role="search"
          className="note-search-form"
          onSubmit={(event) => {
            event.preventDefault();
            flush();
          }}
        >
          <label htmlFor={inputId} className="visually-hidden">
            Search
          </label>
          <input
            id={inputId}
            onFocus={takeKeys}
            type="search"
            className="note-search-input"
            dir="auto"
            placeholder="Search"
            autoComplete="off"
            value={searchKey}
            onChange={(event) => setSearchKey(event.target.value)}
          />
          <div className="note-search-options">
            <Checkbox
              label="All My Notebooks And Subscriptions"
              name="allMyNotebooksAndSubscriptions"
              checked={allMine}
              onChange={changeAllMine}
            />
            <Checkbox label="All My Circles" name="allMyCircles" checked={allCircles} onChange={changeAllCircles} />
          </div>
        </form>
        {query.data?.semantic === "off" && !searching && trimmed !== "" && (
          <p className="note-search-semantic muted">
            Semantic search is off: no AI provider is configured, so only literal matches are shown.
          </p>
        )}
        {query.data?.semantic === "failed" && !searching && trimmed !== "" && (
          <p className="note-search-semantic muted">Semantic search failed: only literal matches are shown.</p>
        )}
        {query.data?.progress && !searching && trimmed !== "" && (
          <p className="note-search-semantic muted">
            The semantic index is being built ({query.data.progress.embedded} of {query.data.progress.total} notes so far): notes not in it
            yet are found by their words only.
          </p>
        )}
        <p className="note-search-status muted" role="status" aria-live="polite">
          {status}
        </p>
        {results.length > 0 && (
          <ul className="note-search-results" aria-label="Search results">
            {results.map((result) => (
              <ResultCard key={result.noteTopology.id} result={result} onLink={onLink} onMoveUnder={onMoveUnder} />
            ))}
          </ul>
        )}
      </div>
    </Modal>
  );
}
