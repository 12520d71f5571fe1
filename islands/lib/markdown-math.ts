import type { MarkedExtension, Tokens } from "marked";
import { MATH_BLOCK, MATH_DISPLAY, MATH_INLINE, type MathRenderer } from "./math-syntax";

/**
 * Math in Markdown (math-syntax.ts) as a marked extension: the TeX is never read as Markdown.
 * Rendering is given by the caller: KaTeX on the server, KaTeX loaded on demand in the browser
 * (math.ts), and until then the TeX itself.
 */

interface MathToken extends Tokens.Generic {
  type: "math";
  tex: string;
  display: boolean;
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** The TeX as it was written, until a renderer is there. */
export const mathSource = (tex: string, display: boolean) =>
  `<span class="math-source">${escapeHtml(display ? `$$${tex}$$` : `$${tex}$`)}</span>`;

/** The marked extension; `renderer()` answers the renderer to use now (undefined: the source). */
export function mathExtension(renderer: () => MathRenderer | undefined): MarkedExtension {
  const render = (token: Tokens.Generic) => {
    const { tex, display } = token as MathToken;
    return (renderer() ?? mathSource)(tex, display);
  };
  return {
    extensions: [
      {
        name: "mathBlock",
        level: "block",
        // Only where a line starts: a block never begins inside a paragraph's text.
        start: (src) => {
          const match = /(^|\n)\$\$[ \t]*\n/.exec(src);
          return match ? match.index + match[1]!.length : undefined;
        },
        tokenizer(src) {
          const match = MATH_BLOCK.exec(src);
          if (match) return { type: "mathBlock", raw: match[0], tex: match[1]!.trim(), display: true };
        },
        renderer: (token) => `<p class="math-display">${render(token)}</p>\n`,
      },
      {
        name: "math",
        level: "inline",
        start: (src) => src.indexOf("$"),
        tokenizer(src) {
          const match = MATH_DISPLAY.exec(src) ?? MATH_INLINE.exec(src);
          if (match) return { type: "math", raw: match[0], tex: match[1]!.trim(), display: match[0].startsWith("$$") };
        },
        renderer: render,
      },
    ],
  };
}
