import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { ApiError, api, call } from "./api";
import { useElementId } from "./island-id";
import { type NoteInfoJson, noteInfoQuery, type RecallSettingJson } from "./learning-queries";

/** Recall level options (spec 9): 0 to 6; lower levels are offered for assimilation first. */
const LEVELS = [0, 1, 2, 3, 4, 5, 6];

export type RecallSettingField = keyof RecallSettingJson;

/**
 * A note's recall setting (level, Remember Spelling, Skip Memory Tracking), saved as soon as it
 * changes. The whole setting is sent each time, in order, so a later change never loses to an
 * earlier one. `onSaved` tells the page which field changed (the assimilation page reloads its
 * list after a level change).
 */
export function RecallSettingsForm({ noteId, onSaved }: { noteId: number; onSaved?: (field: RecallSettingField) => void }) {
  const queryClient = useQueryClient();
  const { data: info, isError } = useQuery(noteInfoQuery(noteId));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<"" | "Saving..." | "Saved">("");
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  const pending = useRef(0);
  const id = useElementId(`recall-settings-${noteId}`);

  if (isError)
    return (
      <p className="field-error" role="alert">
        The recall settings could not be loaded.
      </p>
    );
  if (!info) return <p className="muted">Loading...</p>;
  const setting = info.recallSetting;

  function change<F extends RecallSettingField>(field: F, value: RecallSettingJson[F]) {
    const next = { ...setting, [field]: value };
    const key = noteInfoQuery(noteId).queryKey;
    queryClient.setQueryData(key, (old: NoteInfoJson | undefined) => old && { ...old, recallSetting: next });
    setErrors({});
    setStatus("Saving...");
    pending.current += 1;
    queue.current = queue.current
      .then(() => call(api.notes({ note: noteId })["review-setting"].post(next)))
      .then(
        () => {
          pending.current -= 1;
          if (pending.current === 0) setStatus("Saved");
          onSaved?.(field);
        },
        (error: unknown) => {
          pending.current -= 1;
          setStatus("");
          if (error instanceof ApiError) setErrors(error.errors);
          // Show what the server has rather than the change it refused.
          void queryClient.invalidateQueries({ queryKey: key });
        },
      );
  }

  return (
    <form className="recall-settings-form" aria-label="recall settings" onSubmit={(event) => event.preventDefault()}>
      <fieldset className={`recall-levels${errors.level ? " field-invalid" : ""}`}>
        <legend>Level</legend>
        <div className="recall-level-options">
          {LEVELS.map((level) => (
            <label key={level} className="recall-level-option">
              <input
                type="radio"
                name={`${id}-level`}
                value={level}
                checked={setting.level === level}
                onChange={() => change("level", level)}
              />
              <span>{level}</span>
            </label>
          ))}
        </div>
        {errors.level && (
          <div className="field-error" role="alert">
            {errors.level}
          </div>
        )}
      </fieldset>
      <label className="checkbox-field">
        <input type="checkbox" checked={setting.rememberSpelling} onChange={(event) => change("rememberSpelling", event.target.checked)} />
        <span>Remember Spelling</span>
      </label>
      {errors.rememberSpelling && (
        <div className="field-error" role="alert">
          {errors.rememberSpelling}
        </div>
      )}
      <label className="checkbox-field">
        <input
          type="checkbox"
          checked={setting.skipMemoryTracking}
          onChange={(event) => change("skipMemoryTracking", event.target.checked)}
        />
        <span>Skip Memory Tracking</span>
      </label>
      {errors.skipMemoryTracking && (
        <div className="field-error" role="alert">
          {errors.skipMemoryTracking}
        </div>
      )}
      <p className="recall-settings-status muted" aria-live="polite">
        {status}
      </p>
    </form>
  );
}
