import type { ChangeEvent } from "react";
import { TextField } from "../lib/forms";
import { useElementId } from "../lib/island-id";

export interface SchedulerForm {
  scheduler: string;
  desiredRetention: string;
  maximumIntervalDays: string;
}

/**
 * "Scheduler" with its FSRS settings (issue 17). Desired retention and maximum interval matter
 * only to FSRS, so they show only when FSRS is chosen.
 */
export function SchedulerFields({ form, errors, onChange }: {
  form: SchedulerForm;
  errors: Record<string, string>;
  onChange: (field: keyof SchedulerForm) => (event: { target: { value: string } }) => void;
}) {
  const id = useElementId("field-scheduler");
  return (
    <fieldset className="scheduler-fields">
      <div className={`field${errors.scheduler ? " field-invalid" : ""}`}>
        <label htmlFor={id}>Scheduler</label>
        <select id={id} name="scheduler" value={form.scheduler}
          onChange={onChange("scheduler") as (event: ChangeEvent<HTMLSelectElement>) => void}
          aria-describedby={`${id}-hint${errors.scheduler ? ` ${id}-error` : ""}`}>
          <option value="forgetting-curve">Forgetting curve (classic)</option>
          <option value="fsrs">FSRS</option>
        </select>
        <div className="field-hint" id={`${id}-hint`}>
          {form.scheduler === "fsrs"
            ? "FSRS models how well you remember each note and asks when you are about to forget it."
            : "The classic curve moves each note along your space intervals."}
        </div>
        {errors.scheduler && <div className="field-error" id={`${id}-error`} role="alert">{errors.scheduler}</div>}
      </div>
      {form.scheduler === "fsrs" && (
        <>
          <TextField label="Desired retention" name="desiredRetention" type="number" min={0.7} max={0.97} step={0.01}
            value={form.desiredRetention} error={errors.desiredRetention} onChange={onChange("desiredRetention")} />
          <TextField label="Maximum interval" name="maximumIntervalDays" type="number" min={1} max={36500}
            value={form.maximumIntervalDays} error={errors.maximumIntervalDays} onChange={onChange("maximumIntervalDays")} />
        </>
      )}
    </fieldset>
  );
}

/** The PATCH fields; a number that does not parse is sent as typed, so the server names the field. */
export function schedulerPatch(form: SchedulerForm) {
  const number = (text: string) => (text.trim() !== "" && Number.isFinite(Number(text)) ? Number(text) : text);
  return form.scheduler === "fsrs"
    ? { scheduler: form.scheduler, desiredRetention: number(form.desiredRetention), maximumIntervalDays: number(form.maximumIntervalDays) }
    : { scheduler: form.scheduler };
}
