/**
 * The sign-in, sign-up and (non-production) identify pages. Plain HTML forms that work before
 * any script loads; the server re-renders them with field errors.
 */
export interface AuthFormProps {
  from: string;
  username?: string;
  errors?: Record<string, string>;
  message?: string;
}

function Field({
  name,
  label,
  type,
  value,
  error,
  autoComplete,
  minLength,
}: {
  name: string;
  label: string;
  type: string;
  value?: string;
  error?: string;
  autoComplete: string;
  minLength?: number;
}) {
  return (
    <div className={`field${error ? " field-invalid" : ""}`}>
      <label htmlFor={name}>{label}</label>
      <input
        id={name}
        name={name}
        type={type}
        dir={type === "password" ? undefined : "auto"}
        defaultValue={value}
        required
        autoComplete={autoComplete}
        minLength={minLength}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${name}-error` : undefined}
      />
      {error && (
        <div className="field-error" id={`${name}-error`} role="alert">
          {error}
        </div>
      )}
    </div>
  );
}

function FormMessage({ message }: { message?: string }) {
  return message ? (
    <div className="form-message" role="alert">
      {message}
    </div>
  ) : null;
}

export function SignInPage({ from, username, errors = {}, message, allowSignUp = true }: AuthFormProps & { allowSignUp?: boolean }) {
  return (
    <form className="card narrow-form" method="post" action={`/users/sign-in?from=${encodeURIComponent(from)}`}>
      <h1>Sign in</h1>
      <FormMessage message={message} />
      <Field name="username" label="Username" type="text" value={username} error={errors.username} autoComplete="username" />
      <Field name="password" label="Password" type="password" error={errors.password} autoComplete="current-password" />
      <div className="dialog-actions">
        <button type="submit" className="button primary">
          Sign in
        </button>
      </div>
      {allowSignUp && (
        <p className="muted">
          New here? <a href={`/users/sign-up?from=${encodeURIComponent(from)}`}>Create an account</a>
        </p>
      )}
    </form>
  );
}

export function SignUpPage({ from, username, errors = {}, message, firstAccount }: AuthFormProps & { firstAccount: boolean }) {
  return (
    <form className="card narrow-form" method="post" action={`/users/sign-up?from=${encodeURIComponent(from)}`}>
      <h1>Create an account</h1>
      {firstAccount && <p className="notice">This is the first account on this Engram: it will be the administrator.</p>}
      <FormMessage message={message} />
      <Field name="username" label="Username" type="text" value={username} error={errors.username} autoComplete="username" />
      <Field name="password" label="Password" type="password" error={errors.password} autoComplete="new-password" minLength={8} />
      <p className="field-hint">At least 8 characters.</p>
      <div className="dialog-actions">
        <button type="submit" className="button primary">
          Sign up
        </button>
      </div>
      <p className="muted">
        Already have an account? <a href={`/users/sign-in?from=${encodeURIComponent(from)}`}>Sign in</a>
      </p>
    </form>
  );
}

/** Non-production only: sign in as a test identity (or any account) with basic auth. */
export function IdentifyPage({ from, username, errors = {}, message }: AuthFormProps) {
  return (
    <form className="card narrow-form" method="post" action={`/users/identify?from=${encodeURIComponent(from)}`}>
      <p className="notice">This login page is for test and development only</p>
      <h1>Please sign in</h1>
      <FormMessage message={message} />
      <Field name="username" label="Username" type="text" value={username} error={errors.username} autoComplete="username" />
      <Field name="password" label="Password" type="password" error={errors.password} autoComplete="current-password" />
      <div className="dialog-actions">
        <button type="submit" className="button primary">
          Login
        </button>
      </div>
      <p className="muted">
        Or <a href={`/users/sign-in?from=${encodeURIComponent(from)}`}>sign in with a real account</a>.
      </p>
    </form>
  );
}

/** A one-time password-reset link an admin made: a new password, then sign in. */
export function ResetPasswordPage({
  token,
  login,
  errors = {},
  message,
}: {
  token: string;
  login?: string;
  errors?: Record<string, string>;
  message?: string;
}) {
  if (!login) {
    return (
      <div className="card narrow-form">
        <h1>Reset your password</h1>
        <p role="alert">{message ?? "This password-reset link has expired or has been used. Ask an administrator for a new one."}</p>
        <p>
          <a href="/users/sign-in">Sign in</a>
        </p>
      </div>
    );
  }
  return (
    <form className="card narrow-form" method="post" action={`/users/reset-password/${encodeURIComponent(token)}`}>
      <h1>Reset your password</h1>
      <p>
        Choose a new password for <strong dir="auto">{login}</strong>. Every place you are signed in will be signed out.
      </p>
      <FormMessage message={message} />
      <Field name="newPassword" label="New password" type="password" error={errors.newPassword} autoComplete="new-password" minLength={8} />
      <p className="field-hint">At least 8 characters.</p>
      <div className="dialog-actions">
        <button type="submit" className="button primary">
          Set password
        </button>
      </div>
    </form>
  );
}
