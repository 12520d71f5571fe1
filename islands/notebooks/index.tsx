import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { icons } from "../lib/icons";
import { useElementId } from "../lib/island-id";
import { type NotebookJson, notebooksQuery, notePath } from "../lib/notes-queries";
import { NEW_NOTEBOOK_PARAM } from "../lib/getting-started";
import { NewNotebookDialog } from "./NewNotebookDialog";
import { NotebookSettingsDialog } from "./NotebookSettingsDialog";

/** A gear, for the notebook settings button (decorative: the button's aria-label names it). */
function SettingsIcon() {
  return (
    <svg width={18} height={18} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2"
      strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      <circle cx="12" cy="12" r="3" />
      <path d="M19.4 15a1.7 1.7 0 0 0 .3 1.8l.1.1a2 2 0 1 1-2.8 2.8l-.1-.1a1.7 1.7 0 0 0-1.8-.3 1.7 1.7 0 0 0-1 1.5V21a2 2 0 1 1-4 0v-.1a1.7 1.7 0 0 0-1.1-1.5 1.7 1.7 0 0 0-1.8.3l-.1.1a2 2 0 1 1-2.8-2.8l.1-.1a1.7 1.7 0 0 0 .3-1.8 1.7 1.7 0 0 0-1.5-1H3a2 2 0 1 1 0-4h.1a1.7 1.7 0 0 0 1.5-1.1 1.7 1.7 0 0 0-.3-1.8l-.1-.1a2 2 0 1 1 2.8-2.8l.1.1a1.7 1.7 0 0 0 1.8.3H9a1.7 1.7 0 0 0 1-1.5V3a2 2 0 1 1 4 0v.1a1.7 1.7 0 0 0 1 1.5 1.7 1.7 0 0 0 1.8-.3l.1-.1a2 2 0 1 1 2.8 2.8l-.1.1a1.7 1.7 0 0 0-.3 1.8V9a1.7 1.7 0 0 0 1.5 1H21a2 2 0 1 1 0 4h-.1a1.7 1.7 0 0 0-1.5 1z" />
    </svg>
  );
}

function NotebookCard({ notebook, onEditSettings }: { notebook: NotebookJson; onEditSettings: () => void }) {
  return (
    <li className="card notebook-card">
      <h2 className="notebook-card-title">
        {/* The link stretches over the whole card (CSS); the buttons sit above it. */}
        <a href={notePath(notebook.headNoteId)} className="notebook-card-link" dir="auto">{notebook.title}</a>
      </h2>
      {notebook.shortDetails && <p className="notebook-card-details">{notebook.shortDetails}</p>}
      <div className="notebook-card-actions">
        <button type="button" className="icon-button" aria-label="Edit notebook settings" title="Edit notebook settings"
          onClick={onEditSettings}>
          <SettingsIcon />
        </button>
      </div>
    </li>
  );
}

/** The /d/notebooks page: the user's own notebooks as a grid of cards, and the subscribed notebooks. */
export default function Notebooks() {
  const { data, isPending } = useQuery(notebooksQuery());
  const [adding, setAdding] = useState(false);
  const [editingId, setEditingId] = useState<number>();
  const notebooks = data?.notebooks ?? [];
  const subscriptions = data?.subscriptions ?? [];
  const editing = notebooks.find((n) => n.id === editingId);
  const subscribedHeadingId = useElementId("subscribed-notes-heading");

  // Arriving from "Add New Notebook" on an empty learning page (?new=1): the dialog opens at once.
  // After hydration, as the server renders it closed; the parameter goes, so a reload does not reopen it.
  useEffect(() => {
    const url = new URL(window.location.href);
    if (!url.searchParams.has(NEW_NOTEBOOK_PARAM)) return;
    url.searchParams.delete(NEW_NOTEBOOK_PARAM);
    history.replaceState(history.state, "", url);
    setAdding(true);
  }, []);

  return (
    <div className="notebooks-page">
      <div className="page-heading">
        <h1>Notebooks</h1>
        <button type="button" className="button primary" onClick={() => setAdding(true)}>
          {icons.note()} Add New Notebook
        </button>
      </div>

      {isPending ? (
        <p className="muted">Loading notebooks...</p>
      ) : notebooks.length === 0 ? (
        <section className="card getting-started first-notebook" aria-label="Your first notebook">
          <h2>Start your first notebook</h2>
          <p>You have no notebooks yet. Add one to start taking notes.</p>
          <p className="muted">
            A notebook holds the notes of one subject. Each note you add is offered on the Assimilate page, a few a
            day, and then comes back on the Recall page just before you would forget it.
          </p>
          <p>
            <button type="button" className="button primary" onClick={() => setAdding(true)}>Create your first notebook</button>
          </p>
        </section>
      ) : (
        <ul className="notebook-grid" aria-label="My notebooks">
          {notebooks.map((notebook) => (
            <NotebookCard key={notebook.id} notebook={notebook} onEditSettings={() => setEditingId(notebook.id)} />
          ))}
        </ul>
      )}

      <section className="subscribed-notes" aria-labelledby={subscribedHeadingId}>
        <h2 id={subscribedHeadingId}>Subscribed Notes</h2>
        {subscriptions.length === 0 && <p className="muted">You have not subscribed to any notebooks.</p>}
      </section>

      {adding && <NewNotebookDialog onClose={() => setAdding(false)} />}
      {editing && <NotebookSettingsDialog notebook={editing} onClose={() => setEditingId(undefined)} />}
    </div>
  );
}
