import { describe, expect, test } from "bun:test";
import { renderMathWithKatex as browserKatex } from "../../islands/lib/katex-render";
import { renderMarkdownSafely as renderInBrowser } from "../../islands/lib/markdown";
import { containsMath, setMathRenderer } from "../../islands/lib/math-syntax";
import { RICH_MODE_REASONS, richModeRefusal } from "../../islands/note-show/rich-mode/refusal";
import { hasTypesetMath, renderMarkdownSafely as renderOnServer } from "../../src/services/notes/markdown";

describe("math in Markdown", () => {
  test("$…$ and $$…$$ are math; dollars in prose, escaped dollars and code are not", () => {
    expect(containsMath("Energy $E = mc^2$.")).toBe(true);
    expect(containsMath("$$\\int_0^1 x\\,dx$$")).toBe(true);
    expect(containsMath("$$\nx^2\n$$")).toBe(true);
    expect(containsMath("costs $5 and $10")).toBe(false);
    expect(containsMath("\\$5 or \\$x\\$")).toBe(false);
    expect(containsMath("$ x $")).toBe(false);
  });

  test("on the server, KaTeX typesets it (HTML and MathML), the TeX never read as Markdown", () => {
    const html = renderOnServer("Energy $E = mc_1^2$ and a_b *c*");
    expect(hasTypesetMath(html)).toBe(true);
    expect(html).toContain('<annotation encoding="application/x-tex">E = mc_1^2</annotation>');
    expect(html).toContain("a_b <em>c</em>");
    expect(renderOnServer("$$\nx^2\n$$")).toStartWith('<p class="math-display"><span class="katex-display">');
    expect(renderOnServer("costs $5 and $10")).toBe("<p>costs $5 and $10</p>\n");
    expect(renderOnServer("`$x$`")).toBe("<p><code>$x$</code></p>\n");
  });

  test("typeset math stays safe: no links from TeX, placeholders cannot be forged, raw HTML still filtered", () => {
    const html = renderOnServer("$\\href{javascript:alert(1)}{x}$ $\\url{javascript:alert(2)}$");
    expect(html).not.toContain("href=");
    expect(html).not.toMatch(/<a[\s>]/);
    expect(renderOnServer("\uE0300\uE031 <img src=x onerror=alert(1)>")).toBe('<p>0 <img src="x" referrerpolicy="no-referrer" /></p>\n');
  });

  test("in the browser, math shows as its TeX until KaTeX is loaded, then typeset", () => {
    expect(renderInBrowser("Energy $E = mc^2$")).toBe('<p>Energy <span class="math-source">$E = mc^2$</span></p>\n');
    setMathRenderer(browserKatex);
    expect(renderInBrowser("Energy $E = mc^2$")).toContain('<span class="katex">');
  });

  test("the rich editor leaves notes with math to the Markdown editor, saying why", () => {
    expect(richModeRefusal("Energy $E = mc^2$")).toBe(RICH_MODE_REASONS.math);
    expect(richModeRefusal("costs $5 and $10")).toBeUndefined();
  });
});
