import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import type { UserJson } from "../../src/services/users";
import { ApiError, api, call } from "../lib/api";
import { DialogActions, TextField } from "../lib/forms";
import { currentUserInfoQuery } from "../lib/queries";
import { Modal } from "../lib/ui/Dialog";
import { showToast } from "../lib/ui-store";
import { AccountSecurity } from "./AccountSecurity";
import { SchedulerFields, schedulerPatch } from "./SchedulerFields";

/** What the toast says after saving: a change of scheduler is told with what it did to the notes. */
function savedText(before: string, after: string): string {
  if (before === after) return "Settings saved";
  return after === "fsrs"
    ? "Settings saved. Switched to FSRS: each note's memory was converted, and no due date moved."
    : "Settings saved. Switched to the classic forgetting curve: no due date moved.";
}

/** "Settings for {name}": the user's name, daily assimilation count and space intervals; then sessions and password. */
export function UserSettingsDialog({ user, onClose }: { user: UserJson; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [form, setForm] = useState({
    name: user.name,
    dailyAssimilationCount: String(user.dailyAssimilationCount),
    spaceIntervals: user.spaceIntervals,
    scheduler: user.scheduler,
    desiredRetention: String(user.desiredRetention),
    maximumIntervalDays: String(user.maximumIntervalDays),
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const set = (field: keyof typeof form) => (event: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [field]: event.target.value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (saving) return;
    const count = Number(form.dailyAssimilationCount);
    if (form.dailyAssimilationCount.trim() === "" || !Number.isInteger(count)) {
      setErrors({ dailyAssimilationCount: "must be a whole number from 0 to 1000" });
      return;
    }
    setSaving(true);
    try {
      await call(
        api.user({ user: user.id }).patch({
          name: form.name,
          dailyAssimilationCount: count,
          spaceIntervals: form.spaceIntervals,
          ...schedulerPatch(form),
        }),
      );
      await queryClient.invalidateQueries({ queryKey: currentUserInfoQuery().queryKey });
      showToast(savedText(user.scheduler, form.scheduler), "success");
      onClose();
    } catch (e) {
      if (e instanceof ApiError) setErrors(e.errors);
      setSaving(false);
    }
  }

  return (
    <Modal title={`Settings for ${user.name}`} onClose={onClose}>
      {/* Its Submit stays in view while the fields scroll (app.css: .keeps-actions-in-view). */}
      <form onSubmit={submit} noValidate className="keeps-actions-in-view">
        <TextField label="Name" name="name" value={form.name} error={errors.name} onChange={set("name")} maxLength={100} />
        <TextField
          label="Daily Assimilation Count"
          name="dailyAssimilationCount"
          type="number"
          min={0}
          max={1000}
          value={form.dailyAssimilationCount}
          error={errors.dailyAssimilationCount}
          onChange={set("dailyAssimilationCount")}
        />
        <TextField
          label="Space Intervals"
          name="spaceIntervals"
          value={form.spaceIntervals}
          error={errors.spaceIntervals}
          onChange={set("spaceIntervals")}
          placeholder="0, 1, 1, 2, 3, 5, 8, 13"
        />
        <SchedulerFields form={form} errors={errors} onChange={set} />
        <DialogActions onCancel={onClose} submitting={saving} />
      </form>
      <AccountSecurity />
    </Modal>
  );
}
