import type { UserJson } from "../../src/services/users";

const STEPS = [
  {
    headline: "Taking notes is only the beginning",
    text: "Keep what you learn as notes in notebooks: a tree of ideas you can link, search and share.",
    href: "/d/notebooks",
    action: "Go to my notebooks",
  },
  {
    headline: "Assimilate to become truly yours",
    text: "Each day, take in a few new notes. Engram starts tracking how well you remember each one.",
    href: "/d/assimilate",
    action: "Assimilate today's notes",
  },
  {
    headline: "Recall is better than review",
    text: "Answer questions about your notes just before you would forget them, on a forgetting-curve schedule.",
    href: "/d/recall",
    action: "Start recalling",
  },
];

/** The home page: a greeting and the three-step flow. */
export function HomePage({ user }: { user: UserJson | undefined }) {
  return (
    <div className="home">
      <header className="home-header">
        <h1>{user ? `Welcome ${user.name}!` : "Welcome To Engram!"}</h1>
        <p className="lead">Take notes, assimilate them, and recall them before you forget.</p>
        {!user && (
          <p className="home-actions">
            <a className="button primary" href="/users/sign-up">
              Create an account
            </a>
            <a className="button" href="/d/bazaar">
              Browse the bazaar
            </a>
          </p>
        )}
      </header>
      <ol className="steps">
        {STEPS.map((step, index) => (
          <li key={step.headline} className="card step">
            <span className="step-number" aria-hidden="true">
              {index + 1}
            </span>
            <h2>{step.headline}</h2>
            <p>{step.text}</p>
            {user && <a href={step.href}>{step.action}</a>}
          </li>
        ))}
      </ol>
    </div>
  );
}
