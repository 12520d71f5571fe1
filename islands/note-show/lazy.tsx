import { type ComponentType, lazy, Suspense } from "react";

/**
 * A component whose code is fetched when it is first rendered: each dialog, panel and menu action
 * of the note page is its own chunk, loaded when the learner opens it, so the page's first load
 * carries only what it shows (issue 16, goal 4). Nothing shows while the chunk loads (a few
 * milliseconds on a warm connection).
 *
 * Render such a component only after a user action or a client-only state change (an effect),
 * never in the server's render or the hydration: renderToString cannot wait for it.
 */
export function lazyNamed<M extends Record<K, ComponentType<never>>, K extends keyof M & string>(load: () => Promise<M>, name: K): M[K] {
  const Lazy = lazy(async () => ({ default: (await load())[name] as ComponentType<object> }));
  function Loaded(props: object) {
    return (
      <Suspense fallback={null}>
        <Lazy {...props} />
      </Suspense>
    );
  }
  Loaded.displayName = `Lazy(${name})`;
  return Loaded as unknown as M[K];
}
