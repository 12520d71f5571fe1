import { type KeyboardEvent, useEffect, useRef, useState } from "react";
import { TextField } from "../../lib/forms";
import { useElementId } from "../../lib/island-id";
import { searchWikidata, type WikidataSearchEntity } from "./wikidata-api";

/** Spec 9: search debounce, and the title dropdown hides this long after the field loses focus. */
export const SEARCH_DEBOUNCE_MS = 500;
export const TITLE_DROPDOWN_HIDE_MS = 200;

/**
 * The new-note title field, searching Wikidata as the title is typed: the results drop down
 * beneath it (arrow keys and Enter, or a click, choose one; Escape closes the list) and hide
 * 200 ms after the field loses focus. Choosing one calls onSelect; the dialog decides what it
 * does with the title. Suggestions are a convenience: when Wikidata cannot be reached (offline,
 * say) they are quietly absent, with a small muted hint, never an error.
 */
export function WikidataTitleField({
  value,
  error,
  onChange,
  onSelect,
}: {
  value: string;
  error?: string;
  onChange: (title: string) => void;
  onSelect: (result: WikidataSearchEntity) => void;
}) {
  const [results, setResults] = useState<WikidataSearchEntity[]>([]);
  const [unavailable, setUnavailable] = useState(false);
  const [showing, setShowing] = useState(false);
  const [active, setActive] = useState(-1);
  const timers = useRef({
    search: undefined as ReturnType<typeof setTimeout> | undefined,
    hide: undefined as ReturnType<typeof setTimeout> | undefined,
  });
  /** Only the answer to the latest search is shown. */
  const latest = useRef(0);
  const listId = useElementId("wikidata-title-results");

  useEffect(
    () => () => {
      clearTimeout(timers.current.search);
      clearTimeout(timers.current.hide);
    },
    [],
  );

  function search(text: string) {
    clearTimeout(timers.current.search);
    const ticket = ++latest.current;
    if (text.trim() === "") {
      setResults([]);
      setUnavailable(false);
      return;
    }
    timers.current.search = setTimeout(async () => {
      try {
        const found = await searchWikidata(text.trim());
        if (ticket !== latest.current) return;
        setResults(found);
        setUnavailable(false);
        setActive(-1);
      } catch {
        if (ticket !== latest.current) return;
        setResults([]);
        setUnavailable(true);
      }
    }, SEARCH_DEBOUNCE_MS);
  }

  function choose(result: WikidataSearchEntity) {
    latest.current++;
    setShowing(false);
    setResults([]);
    setActive(-1);
    onSelect(result);
  }

  const expanded = showing && results.length > 0;

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === "ArrowDown" && results.length > 0) {
      event.preventDefault();
      setShowing(true);
      setActive((i) => Math.min(i + 1, results.length - 1));
    } else if (event.key === "ArrowUp" && expanded) {
      event.preventDefault();
      setActive((i) => Math.max(i - 1, 0));
    } else if (event.key === "Enter" && expanded && active >= 0 && results[active]) {
      event.preventDefault();
      choose(results[active]);
    } else if (event.key === "Escape" && expanded) {
      event.stopPropagation(); // closes the list, not the dialog
      setShowing(false);
    }
  }

  return (
    <div className="wikidata-title-search">
      <TextField
        label="Title"
        name="newTitle"
        value={value}
        error={error}
        maxLength={150}
        autoComplete="off"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={expanded && active >= 0 ? `${listId}-${active}` : undefined}
        onChange={(event) => {
          onChange(event.target.value);
          setShowing(true);
          search(event.target.value);
        }}
        onFocus={(event) => {
          event.target.select();
          clearTimeout(timers.current.hide);
          setShowing(true);
        }}
        onBlur={() => {
          timers.current.hide = setTimeout(() => setShowing(false), TITLE_DROPDOWN_HIDE_MS);
        }}
        onKeyDown={onKeyDown}
      />
      {expanded && (
        <div className="wikidata-results">
          {/* biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: the combobox pattern's listbox; focus stays in the input. */}
          <ul role="listbox" id={listId} aria-label="Wikidata search results">
            {results.map((result, index) => (
              // biome-ignore lint/a11y/useKeyWithClickEvents: an option of the combobox: the keys are handled by its input (aria-activedescendant).
              // biome-ignore lint/a11y/useFocusableInteractive: options are not focused; the input keeps focus and points at the active one.
              <li
                key={result.id}
                id={`${listId}-${index}`}
                // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: the combobox pattern's option, in its listbox.
                role="option"
                aria-selected={index === active}
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => choose(result)}
              >
                <span className="wikidata-result-label">{result.label}</span>
                {result.description && (
                  <>
                    {" "}
                    <span className="wikidata-result-description">{result.description}</span>
                  </>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}
      {unavailable && <p className="field-hint">Wikidata suggestions are unavailable right now.</p>}
    </div>
  );
}

/** The label of a chosen result whose label differs from the title: Replace the title, or Append " / " and it. */
export function SuggestedTitle({ suggestion, onReplace, onAppend }: { suggestion: string; onReplace: () => void; onAppend: () => void }) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a labelled group of a suggestion and its buttons; a fieldset would need a visible legend.
    <div className="wikidata-suggested-title" role="group" aria-label="Wikidata suggestion">
      <span>
        Suggested Title: <strong>{suggestion}</strong>
      </span>
      <span className="wikidata-suggested-actions">
        <button type="button" className="button small" onClick={onReplace}>
          Replace
        </button>
        <button type="button" className="button small" onClick={onAppend}>
          Append
        </button>
      </span>
    </div>
  );
}
