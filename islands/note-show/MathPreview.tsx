import { useMath } from "../lib/math";
import { containsMath } from "../lib/math-syntax";

/**
 * A note with math is edited as Markdown (the rich editor would show its TeX as text): under the
 * editor, its details as the page shows them, math typeset. The server's HTML first; after an
 * edit, rendered here once marked (`render`) and KaTeX are loaded.
 */
export function MathPreview({
  markdown,
  initialMarkdown,
  initialHtml,
  render,
}: {
  markdown: string;
  initialMarkdown: string;
  initialHtml: string;
  render: ((markdown: string) => string) | undefined;
}) {
  // KaTeX is fetched only once the text changed (the server's HTML is typeset already).
  useMath(markdown === initialMarkdown ? "" : markdown);
  if (!containsMath(markdown)) return null;
  const html = markdown === initialMarkdown ? initialHtml : render?.(markdown);
  if (html === undefined) return null;
  return (
    <section className="math-preview" aria-label="Preview">
      <h2 className="math-preview-heading">Preview</h2>
      <div
        className="rich-details"
        dir="auto"
        // biome-ignore lint/security/noDangerouslySetInnerHtml: the server's sanitised render, or renderMarkdownSafely's (raw HTML escaped, unsafe URLs dropped, math typeset by KaTeX).
        dangerouslySetInnerHTML={{ __html: html }}
      />
    </section>
  );
}
