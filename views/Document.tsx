import type { ReactNode } from "react";
import type { PageConfig } from "../islands/lib/page-config";
import { IslandScripts } from "./Island";

/** JSON that is safe inside a <script> element (no "</script>" or "<!--" can close it). */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/** The HTML document around every page: head, the page, the prefetched query cache, island scripts. */
export function Document({
  title,
  css,
  earlyScript,
  islandScripts,
  config,
  dehydratedState,
  children,
}: {
  title: string;
  css: string;
  /** The early-click catcher: a classic script, run before the page shows, so no click is lost. */
  earlyScript?: string;
  islandScripts: Record<string, string>;
  config: PageConfig;
  dehydratedState: unknown;
  children: ReactNode;
}) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light" />
        <title>{title === "Engram" ? title : `${title} · Engram`}</title>
        <meta name="theme-color" content="#4f46e5" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        {/* Installable (src/web/app-manifest.ts); iOS reads the touch icon and the standalone hints. */}
        <link rel="manifest" href="/manifest.webmanifest" />
        <link rel="apple-touch-icon" href="/icons/engram-192.png" />
        <meta name="mobile-web-app-capable" content="yes" />
        <meta name="apple-mobile-web-app-capable" content="yes" />
        <meta name="apple-mobile-web-app-title" content="Engram" />
        <link rel="stylesheet" href={css} />
        {earlyScript && <script src={earlyScript} />}
      </head>
      <body>
        {children}
        {/* Data blocks, not scripts: the CSP lets only our own script files run. */}
        <script
          type="application/json"
          id="engram-config"
          // biome-ignore lint/security/noDangerouslySetInnerHtml: a JSON data block; scriptSafeJson escapes "<" so nothing in it can end the script element.
          dangerouslySetInnerHTML={{ __html: scriptSafeJson(config) }}
        />
        <script
          type="application/json"
          id="engram-state"
          // biome-ignore lint/security/noDangerouslySetInnerHtml: a JSON data block; scriptSafeJson escapes "<" so nothing in it can end the script element.
          dangerouslySetInnerHTML={{ __html: scriptSafeJson(dehydratedState) }}
        />
        <IslandScripts scripts={islandScripts} />
      </body>
    </html>
  );
}
