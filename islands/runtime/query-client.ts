import { hydrate, QueryClient } from "@tanstack/react-query";

/** Prefetched data stays fresh for a while, so hydration never refetches what the server just sent. */
const STALE_TIME_MS = 30_000;

export function newQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: STALE_TIME_MS, retry: false, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}

let browserClient: QueryClient | undefined;

/** The one QueryClient of a browser page, shared by every island, filled from the server's cache. */
export function browserQueryClient(): QueryClient {
  if (browserClient) return browserClient;
  browserClient = newQueryClient();
  const element = document.getElementById("engram-state");
  if (element?.textContent) hydrate(browserClient, JSON.parse(element.textContent));
  return browserClient;
}
