import { describe, expect, test } from "bun:test";
import { renderMarkdownSafely, safeUrl } from "../../islands/lib/markdown";

describe("note details rendered in the browser", () => {
  test("Markdown becomes HTML", () => {
    expect(renderMarkdownSafely("a **bold** [link](https://example.org/?a=1&b=2)")).toBe(
      '<p>a <strong>bold</strong> <a href="https://example.org/?a=1&amp;b=2" rel="noopener noreferrer">link</a></p>\n',
    );
  });

  test("raw HTML is shown as text", () => {
    expect(renderMarkdownSafely("<img src=x onerror=alert(1)>")).not.toContain("<img");
    expect(renderMarkdownSafely("hi <b onclick=x>there</b>")).toBe("<p>hi &lt;b onclick=x&gt;there&lt;/b&gt;</p>\n");
  });

  test("bare <sub> and <sup> are kept, with attributes they are text; escaped HTML stays literal", () => {
    expect(renderMarkdownSafely("x<sup>th</sup> a<sub>ij</sub>")).toBe("<p>x<sup>th</sup> a<sub>ij</sub></p>\n");
    expect(renderMarkdownSafely('x<sup onclick="a()">th</sup>')).toBe("<p>x&lt;sup onclick=&quot;a()&quot;&gt;th</sup></p>\n");
    expect(renderMarkdownSafely("\\<script>alert(1)\\</script>")).toBe("<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n");
  });

  test.each([
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    "&#106;avascript:alert(1)",
    "javascript&colon;alert(1)",
    "java&#x09;script:alert(1)",
    "data:text/html,<script>alert(1)</script>",
  ])("a link or image to %p keeps only its text", (href) => {
    expect(safeUrl(href)).toBeUndefined();
    expect(renderMarkdownSafely(`[text](${href})`)).not.toContain("<a");
    expect(renderMarkdownSafely(`![alt](${href})`)).not.toContain("<img");
  });

  test.each(["https://example.org", "http://example.org/x", "mailto:a@example.org", "/n12", "page#part"])("%p is kept", (href) => {
    expect(safeUrl(href)).toBe(href);
  });
});
