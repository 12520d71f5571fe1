import { Island } from "../Island";

/** /d/notebooks: the user's notebooks and subscriptions (the island does the work). */
export function NotebooksPage() {
  return <Island name="notebooks" />;
}
