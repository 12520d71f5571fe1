/** What the server tells every page's islands (rendered into #engram-config). */
export interface PageConfig {
  mode: "production" | "development" | "test";
  /** Where a signed-out visitor signs in: /users/sign-in, or /users/identify outside production. */
  loginPath: string;
  /** The build's version (a new one after each deployment: "Engram was updated"). */
  version?: string;
  /** Who is signed in (the user's id), for the service worker's kept pages; absent when nobody is. */
  user?: string;
  /** KaTeX's stylesheet, loaded by the islands that typeset math (lib/math.ts). */
  mathCss?: string;
}

let cached: PageConfig | undefined;

export function pageConfig(): PageConfig {
  if (cached) return cached;
  const element = typeof document === "undefined" ? null : document.getElementById("engram-config");
  cached = element ? (JSON.parse(element.textContent || "{}") as PageConfig) : { mode: "production", loginPath: "/users/sign-in" };
  return cached;
}

export function loginUrl(from = typeof location === "undefined" ? "/" : location.pathname + location.search) {
  return `${pageConfig().loginPath}?from=${encodeURIComponent(from)}`;
}
