import { useHydrated } from "../lib/dates";
import { lazyComponent } from "../lib/lazy";
import { COUNTER_FROM } from "../lib/length-counter";
import type { Autosave } from "../lib/use-autosave";

/** The server's limits (src/services/notes/validation.ts; tests/unit/field-limits.test.ts keeps them equal). */
export const TITLE_MAX_LENGTH = 150;
export const DETAILS_MAX_LENGTH = 200_000;

/** Its code comes once the text nears its limit or cannot be saved: most notes never need it. */
const FieldLimitView = lazyComponent(() => import("./FieldLimitView").then((m) => m.FieldLimitView));

/**
 * Under an autosaved text field: a counter near its limit; past the limit, or when the server
 * refused the text, a message saying why it is not saved; and while the text exists only in this
 * browser (too long, refused, or saves failing) a notice saying so, with a way to copy it
 * (FieldLimitView). Shown in the browser only, after hydration.
 */
export function FieldLimit({ autosave, max, label }: { autosave: Autosave; max: number; label: string }) {
  const hydrated = useHydrated();
  const length = autosave.value.length;
  const localOnly = autosave.dirty && (length > max || autosave.failed || autosave.rejected !== undefined);
  if (!hydrated || (length < max * COUNTER_FROM && !localOnly)) return null;
  return <FieldLimitView autosave={autosave} max={max} label={label} />;
}
