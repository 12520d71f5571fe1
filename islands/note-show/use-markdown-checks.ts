import { useEffect, useState } from "react";

/**
 * marked and the rich-mode check (markdown-checks.ts) on demand: an ordinary note shown in rich
 * mode needs neither in the browser, since the server renders its HTML and decides its mode (see
 * index.tsx's serverRefusal). They load once the details are edited as Markdown or change.
 */
export type MarkdownChecks = typeof import("./markdown-checks");

let loaded: MarkdownChecks | undefined;
let loading: Promise<MarkdownChecks> | undefined;

export function loadMarkdownChecks(): Promise<MarkdownChecks> {
  loading ??= import("./markdown-checks").then((checks) => (loaded = checks));
  return loading;
}

// The server renders synchronously (renderToString): it has the checks before the first page.
if (typeof window === "undefined") await loadMarkdownChecks();

/** The checks if loaded: always on the server. */
export function serverMarkdownChecks(): MarkdownChecks | undefined {
  return loaded;
}

/** The checks once loaded (at once on the server); `needed` starts loading them in the browser. */
export function useMarkdownChecks(needed: boolean): MarkdownChecks | undefined {
  const [checks, setChecks] = useState(loaded);
  useEffect(() => {
    if (checks || !needed) return;
    let cancelled = false;
    void loadMarkdownChecks().then((value) => {
      if (!cancelled) setChecks(value);
    });
    return () => {
      cancelled = true;
    };
  }, [checks, needed]);
  return checks;
}
