import { useState } from "react";

interface Props {
  finished: number;
  toRepeat: number;
  totalAssimilated: number;
  /** The result being looked at, or null while recalling. */
  cursor: number | null;
  onCursor: (cursor: number | null) => void;
}

/**
 * "Recalling: finished/(finished + to repeat)", with details on click, and the buttons that
 * browse the finished items: back, next (which resumes after the last), and "view last result".
 */
export function RecallProgress({ finished, toRepeat, totalAssimilated, cursor, onCursor }: Props) {
  const [details, setDetails] = useState(false);
  const total = finished + toRepeat;
  return (
    <div className="recall-progress-bar">
      <div className="recall-browse">
        {cursor === null ? (
          <button
            type="button"
            className="icon-button"
            aria-label="view last result"
            title="view last result"
            disabled={finished === 0}
            onClick={() => onCursor(finished - 1)}
          >
            <span aria-hidden="true">❚❚</span>
          </button>
        ) : (
          <>
            <button
              type="button"
              className="icon-button"
              aria-label="view previous result"
              title="view previous result"
              disabled={finished === 0 || cursor === 0}
              onClick={() => onCursor(cursor - 1)}
            >
              <span aria-hidden="true">◀</span>
            </button>
            <button
              type="button"
              className="icon-button"
              aria-label="view next result"
              title="view next result"
              onClick={() => onCursor(cursor + 1 < finished ? cursor + 1 : null)}
            >
              <span aria-hidden="true">▶</span>
            </button>
          </>
        )}
      </div>
      <button type="button" className="recall-progress" aria-expanded={details} onClick={() => setDetails(!details)}>
        <span className="recall-progress-fill" style={{ width: `${total === 0 ? 0 : (finished * 100) / total}%` }} />
        <span className="recall-progress-text">
          Recalling: {finished}/{total}
        </span>
      </button>
      {details && (
        <div className="recall-progress-details" role="status">
          <p>
            Daily Progress: {finished} / {total}
          </p>
          <p>
            Total assimilated: {finished} / {totalAssimilated}
          </p>
        </div>
      )}
    </div>
  );
}
