import { useEffect, useState } from "react";

/** "2026-11-22 11:46 UTC": the same on the server and in the browser, so hydration matches. */
export function utcText(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/** A date in UTC text on the server and first render, then in the reader's local format. */
export function useLocalDateText(iso: string, format: (date: Date) => string = (d) => d.toLocaleString()): string {
  const [text, setText] = useState(() => utcText(iso));
  useEffect(() => setText(format(new Date(iso))), [iso, format]);
  return text;
}
