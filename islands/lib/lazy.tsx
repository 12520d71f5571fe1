import { type ComponentType, lazy, type ReactNode, Suspense } from "react";

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
