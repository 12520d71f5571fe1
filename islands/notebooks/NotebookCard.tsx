import { useQuery } from "@tanstack/react-query";
import { type FormEvent, type ReactNode, useState } from "react";
import { ApiError, api, call } from "../lib/api";
import { useElementId } from "../lib/island-id";
import { type NotebookJson, notePath } from "../lib/notes-queries";
import { circlesQuery } from "../lib/sharing/queries";
import { Modal } from "../lib/ui/Dialog";
import { confirmPopup, showToast, showToastOnNextPage } from "../lib/ui-store";
import { NotebookQuestionsDialog } from "./lazy-dialogs";

const Svg = ({ children }: { children: ReactNode }) => (
  <svg
    width={18}
    height={18}
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    strokeWidth="2"
    strokeLinecap="round"
    strokeLinejoin="round"
    aria-hidden="true"
    focusable="false"
  >
    {children}
  </svg>
);

/** Decorative icons of the card's buttons (each button's aria-label and title name it). */
const cardIcons = {
  settings: () => (
    <Svg>
      <circle cx="12" cy="12" r="3" />
      <path d="M19.4 15a1.7 1.7 0 0 0 .3 1.8l.1.1a2 2 0 1 1-2.8 2.8l-.1-.1a1.7 1.7 0 0 0-1.8-.3 1.7 1.7 0 0 0-1 1.5V21a2 2 0 1 1-4 0v-.1a1.7 1.7 0 0 0-1.1-1.5 1.7 1.7 0 0 0-1.8.3l-.1.1a2 2 0 1 1-2.8-2.8l.1-.1a1.7 1.7 0 0 0 .3-1.8 1.7 1.7 0 0 0-1.5-1H3a2 2 0 1 1 0-4h.1a1.7 1.7 0 0 0 1.5-1.1 1.7 1.7 0 0 0-.3-1.8l-.1-.1a2 2 0 1 1 2.8-2.8l.1.1a1.7 1.7 0 0 0 1.8.3H9a1.7 1.7 0 0 0 1-1.5V3a2 2 0 1 1 4 0v.1a1.7 1.7 0 0 0 1 1.5 1.7 1.7 0 0 0 1.8-.3l.1-.1a2 2 0 1 1 2.8 2.8l-.1.1a1.7 1.7 0 0 0-.3 1.8V9a1.7 1.7 0 0 0 1.5 1H21a2 2 0 1 1 0 4h-.1a1.7 1.7 0 0 0-1.5 1z" />
    </Svg>
  ),
  share: () => (
    <Svg>
      <circle cx="18" cy="5" r="3" />
      <circle cx="6" cy="12" r="3" />
      <circle cx="18" cy="19" r="3" />
      <path d="m8.6 13.5 6.8 4M15.4 6.5l-6.8 4" />
    </Svg>
  ),
  move: () => (
    <Svg>
      <path d="M3 7h6l2 2h10v10H3z" />
      <path d="m12 14 3-3-3-3M8 11h7" />
    </Svg>
  ),
  questions: () => (
    <Svg>
      <circle cx="12" cy="12" r="9" />
      <path d="M9.5 9a2.5 2.5 0 1 1 3.5 2.3c-.6.3-1 .8-1 1.5V14" />
      <path d="M12 17h.01" />
    </Svg>
  ),
};

function IconButton({
  label,
  onClick,
  children,
  disabledReason,
}: {
  label: string;
  onClick?: () => void;
  children: ReactNode;
  disabledReason?: string;
}) {
  return (
    <button
      type="button"
      className="icon-button"
      aria-label={label}
      title={disabledReason ?? label}
      aria-disabled={disabledReason ? true : undefined}
      onClick={disabledReason ? undefined : onClick}
    >
      {children}
    </button>
  );
}

/**
 * "Share notebook to bazaar": confirm, share, then the notebooks page, which says it is
 * shared. A notebook already in the bazaar is not shared twice: a toast says it is there.
 */
async function shareToBazaar(notebook: NotebookJson) {
  const bazaar = await call(api.bazaar.get());
  if (bazaar.some((entry) => entry.notebook.id === notebook.id)) {
    showToast(`${notebook.title} is already in the bazaar.`, "info");
    return;
  }
  if (!(await confirmPopup("Confirm to share?"))) return;
  await call(api.notebooks({ notebook: notebook.id }).share.post());
  showToastOnNextPage(`${notebook.title} is shared to the bazaar.`, "success");
  window.location.assign("/d/notebooks");
}

