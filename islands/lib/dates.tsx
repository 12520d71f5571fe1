import { useSyncExternalStore } from "react";

const subscribeNever = () => () => {};

/**
 * False while rendering on the server and while hydrating, true afterwards (React re-renders once
 * hydration is done), so text that depends on the browser's time zone or locale never makes the
 * hydrated HTML differ from the server's.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeNever,
    () => true,
    () => false,
  );
}

/** "2024-05-01 13:45 UTC": the same on the server and in any browser. */
export function utcText(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** A date in UTC text on the server and while hydrating, then in the reader's local format. */
export function useLocalDateText(iso: string, format: (date: Date) => string = (d) => d.toLocaleString()): string {
  const hydrated = useHydrated();
  const date = new Date(iso);
  return hydrated && !Number.isNaN(date.getTime()) ? format(date) : utcText(iso);
}

const mediumDateTime = (date: Date) => date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });

/** A time: UTC text in the server's HTML, the reader's local date and time once the page is live. */
export function LocalTime({ iso }: { iso: string }) {
  const hydrated = useHydrated();
  return (
    <time dateTime={iso} title={hydrated ? utcText(iso) : undefined}>
      {useLocalDateText(iso, mediumDateTime)}
    </time>
  );
}
