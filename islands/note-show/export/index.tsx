import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useElementId } from "../../lib/island-id";
import { Modal } from "../../lib/ui/Dialog";
import { noteGraphQuery, TOKEN_LIMIT, validTokenLimit } from "./graph-query";
import { JsonActions } from "./json-actions";

/** Waits this long after the last keystroke in the token limit before asking for the graph again. */
const LIMIT_DEBOUNCE_MS = 400;

/**
 * "Export...": the note graph (the focus note and its related notes within a token limit, the
 * same context the AI gets) as JSON, to preview, copy or download.
 */
export function ExportDialog({ noteId, onClose }: { noteId: number; onClose: () => void }) {
  const limitId = useElementId(`note-${noteId}-export-token-limit`);
  const previewRef = useRef<HTMLTextAreaElement>(null);
  const [limitText, setLimitText] = useState(String(TOKEN_LIMIT.initial));
  const [tokenLimit, setTokenLimit] = useState<number>(TOKEN_LIMIT.initial);
  const typedLimit = validTokenLimit(limitText);

  useEffect(() => {
    if (typedLimit === undefined || typedLimit === tokenLimit) return;
    const timer = setTimeout(() => setTokenLimit(typedLimit), LIMIT_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [typedLimit, tokenLimit]);

  // The previous graph stays on screen while the one for a new limit loads.
  const { data: graph, isFetching, isError } = useQuery({ ...noteGraphQuery(noteId, tokenLimit), placeholderData: keepPreviousData });
  const json = graph ? JSON.stringify(graph, null, 2) : undefined;

  function selectPreview() {
    previewRef.current?.focus();
    previewRef.current?.select();
  }

  return (
    <Modal title="Export Note Graph" onClose={onClose}>
      <div className="graph-export">
        <div className={`field graph-export-limit${typedLimit === undefined ? " field-invalid" : ""}`}>
          <label htmlFor={limitId}>Token Limit</label>
          <input
            id={limitId}
            name="tokenLimit"
            type="number"
            inputMode="numeric"
            min={TOKEN_LIMIT.min}
            max={TOKEN_LIMIT.max}
            step={TOKEN_LIMIT.step}
            value={limitText}
            aria-invalid={typedLimit === undefined || undefined}
            aria-describedby={`${limitId}-hint`}
            onChange={(event) => setLimitText(event.target.value)}
          />
          <span id={`${limitId}-hint`} className="muted graph-export-hint">
            {TOKEN_LIMIT.min} to {TOKEN_LIMIT.max} tokens
            {graph && (
              <>
                {" "}
                · {graph.relatedNotes.length} related {graph.relatedNotes.length === 1 ? "note" : "notes"}
              </>
            )}
          </span>
        </div>
        {json === undefined ? (
          <p className="muted" role="status">
            {isError ? "The note graph could not be loaded." : "Loading..."}
          </p>
        ) : (
          <textarea
            ref={previewRef}
            className="graph-export-preview"
            aria-label="Note graph JSON"
            readOnly
            value={json}
            aria-busy={isFetching || undefined}
            spellCheck={false}
            rows={16}
          />
        )}
        <JsonActions json={json} fileName={`note-${noteId}-graph.json`} onCopyRefused={selectPreview} />
      </div>
    </Modal>
  );
}
