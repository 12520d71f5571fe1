import { type FormEvent, useState } from "react";
import { ApiError, api, call } from "../lib/api";
import { TextField } from "../lib/forms";

/** "Welcome, new user. Please create your profile": the Nickname form for a signed-in identity without a profile. */
export default function NewUserForm() {
  const [name, setName] = useState("");
  const [error, setError] = useState<string>();
  const [submitting, setSubmitting] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (submitting) return;
    setSubmitting(true);
    setError(undefined);
    try {
      await call(api.user.post({ name }));
      window.location.reload();
    } catch (e) {
      if (e instanceof ApiError) setError(e.errors.name ?? e.message);
      setSubmitting(false);
    }
  }

  return (
    <form className="card narrow-form" onSubmit={submit}>
      <h1>Welcome, new user. Please create your profile</h1>
      <TextField
        label="Nickname"
        name="name"
        value={name}
        error={error}
        autoComplete="nickname"
        required
        maxLength={100}
        disabled={submitting}
        onChange={(event) => setName(event.target.value)}
      />
      <div className="dialog-actions">
        <button type="submit" className="button primary" disabled={submitting}>
          Submit
        </button>
      </div>
    </form>
  );
}
