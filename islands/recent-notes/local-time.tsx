import { useSyncExternalStore } from "react";

const subscribeNever = () => () => {};

/**
 * False while rendering on the server and while hydrating, true afterwards (React re-renders once
 * hydration is done), so text that depends on the browser's time zone or locale never makes the
 * hydrated HTML differ from the server's.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(subscribeNever, () => true, () => false);
}

/** "2024-05-01 13:45 UTC": the same on the server and in any browser. */
export function utcText(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** A time: UTC text in the server's HTML, the reader's local date and time once the page is live. */
export function LocalTime({ iso }: { iso: string }) {
  const hydrated = useHydrated();
  const date = new Date(iso);
  const local = !Number.isNaN(date.getTime()) && hydrated;
  return (
    <time dateTime={iso} title={local ? utcText(iso) : undefined}>
      {local ? date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" }) : utcText(iso)}
    </time>
  );
}
