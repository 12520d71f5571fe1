/**
 * How math is written in Markdown, `$…$` inline and `$$…$$` displayed (also as a block of its
 * own lines), and which renderer the browser has for it: small on purpose, as the note page
 * loads it at once (the marked extension, markdown-math.ts, comes with marked, when needed).
 * A `$` written `\$` is a dollar; an opening `$` must touch its TeX and a closing one must not
 * be followed by a digit, so "costs $5 and $10" stays text.
 */

/** Renders TeX as HTML that is safe to insert (KaTeX escapes what it does not typeset). */
export type MathRenderer = (tex: string, display: boolean) => string;

// The browser's renderer, once math.ts has loaded KaTeX.
let browserRenderer: MathRenderer | undefined;
export const setMathRenderer = (renderer: MathRenderer) => {
  browserRenderer = renderer;
};
export const currentMathRenderer = () => browserRenderer;

export const MATH_BLOCK = /^\$\$[ \t]*\n([\s\S]+?)\n[ \t]*\$\$[ \t]*(?:\n+|$)/;
export const MATH_DISPLAY = /^\$\$(?!\$)((?:\\[\s\S]|[^\\$])+?)\$\$/;
export const MATH_INLINE = /^\$(?![\s$])((?:\\[\s\S]|[^\\$\n])*?[^\s\\$])\$(?!\d)/;

/** Whether Markdown holds math as the tokenizers read it (not counting code spans). */
export function containsMath(source: string): boolean {
  if (!source.includes("$")) return false;
  const markdown = source.replace(/(`+)[\s\S]*?\1/g, (code) => "c".repeat(code.length));
  for (let at = markdown.indexOf("$"); at >= 0; at = markdown.indexOf("$", at + 1)) {
    if (at > 0 && markdown[at - 1] === "\\") continue;
    const rest = markdown.slice(at);
    if (MATH_DISPLAY.test(rest) || MATH_INLINE.test(rest) || ((at === 0 || markdown[at - 1] === "\n") && MATH_BLOCK.test(rest)))
      return true;
  }
  return false;
}
