import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { icons } from "../lib/icons";
import { useElementId } from "../lib/island-id";
import { circleQuery } from "../lib/sharing/queries";
import { showToast } from "../lib/ui-store";
import { NewNotebookDialog, NotebookSettingsDialog, SubscriptionDialog } from "./lazy-dialogs";
import { NotebookCard } from "./NotebookCard";

/**
 * /d/circles/{id}: the circle's notebooks (cards with the same buttons as own notebooks), its
 * members, the invitation link to copy, and "Add New Notebook In This Circle".
 */
export function CirclePage({ circleId, joinLinkBase, me }: { circleId: number; joinLinkBase: string; me?: string }) {
  const { data: circle } = useQuery(circleQuery(circleId));
  const [adding, setAdding] = useState(false);
  const [editingId, setEditingId] = useState<number>();
  const [subscribingTo, setSubscribingTo] = useState<number>();
  const linkId = useElementId("invitation-link");
  const membersHeadingId = useElementId("circle-members");
  if (!circle) return <p className="muted">Loading the circle...</p>;
  const notebooks = circle.notebooks.notebooks;
  const editing = notebooks.find((n) => n.id === editingId);
  const joinLink = joinLinkBase + circle.invitationCode;

  async function copyLink() {
    try {
      await navigator.clipboard.writeText(joinLink);
      showToast("Invitation link copied", "success");
    } catch {
      document.getElementById(linkId)?.focus();
      (document.getElementById(linkId) as HTMLInputElement | null)?.select();
      showToast("Copy the selected link with Ctrl+C", "info");
    }
  }

  return (
    <div className="notebooks-page circle-page">
      <div className="page-heading">
        <h1 dir="auto">Circle: {circle.name}</h1>
        <button type="button" className="button primary" onClick={() => setAdding(true)}>
          {icons.note()} Add New Notebook In This Circle
        </button>
      </div>
      <section className="card circle-invitation" aria-label="Invitation">
        <label htmlFor={linkId}>Invitation link</label>
        <div className="copy-field">
          <input id={linkId} type="text" readOnly value={joinLink} onFocus={(event) => event.currentTarget.select()} />
          <button type="button" className="button" onClick={() => void copyLink()}>
            {icons.copy()} Copy
          </button>
        </div>
        <p className="muted">Anyone with this link can join the circle and read and edit its notebooks.</p>
      </section>
      <section className="circle-members" aria-labelledby={membersHeadingId}>
        <h2 id={membersHeadingId}>Members</h2>
        <ul className="member-strip">
          {circle.members.map((member, index) => (
            <li
              // biome-ignore lint/suspicious/noArrayIndexKey: members come as names only (which may repeat), in joining order.
              key={index}
              className="member-chip"
              dir="auto"
              title={member.name}
            >
              <span className="member-initial" aria-hidden="true">
                {member.name.slice(0, 1).toUpperCase()}
              </span>
              {member.name}
            </li>
          ))}
        </ul>
      </section>
      {notebooks.length === 0 ? (
        <p className="empty-state">This circle has no notebooks yet. Add one, or move one of yours here with "Move to ...".</p>
      ) : (
        <ul className="notebook-grid" aria-label="Circle notebooks">
          {notebooks.map((notebook) => (
            <NotebookCard
              key={notebook.id}
              notebook={notebook}
              isCreator={notebook.creatorId !== undefined && notebook.creatorId === me}
              onEditSettings={() => setEditingId(notebook.id)}
              onAddToLearning={() => setSubscribingTo(notebook.id)}
            />
          ))}
        </ul>
      )}
      {adding && <NewNotebookDialog circleId={circle.id} onClose={() => setAdding(false)} />}
      {editing && <NotebookSettingsDialog notebook={editing} onClose={() => setEditingId(undefined)} />}
      {subscribingTo !== undefined && <SubscriptionDialog notebookId={subscribingTo} onClose={() => setSubscribingTo(undefined)} />}
    </div>
  );
}
