import { type ReactNode, type RefObject, useCallback, useEffect, useRef, useState } from "react";

/**
 * A row of tabs wider than the screen scrolls sideways. So that nobody misses the tabs past an
 * edge, that edge fades out behind an arrow (a click on it scrolls a screenful), and the current
 * tab (aria-current or aria-selected) is scrolled into view when the strip first shows.
 */
export function ScrollingStrip({ scrollerRef, children }: { scrollerRef: RefObject<HTMLElement | null>; children: ReactNode }) {
  const [more, setMore] = useState({ before: false, after: false });

  const measure = useCallback(() => {
    const scroller = scrollerRef.current;
    if (!scroller) return;
    // scrollLeft is negative in a right-to-left strip; the cues follow its start and end.
    const left = Math.abs(scroller.scrollLeft);
    const hidden = scroller.scrollWidth - scroller.clientWidth;
    setMore({ before: left > 1, after: left < hidden - 1 });
  }, [scrollerRef]);

  useEffect(() => {
    const scroller = scrollerRef.current;
    if (!scroller) return;
    const current = scroller.querySelector<HTMLElement>('[aria-current="page"], [aria-selected="true"]');
    if (current) {
      const [strip, tab] = [scroller.getBoundingClientRect(), current.getBoundingClientRect()];
      if (tab.left < strip.left || tab.right > strip.right) scroller.scrollLeft += tab.left - strip.left - (strip.width - tab.width) / 2;
    }
    measure();
    scroller.addEventListener("scroll", measure, { passive: true });
    const resized = typeof ResizeObserver === "undefined" ? undefined : new ResizeObserver(measure);
    resized?.observe(scroller);
    return () => {
      scroller.removeEventListener("scroll", measure);
      resized?.disconnect();
    };
  }, [scrollerRef, measure]);

  const scrollBy = (direction: 1 | -1) => {
    const scroller = scrollerRef.current;
    scroller?.scrollBy({ left: direction * scroller.clientWidth * 0.8, behavior: "smooth" });
  };

  // The arrows repeat what scrolling, swiping and the tabs' own focus already do: kept out of the
  // keyboard's way and of assistive technology.
  return (
    <div className="scrolling-strip" data-more-before={more.before || undefined} data-more-after={more.after || undefined}>
      {children}
      {more.before && (
        <button type="button" className="strip-arrow strip-arrow-before" tabIndex={-1} aria-hidden="true" onClick={() => scrollBy(-1)}>
          ‹
        </button>
      )}
      {more.after && (
        <button type="button" className="strip-arrow strip-arrow-after" tabIndex={-1} aria-hidden="true" onClick={() => scrollBy(1)}>
          ›
        </button>
      )}
    </div>
  );
}

/** A ref for ScrollingStrip's scroller. */
export const useStripRef = <T extends HTMLElement>() => useRef<T>(null);
