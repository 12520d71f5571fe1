import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { api, call } from "../lib/api";
import { NEW_NOTEBOOK_PARAM } from "../lib/getting-started";
import { icons } from "../lib/icons";
import { useElementId } from "../lib/island-id";
import { notebooksQuery, notePath } from "../lib/notes-queries";
import { currentUserInfoQuery } from "../lib/queries";
import type { SubscriptionJson } from "../lib/sharing/queries";
import { CirclePage } from "./CirclePage";
import { AnkiImportDialog, NewNotebookDialog, NotebookSettingsDialog, SubscriptionDialog } from "./lazy-dialogs";
import { NotebookCard } from "./NotebookCard";

/** A subscribed notebook: its head note, "Edit subscription" and "Unsubscribe". */
function SubscriptionCard({ subscription, onEdit }: { subscription: SubscriptionJson; onEdit: () => void }) {
  const queryClient = useQueryClient();
  const [leaving, setLeaving] = useState(false);
  async function unsubscribe() {
    setLeaving(true);
    try {
      await call(api.subscriptions({ subscription: subscription.id }).delete.post());
      await queryClient.invalidateQueries({ queryKey: notebooksQuery().queryKey });
    } finally {
      setLeaving(false);
    }
  }
  return (
    <li className="card notebook-card subscription-card">
      <h3 className="notebook-card-title">
        <a href={notePath(subscription.headNote.id)} className="notebook-card-link" dir="auto">
          {subscription.title}
        </a>
      </h3>
      <p className="notebook-card-details">{subscription.dailyTargetOfNewNotes} new notes a day</p>
      <div className="notebook-card-actions">
        <button type="button" className="button small" onClick={onEdit}>
          Edit subscription
        </button>
        <button type="button" className="button small" disabled={leaving} onClick={() => void unsubscribe()}>
          Unsubscribe
        </button>
      </div>
    </li>
  );
}

/**
 * The /d/notebooks page: the user's own notebooks as a grid of cards, and the subscribed
 * notebooks. With a circleId, the circle's page (its notebooks have the same cards).
 */
export default function Notebooks({ circleId, joinLinkBase = "" }: { circleId?: number; joinLinkBase?: string }) {
  const { data: info } = useQuery(currentUserInfoQuery());
  if (circleId !== undefined) return <CirclePage circleId={circleId} joinLinkBase={joinLinkBase} me={info?.externalIdentifier} />;
  return <MyNotebooks me={info?.externalIdentifier} />;
}

function MyNotebooks({ me }: { me?: string }) {
  const { data, isPending } = useQuery(notebooksQuery());
  const [adding, setAdding] = useState(false);
  const [importingAnki, setImportingAnki] = useState(false);
  const [editingId, setEditingId] = useState<number>();
  const notebooks = data?.notebooks ?? [];
  const subscriptions = data?.subscriptions ?? [];
  const editing = notebooks.find((n) => n.id === editingId);
  const [editingSubscriptionId, setEditingSubscriptionId] = useState<number>();
  const editingSubscription = subscriptions.find((sub) => sub.id === editingSubscriptionId);
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
        <div className="page-heading-actions">
          <button type="button" className="button" onClick={() => setImportingAnki(true)}>
            Import Anki deck
          </button>
          <button type="button" className="button primary" onClick={() => setAdding(true)}>
            {icons.note()} Add New Notebook
          </button>
        </div>
      </div>

      {isPending ? (
        <p className="muted">Loading notebooks...</p>
      ) : notebooks.length === 0 ? (
        <section className="card getting-started first-notebook" aria-label="Your first notebook">
          <h2>Start your first notebook</h2>
          <p>You have no notebooks yet. Add one to start taking notes.</p>
          <p className="muted">
            A notebook holds the notes of one subject. Each note you add is offered on the Assimilate page, a few a day, and then comes back
            on the Recall page just before you would forget it.
          </p>
          <p>
            <button type="button" className="button primary" onClick={() => setAdding(true)}>
              Create your first notebook
            </button>
          </p>
        </section>
      ) : (
        <ul className="notebook-grid" aria-label="My notebooks">
          {notebooks.map((notebook) => (
            <NotebookCard
              key={notebook.id}
              notebook={notebook}
              isCreator={notebook.creatorId !== undefined && notebook.creatorId === me}
              onEditSettings={() => setEditingId(notebook.id)}
            />
          ))}
        </ul>
      )}

      {/* The note page's breadcrumbs lead a subscriber here (views/pages/NotePage.tsx). */}
      <section className="subscribed-notes" id="subscribed-notebooks" aria-labelledby={subscribedHeadingId}>
        <h2 id={subscribedHeadingId}>Subscribed Notebooks</h2>
        {subscriptions.length === 0 ? (
          <p className="muted">
            You have not subscribed to any notebooks. Find one in the <a href="/d/bazaar">Bazaar</a> and choose "Add to my learning".
          </p>
        ) : (
          <ul className="notebook-grid" aria-labelledby={subscribedHeadingId}>
            {subscriptions.map((subscription) => (
              <SubscriptionCard
                key={subscription.id}
                subscription={subscription}
                onEdit={() => setEditingSubscriptionId(subscription.id)}
              />
            ))}
          </ul>
        )}
      </section>

      {adding && <NewNotebookDialog onClose={() => setAdding(false)} />}
      {importingAnki && <AnkiImportDialog onClose={() => setImportingAnki(false)} />}
      {editing && <NotebookSettingsDialog notebook={editing} onClose={() => setEditingId(undefined)} />}
      {editingSubscription && <SubscriptionDialog subscription={editingSubscription} onClose={() => setEditingSubscriptionId(undefined)} />}
    </div>
  );
}
