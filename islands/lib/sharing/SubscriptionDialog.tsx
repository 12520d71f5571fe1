import { useState } from "react";
import { api, call, subscribeToNotebook } from "../api";
import { DialogActions, TextField } from "../forms";
import { Modal } from "../ui/Dialog";
import { useFormSubmit } from "../use-form-submit";
import type { SubscriptionJson } from "./queries";

export const DEFAULT_DAILY_TARGET = 5;

/**
 * "Add to my learning" (subscribe to a notebook) and "Edit subscription": one field, the daily
 * target of new notes. The server checks it (a positive whole number) and its message shows
 * beside the field. Afterwards the page goes to the notebooks page, where subscriptions are listed.
 */
export function SubscriptionDialog({
  notebookId,
  subscription,
  onClose,
}: {
  notebookId?: number;
  subscription?: SubscriptionJson;
  onClose: () => void;
}) {
  const [target, setTarget] = useState(String(subscription?.dailyTargetOfNewNotes ?? DEFAULT_DAILY_TARGET));
  // Sent as typed when it is not a number, so the server's message explains what is wrong.
  const asTyped = () => (/^-?\d+(\.\d+)?$/.test(target.trim()) ? Number(target.trim()) : target.trim());
  const { errors, submitting, submit } = useFormSubmit(
    () =>
      subscription
        ? call(api.subscriptions({ subscription: subscription.id }).post({ dailyTargetOfNewNotes: asTyped() }))
        : call(subscribeToNotebook(notebookId!, { dailyTargetOfNewNotes: asTyped() })),
    () => window.location.assign("/d/notebooks"),
  );

  return (
    <Modal title={subscription ? "Edit subscription" : "Add to my learning"} onClose={onClose}>
      <form onSubmit={submit} noValidate aria-busy={submitting || undefined}>
        {subscription && (
          <p className="muted" dir="auto">
            {subscription.title}
          </p>
        )}
        <fieldset className="plain-fieldset" disabled={submitting}>
          <TextField
            label="Daily target of new notes"
            name="dailyTargetOfNewNotes"
            type="number"
            inputMode="numeric"
            min={1}
            step={1}
            value={target}
            error={errors.dailyTargetOfNewNotes}
            onChange={(event) => setTarget(event.target.value)}
          />
          <p className="muted field-hint">How many new notes of this notebook Assimilate offers you each day, before your own.</p>
          <DialogActions onCancel={onClose} submitLabel={subscription ? "Update" : "Submit"} submitting={submitting} />
        </fieldset>
      </form>
    </Modal>
  );
}