/** "Move to ...": the circles the creator belongs to; moving lands on the circle's page. */
function MoveNotebookDialog({ notebook, onClose }: { notebook: NotebookJson; onClose: () => void }) {
  const { data: circles, isPending } = useQuery(circlesQuery());
  const choices = (circles ?? []).filter((c) => c.id !== notebook.circle?.id);
  const [circleId, setCircleId] = useState<string>("");
  const [error, setError] = useState<string>();
  const [moving, setMoving] = useState(false);
  const selectId = useElementId("move-to-circle");

  async function move(event: FormEvent) {
    event.preventDefault();
    const target = circleId || String(choices[0]?.id ?? "");
    if (!target || moving) return;
    setMoving(true);
    try {
      await call(api.notebooks({ notebook: notebook.id })["move-to-circle"]({ circle: target }).patch(), { silent: true });
      window.location.assign(`/d/circles/${target}`);
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : "The notebook could not be moved");
      setMoving(false);
    }
  }

  return (
    <Modal title={`Move ${notebook.title} to a circle`} onClose={onClose}>
      {isPending ? (
        <p className="muted">Loading your circles...</p>
      ) : choices.length === 0 ? (
        <>
          <p>
            You are not in any other circle. <a href="/d/circles">Create or join a circle</a> first.
          </p>
          <div className="dialog-actions">
            <button type="button" className="button" onClick={onClose}>
              Close
            </button>
          </div>
        </>
      ) : (
        <form onSubmit={move}>
          <div className={`field${error ? " field-invalid" : ""}`}>
            <label htmlFor={selectId}>Circle</label>
            <select
              id={selectId}
              value={circleId || String(choices[0]!.id)}
              onChange={(event) => setCircleId(event.target.value)}
              aria-invalid={error ? true : undefined}
            >
              {choices.map((circle) => (
                <option key={circle.id} value={circle.id}>
                  {circle.name}
                </option>
              ))}
            </select>
            {error && (
              <div className="field-error" role="alert">
                {error}
              </div>
            )}
          </div>
          <p className="muted">Every member of the circle will read and edit this notebook.</p>
          <div className="dialog-actions">
            <button type="button" className="button" onClick={onClose}>
              Cancel
            </button>
            <button type="submit" className="button primary" disabled={moving}>
              Move
            </button>
          </div>
        </form>
      )}
    </Modal>
  );
}

/**
 * A notebook card of the notebooks page and of a circle's page: the title links to the head note;
 * the buttons edit the settings, move it into a circle and list its questions (its creator only),
 * and share it to the bazaar.
 */
export function NotebookCard({
  notebook,
  isCreator,
  onEditSettings,
  onAddToLearning,
}: {
  notebook: NotebookJson;
  isCreator: boolean;
  onEditSettings: () => void;
  /** On a circle's page: circle notes are learned by subscribing ("Add to my learning"). */
  onAddToLearning?: () => void;
}) {
  const [moving, setMoving] = useState(false);
  const [questions, setQuestions] = useState(false);
  return (
    <li className="card notebook-card">
      <h2 className="notebook-card-title">
        {/* The link stretches over the whole card (CSS); the buttons sit above it. */}
        <a href={notePath(notebook.headNoteId)} className="notebook-card-link" dir="auto">
          {notebook.title}
        </a>
      </h2>
      {notebook.shortDetails && (
        <p className="notebook-card-details" dir="auto">
          {notebook.shortDetails}
        </p>
      )}
      <div className="notebook-card-actions">
        {onAddToLearning && (
          <button type="button" className="button small" onClick={onAddToLearning}>
            Add to my learning
          </button>
        )}
        <IconButton label="Share notebook to bazaar" onClick={() => void shareToBazaar(notebook)}>
          {cardIcons.share()}
        </IconButton>
        {isCreator && (
          <IconButton label="Move to ..." onClick={() => setMoving(true)}>
            {cardIcons.move()}
          </IconButton>
        )}
        {isCreator && (
          <IconButton label="Notebook Questions" onClick={() => setQuestions(true)}>
            {cardIcons.questions()}
          </IconButton>
        )}
        <IconButton label="Edit notebook settings" onClick={onEditSettings}>
          {cardIcons.settings()}
        </IconButton>
      </div>
      {moving && <MoveNotebookDialog notebook={notebook} onClose={() => setMoving(false)} />}
      {questions && <NotebookQuestionsDialog notebookId={notebook.id} notebookTitle={notebook.title} onClose={() => setQuestions(false)} />}
    </li>
  );
}
