import { useEffect, useState } from "react";
import { containsMath, setMathRenderer } from "./math-syntax";
import { pageConfig } from "./page-config";

/*
 * KaTeX on demand: a page without math never loads it. Markdown rendered in the browser shows
 * its math as TeX until KaTeX (its own chunk) and its stylesheet have arrived, then again
 * typeset; HTML the server typeset only needs the stylesheet.
 */

let loading: Promise<void> | undefined;
let loaded = false;

/** Links KaTeX's stylesheet once (its fonts are fetched as glyphs need them). */
export function loadMathStylesheet() {
  const href = pageConfig().mathCss;
  if (!href || typeof document === "undefined" || document.querySelector("link[data-math-stylesheet]")) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = href;
  link.dataset.mathStylesheet = "";
  document.head.appendChild(link);
}

/** Loads KaTeX and its stylesheet (once); markdown.ts typesets math from then on. */
export function loadMath(): Promise<void> {
  loadMathStylesheet();
  loading ??= import("./katex-render").then(({ renderMathWithKatex }) => {
    setMathRenderer(renderMathWithKatex);
    loaded = true;
  });
  return loading;
}

/**
 * For a component that renders `markdown` with renderMarkdownSafely: when it holds math, loads
 * KaTeX and renders the component again once it is there. Answers whether KaTeX is there (for
 * memoised HTML to depend on).
 */
export function useMath(markdown: string): boolean {
  const [ready, setReady] = useState(loaded);
  const wanted = containsMath(markdown);
  useEffect(() => {
    if (!wanted) return;
    if (loaded) loadMathStylesheet();
    else
      loadMath().then(
        () => setReady(true),
        () => {},
      );
  }, [wanted]);
  return ready && loaded;
}

/** For HTML the server typeset (a spelling stem): KaTeX's stylesheet when it holds math. */
export function useMathStylesheet(html: string | undefined) {
  const wanted = !!html?.includes('class="katex');
  useEffect(() => {
    if (wanted) loadMathStylesheet();
  }, [wanted]);
}
