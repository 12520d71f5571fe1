import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { notePath } from "../lib/notes-queries";
import { currentUserInfoQuery } from "../lib/queries";
import { bazaarQuery } from "../lib/sharing/queries";
import { SubscriptionDialog } from "../lib/sharing/SubscriptionDialog";
import { alertPopup, signInLink } from "../lib/ui-store";

export const LOGIN_TO_ADD = "Please login first";
export const LOGIN_TO_ASSESS = "You need to be logged in to start an assessment.";

/**
 * /d/bazaar: the notebooks people shared, as cards. Anyone may look; "Add to my learning"
 * subscribes (signed in) and "Start Assessment" opens the notebook's assessment; signed out,
 * each says to log in first, with a link to sign in and come back.
 */
export default function Bazaar() {
  const { data: entries = [] } = useQuery(bazaarQuery());
  const { data: info } = useQuery(currentUserInfoQuery());
  const [adding, setAdding] = useState<number>();
  const me = info?.user ? info.externalIdentifier : undefined;

  if (entries.length === 0) {
    return (
      <section className="card empty-bazaar" aria-label="No shared notebooks yet">
        <h2>Nothing shared yet</h2>
        <p>When learners share a notebook with "Share notebook to bazaar", it appears here for everyone to read and learn from.</p>
        {me && (
          <p>
            <a href="/d/notebooks">Share one of your notebooks</a>
          </p>
        )}
      </section>
    );
  }
  return (
    <>
      <ul className="notebook-grid" aria-label="Shared notebooks">
        {entries.map(({ id, notebook }) => (
          <li key={id} className="card notebook-card bazaar-card">
            <h2 className="notebook-card-title">
              <a href={notePath(notebook.headNoteId)} className="notebook-card-link" dir="auto">
                {notebook.title}
              </a>
            </h2>
            {notebook.certifiable && (
              <span className="certificate-badge" title="Passing its assessment gives a certificate">
                Certificate
              </span>
            )}
            <p className="notebook-card-author muted" dir="auto">
              by {notebook.creatorName}
            </p>
            {notebook.shortDetails && (
              <p className="notebook-card-details" dir="auto">
                {notebook.shortDetails}
              </p>
            )}
            <div className="notebook-card-actions bazaar-card-actions">
              {/* creatorId is sent to the creator alone: a notebook without it is someone else's. */}
              {!notebook.notebookSettings.skipMemoryTrackingEntirely && (notebook.creatorId === undefined || notebook.creatorId !== me) && (
                <button
                  type="button"
                  className="button small"
                  onClick={() => (me ? setAdding(notebook.id) : void alertPopup(LOGIN_TO_ADD, signInLink()))}
                >
                  Add to my learning
                </button>
              )}
              <button
                type="button"
                className="button small"
                onClick={() =>
                  me ? window.location.assign(`/d/assessment/notebook/${notebook.id}`) : void alertPopup(LOGIN_TO_ASSESS, signInLink())
                }
              >
                Start Assessment
              </button>
            </div>
          </li>
        ))}
      </ul>
      {adding !== undefined && <SubscriptionDialog notebookId={adding} onClose={() => setAdding(undefined)} />}
    </>
  );
}
