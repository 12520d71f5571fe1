import { type ChangeEvent, useState } from "react";
import { ApiError, api, call } from "../lib/api";
import { TextField } from "../lib/forms";
import { useElementId } from "../lib/island-id";

export interface SchedulerForm {
  scheduler: string;
  desiredRetention: string;
  maximumIntervalDays: string;
}

/**
 * "Scheduler" with its FSRS settings. Desired retention and maximum interval matter
 * only to FSRS, so they show only when FSRS is chosen.
 */
export function SchedulerFields({
  form,
  errors,
  onChange,
}: {
  form: SchedulerForm;
  errors: Record<string, string>;
  onChange: (field: keyof SchedulerForm) => (event: { target: { value: string } }) => void;
}) {
  const id = useElementId("field-scheduler");
  return (
    <fieldset className="scheduler-fields">
      <div className={`field${errors.scheduler ? " field-invalid" : ""}`}>
        <label htmlFor={id}>Scheduler</label>
        <select
          id={id}
          name="scheduler"
          value={form.scheduler}
          onChange={onChange("scheduler") as (event: ChangeEvent<HTMLSelectElement>) => void}
          aria-describedby={`${id}-hint${errors.scheduler ? ` ${id}-error` : ""}`}
        >
          <option value="forgetting-curve">Forgetting curve (classic)</option>
          <option value="fsrs">FSRS</option>
        </select>
        <div className="field-hint" id={`${id}-hint`}>
          {form.scheduler === "fsrs"
            ? "FSRS models how well you remember each note and asks when you are about to forget it."
            : "The classic curve moves each note along your space intervals."}
        </div>
        {errors.scheduler && (
          <div className="field-error" id={`${id}-error`} role="alert">
            {errors.scheduler}
          </div>
        )}
      </div>
      {form.scheduler === "fsrs" && (
        <>
          <TextField
            label="Desired retention"
            name="desiredRetention"
            type="number"
            min={0.7}
            max={0.97}
            step={0.01}
            value={form.desiredRetention}
            error={errors.desiredRetention}
            onChange={onChange("desiredRetention")}
          />
          <TextField
            label="Maximum interval"
            name="maximumIntervalDays"
            type="number"
            min={1}
            max={36500}
            value={form.maximumIntervalDays}
            error={errors.maximumIntervalDays}
            onChange={onChange("maximumIntervalDays")}
          />
          <OptimizeParameters />
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

interface OptimizeResult {
  reviews: number;
  heldOutReviews: number;
  logLossBefore: number;
  logLossAfter: number;
  kept: "fitted" | "defaults";
}

/** "Optimize my parameters": fits FSRS to the learner's own log and says how it did on held-out reviews. */
function OptimizeParameters() {
  const [state, setState] = useState<{ busy: boolean; result?: OptimizeResult; error?: string }>({ busy: false });
  async function run() {
    setState({ busy: true });
    try {
      setState({ busy: false, result: await call(api.user["optimize-fsrs-parameters"].post()) });
    } catch (e) {
      setState({ busy: false, error: e instanceof ApiError ? (e.errors.reviews ?? e.message) : "Could not optimize" });
    }
  }
  const { result } = state;
  return (
    <div className="field">
      <button type="button" className="button" onClick={run} disabled={state.busy}>
        {state.busy ? "Optimizing..." : "Optimize my parameters"}
      </button>
      <div className="field-hint optimize-result" role="status">
        {result
          ? `Log loss on ${result.heldOutReviews} of your ${result.reviews} reviews kept aside: ${result.logLossBefore} with the defaults, ${result.logLossAfter} fitted. ${result.kept === "fitted" ? "Using your fitted parameters." : "Keeping the defaults, which predict you as well or better."}`
          : (state.error ?? "Fits FSRS to your own reviews (needs at least 400).")}
      </div>
    </div>
  );
}
