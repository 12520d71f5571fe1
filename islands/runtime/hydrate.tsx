import { QueryClientProvider } from "@tanstack/react-query";
import { type ComponentType, type ReactNode, useEffect } from "react";
import { hydrateRoot } from "react-dom/client";
import { IslandIdContext, islandIdentifierPrefix } from "../lib/island-id";
import type {} from "./early-clicks"; // window.engramEarlyClicks
import { replayEarlyTyping } from "./early-typing";
import { browserQueryClient } from "./query-client";
import { startServiceWorker } from "./service-worker";

/**
 * Marks the island (and <body data-hydrated> once every island on the page has hydrated, so
 * tests and scripts can wait until typing and clicking reach React), then hands React the text
 * typed into its fields before it was live (early-typing.ts) and replays the clicks made on its
 * controls meanwhile (early-clicks.ts), on the same elements, which hydration kept: typing first,
 * so a replayed Submit sends what was typed.
 */
function HydrationSignal({ element, children }: { element: HTMLElement; children: ReactNode }) {
  useEffect(() => {
    element.setAttribute("data-hydrated", "");
    if (!document.querySelector("[data-island]:not([data-hydrated])")) document.body.dataset.hydrated = "true";
    const typed = replayEarlyTyping(element);
    const replayClicks = () => {
      for (const control of window.engramEarlyClicks?.take(element) ?? []) if (control.isConnected) control.click();
    };
    // After typing, the clicks wait a task, for React to render the typed text their handlers read.
    if (typed > 0) setTimeout(replayClicks, 0);
    else replayClicks();
  }, [element]);
  return children;
}

/**
 * Hydrates every placeholder of one island on the page. Each placeholder is its own React root;
 * all share one QueryClient, so data changed by one island shows in the others.
 */
export function hydrateIslands<P extends object>(name: string, Component: ComponentType<P>) {
  startServiceWorker();
  const queryClient = browserQueryClient();
  for (const element of document.querySelectorAll<HTMLElement>(`[data-island="${name}"]`)) {
    const props = JSON.parse(element.dataset.props || "{}") as P;
    const islandId = element.dataset.islandId ?? name;
    hydrateRoot(
      element,
      <QueryClientProvider client={queryClient}>
        <IslandIdContext.Provider value={islandId}>
          <HydrationSignal element={element}>
            <Component {...props} />
          </HydrationSignal>
        </IslandIdContext.Provider>
      </QueryClientProvider>,
      { identifierPrefix: islandIdentifierPrefix(islandId) },
    );
  }
}
