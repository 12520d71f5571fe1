import type { ReactNode } from "react";

/** The notebooks page with its "Add New Notebook" dialog already open. */
export const NEW_NOTEBOOK_PATH = "/d/notebooks?new=1";
/** The query parameter that opens it. */
export const NEW_NOTEBOOK_PARAM = "new";

/**
 * What an empty learning page shows instead of a result for no work: what the page is for,
 * and the way to the first notes, "Add New Notebook".
 */
export function NothingYet({ heading, children }: { heading: string; children: ReactNode }) {
  return (
    <section className="card getting-started" aria-label={heading}>
      <h2>{heading}</h2>
      {children}
      <p>
        <a className="button primary" href={NEW_NOTEBOOK_PATH}>
          Add New Notebook
        </a>
      </p>
    </section>
  );
}
