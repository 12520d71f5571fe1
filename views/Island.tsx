import { createContext, useContext } from "react";
import { IslandIdContext } from "../islands/lib/island-id";
import { type IslandName, type IslandProps, islands } from "../islands/registry";

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
 * shows it), then hydrated in the browser as its own root from the props in data-props.
 */
export function Island<N extends IslandName>({ name, props }: { name: N } & ({} extends IslandProps<N>
  ? { props?: IslandProps<N> }
  : { props: IslandProps<N> })) {
  const collector = useContext(IslandCollectorContext);
  if (!collector) throw new Error("<Island> must be rendered inside a page");
  collector.used.add(name);
  const islandId = collector.nextId(name);
  const Component = islands[name] as (p: object) => React.ReactNode;
  const islandProps = (props ?? {}) as object;
  return (
    <div data-island={name} data-island-id={islandId} data-props={JSON.stringify(islandProps)}>
      <IslandIdContext.Provider value={islandId}>
        <Component {...islandProps} />
      </IslandIdContext.Provider>
    </div>
  );
}

/** The module scripts of the islands rendered so far (place after the page content). */
export function IslandScripts({ scripts }: { scripts: Record<string, string> }) {
  const collector = useContext(IslandCollectorContext);
  if (!collector) return null;
  return (
    <>
      {[...collector.used].map((name) => (
        <script key={name} type="module" src={scripts[name]} />
      ))}
    </>
  );
}
