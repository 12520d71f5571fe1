import { type ComponentType, lazy, memo, type ReactNode, Suspense } from "react";

/**
 * A component whose code is fetched the first time it renders, not with the page: a dialog, or a
 * part shown only after a click or once data has arrived in the browser (a page's first
 * load stays small). Render it only in the browser, after the page has hydrated: on the server
 * renderToString would not wait for it. Until its code arrives it shows `fallback`. `preload()`
 * fetches the code ahead (on pointer-over of what opens it, say).
 */
export function lazyComponent<P extends object>(load: () => Promise<ComponentType<P>>, fallback: ReactNode = null) {
  let loading: Promise<ComponentType<P>> | undefined;
  const preload = () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined; // a failed fetch may be retried
      throw error;
    }));
  const Lazy = lazy(() => preload().then((component) => ({ default: component }))) as unknown as ComponentType<P>;
  // biome-ignore lint/correctness/noComponentHookFactories: made once per island module as it loads (a module-level const), never during a render.
  function LazyComponent(props: P) {
    return (
      <Suspense fallback={fallback}>
        <Lazy {...props} />
      </Suspense>
    );
  }
  return Object.assign(LazyComponent, { preload });
}

/** On the server, the parts of lazyShown still loading (see serverPartsLoaded). */
const serverLoads: Promise<unknown>[] = [];

/**
 * A part the server renders with the page, when the page has it, but whose code the browser
 * fetches only for the pages that show it: render it only where it shows (a note's properties
 * when it has some, say), so that a page without it never fetches its code. The server loads the
 * code at once (serverPartsLoaded) and renders the part in full. The browser keeps the server's
 * HTML of it while its code arrives and then hydrates it, the rest of the island working meanwhile.
 */
export function lazyShown<P extends object>(load: () => Promise<ComponentType<P>>) {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const fetchCode = () =>
    (loading ??= load().then(
      (component) => (loaded = component),
      (error: unknown) => {
        loading = undefined; // a failed fetch may be retried
        throw error;
      },
    ));
  const Lazy = lazy(() => fetchCode().then((component) => ({ default: component }))) as unknown as ComponentType<P>;
  if (typeof window === "undefined") serverLoads.push(fetchCode());
  // biome-ignore lint/correctness/noComponentHookFactories: made once per island module as it loads (a module-level const), never during a render.
  function ShownPart(props: P) {
    const Loaded = loaded;
    // One boundary in both renderings: while hydrating, React keeps the server's HTML inside it until the code is here.
    return <Suspense fallback={null}>{Loaded ? <Loaded {...props} /> : <Lazy {...props} />}</Suspense>;
  }
  // Memoized: a render of the island around it with the same props leaves it alone (an update
  // reaching it before its code is here would make React drop the server's HTML for the fallback).
  return memo(ShownPart) as unknown as ComponentType<P>;
}

/** Resolves once the server has the code of every lazyShown part (await it before rendering pages). */
export function serverPartsLoaded(): Promise<unknown> {
  return Promise.all(serverLoads);
}
