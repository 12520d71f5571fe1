import katex from "katex";
import type { MathRenderer } from "./math-syntax";

/** KaTeX in the browser: its own chunk, fetched only by a page that shows math (math.ts). */
export const renderMathWithKatex: MathRenderer = (tex, display) =>
  katex.renderToString(tex, { displayMode: display, throwOnError: false, strict: false, output: "htmlAndMathml" });
