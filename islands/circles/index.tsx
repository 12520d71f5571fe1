import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { api, call } from "../lib/api";
import { DialogActions, TextField } from "../lib/forms";
import { circlePath, circlesQuery } from "../lib/sharing/queries";
import { Modal } from "../lib/ui/Dialog";
import { useFormSubmit } from "../lib/use-form-submit";

/** A pasted join link works as well as the bare code: the code is its last path segment. */
export function invitationCodeOf(text: string): string {
  const trimmed = text.trim();
  const match = /\/d\/circles\/join\/([^/?#\s]+)/.exec(trimmed);
  return match ? decodeURIComponent(match[1]!) : trimmed;
}

function CreateCircleDialog({ onClose }: { onClose: () => void }) {
  const [name, setName] = useState("");
  const { errors, submitting, submit } = useFormSubmit(
    () => call(api.circles.post({ name })),
    (circle) => window.location.assign(circlePath(circle.id)),
  );
  return (
    <Modal title="Create a new circle" onClose={onClose}>
      <form onSubmit={submit} noValidate aria-busy={submitting || undefined}>
        <fieldset className="plain-fieldset" disabled={submitting}>
          <TextField
            label="Name"
            name="name"
            value={name}
            error={errors.name}
            maxLength={255}
            autoComplete="off"
            placeholder="e.g. Chess club"
            onChange={(event) => setName(event.target.value)}
          />
          <DialogActions onCancel={onClose} submitting={submitting} />
        </fieldset>
      </form>
    </Modal>
  );
}

/** The join box: an invitation code (or the whole link) and "Join". */
function JoinForm({ initialCode = "" }: { initialCode?: string }) {
  const [code, setCode] = useState(initialCode);
  const { errors, submitting, submit } = useFormSubmit(
    () => call(api.circles.join.post({ invitationCode: invitationCodeOf(code) })),
    (circle) => window.location.assign(circlePath(circle.id)),
  );
  return (
    <form className="join-circle-form" onSubmit={submit} noValidate aria-busy={submitting || undefined}>
      <fieldset className="plain-fieldset" disabled={submitting}>
        <TextField
          label="Invitation code or link"
          name="invitationCode"
          value={code}
          error={errors.invitationCode}
          autoComplete="off"
          spellCheck={false}
          onChange={(event) => setCode(event.target.value)}
        />
        <button type="submit" className="button primary">
          Join
        </button>
      </fieldset>
    </form>
  );
}

/**
 * /d/circles (my circles, "Create a new circle", the join box) and /d/circles/join/{code} (the
 * invitation: the circle's name when the code is right, and "Join").
 */
export default function Circles({ invitationCode, invitedTo }: { invitationCode?: string; invitedTo?: string }) {
  if (invitationCode !== undefined) {
    return (
      <section className="card narrow-form join-circle">
        {invitedTo ? (
          <p dir="auto">
            You are invited to join the circle <strong>{invitedTo}</strong>.
          </p>
        ) : invitationCode ? (
          <p>This invitation does not match any circle. Check the link, or paste the code you were given.</p>
        ) : (
          <p>Paste the invitation link or code a member of the circle gave you.</p>
        )}
        <JoinForm initialCode={invitationCode} />
      </section>
    );
  }
  return <MyCircles />;
}

function MyCircles() {
  const { data: circles = [], isPending } = useQuery(circlesQuery());
  const [creating, setCreating] = useState(false);
  return (
    <div className="circles-page">
      <div className="page-actions">
        <button type="button" className="button primary" onClick={() => setCreating(true)}>
          Create a new circle
        </button>
      </div>
      {isPending ? (
        <p className="muted">Loading circles...</p>
      ) : circles.length === 0 ? (
        <p className="empty-state">You are not in any circle yet. Create one and share its invitation link, or join one below.</p>
      ) : (
        <ul className="notebook-grid circle-grid" aria-label="My circles">
          {circles.map((circle) => (
            <li key={circle.id} className="card notebook-card circle-card">
              <h2 className="notebook-card-title">
                <a href={circlePath(circle.id)} className="notebook-card-link" dir="auto">
                  {circle.name}
                </a>
              </h2>
            </li>
          ))}
        </ul>
      )}
      <section className="card join-circle" aria-label="Join a circle">
        <h2>Join a circle</h2>
        <JoinForm />
      </section>
      {creating && <CreateCircleDialog onClose={() => setCreating(false)} />}
    </div>
  );
}
