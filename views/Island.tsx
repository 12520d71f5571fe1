import { QueryClientProvider, useQueryClient } from "@tanstack/react-query";
import { createContext, useContext } from "react";
import { renderToString } from "react-dom/server";
import { IslandIdContext, islandIdentifierPrefix } from "../islands/lib/island-id";
import { type IslandName, type IslandProps, islands, type NoProps } from "../islands/registry";

/** Collects which islands a page renders, so the document links only their scripts. */
export class IslandCollector {
  readonly used = new Set<IslandName>();
  private counter = 0;
  nextId(name: string) {
    this.counter += 1;
    return `${name}-${this.counter}`;
  }
}

export const IslandCollectorContext = createContext<IslandCollector | null>(null);

/**
 * An interactive part of a server-rendered page: rendered here with its data (so the first HTML
 * shows it), then hydrated in the browser as its own root from the props in data-props. It is
 * rendered as its own root here too, with the same identifier prefix, so that ids from useId
 * (which the accessible UI primitives use for aria attributes) match between server and browser.
 */
export function Island<N extends IslandName>({
  name,
  props,
}: { name: N } & (NoProps extends IslandProps<N> ? { props?: IslandProps<N> } : { props: IslandProps<N> })) {
  const collector = useContext(IslandCollectorContext);
  if (!collector) throw new Error("<Island> must be rendered inside a page");
  collector.used.add(name);
  const islandId = collector.nextId(name);
  const Component = islands[name] as (p: object) => React.ReactNode;
  const islandProps = (props ?? {}) as object;
  const html = renderToString(
    <QueryClientProvider client={useQueryClient()}>
      <IslandIdContext.Provider value={islandId}>
        <Component {...islandProps} />
      </IslandIdContext.Provider>
    </QueryClientProvider>,
    { identifierPrefix: islandIdentifierPrefix(islandId) },
  );
  return (
    <div
      data-island={name}
      data-island-id={islandId}
      data-props={JSON.stringify(islandProps)}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: the island's own React server rendering, which React escaped as it rendered.
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}

/**
 * The module scripts of the islands rendered so far (place after the page content), each once:
 * several islands may share one script (the app shell's, see scripts/build-client.ts).
 */
export function IslandScripts({ scripts }: { scripts: Record<string, string> }) {
  const collector = useContext(IslandCollectorContext);
  if (!collector) return null;
  return (
    <>
      {[...new Set([...collector.used].map((name) => scripts[name]))].map((src) => (
        <script key={src} type="module" src={src} />
      ))}
    </>
  );
}
