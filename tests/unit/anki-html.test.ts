import { describe, expect, test } from "bun:test";
import { fieldToMarkdown, fieldToText } from "../../src/services/vaults/anki-html";

describe("Anki field HTML as Markdown", () => {
  test("blocks, line breaks, emphasis and lists", () => {
    expect(fieldToMarkdown("<div>one</div><div><b>two</b> <i>three</i></div><ul><li>a</li><li>b<ul><li>c</li></ul></li></ul>")).toBe(
      "one\n\n**two** *three*\n\n- a\n- b\n  - c",
    );
    expect(fieldToMarkdown('<ol start="3"><li>x</li><li>y</li></ol>')).toBe("3. x\n4. y");
    expect(fieldToMarkdown("Hello<br>Hi<br><br>there")).toBe("Hello\n\nHi\n\nthere");
    expect(fieldToMarkdown("<ul><li>a<br>b</li></ul>")).toBe("- a  \n  b");
  });

  test("style and script content is dropped, images and sounds too", () => {
    expect(fieldToMarkdown("<style>.card { color: red }</style><p>text</p><script>alert(1)</script>")).toBe("text");
    expect(fieldToMarkdown('[sound:a.mp3]Word <img src="x.png">')).toBe("Word");
  });

  test("escaped HTML stays literal text, escaped so that it is never live HTML", () => {
    expect(fieldToMarkdown("&lt;script&gt;alert(1)&lt;/script&gt;")).toBe("\\<script>alert(1)\\</script>");
    expect(fieldToMarkdown("a &amp;lt; b")).toBe("a \\&lt; b");
    expect(fieldToMarkdown("2*3*4 my_var_name costs $5 [x]")).toBe("2\\*3\\*4 my\\_var\\_name costs \\$5 \\[x\\]");
  });

  test("ruby readings follow their base in parentheses", () => {
    expect(fieldToMarkdown("<ruby>漢字<rp>(</rp><rt>かんじ</rt><rp>)</rp></ruby>を読む")).toBe("漢字(かんじ)を読む");
    expect(fieldToText("<ruby>日<rt>に</rt>本<rt>ほん</rt></ruby>")).toBe("日(に)本(ほん)");
  });

  test("links keep their URL", () => {
    expect(fieldToMarkdown('See <a href="https://example.org/a_b">the page</a>.')).toBe("See [the page](https://example.org/a_b).");
  });

  test("tables become GFM tables, the first row as header, pipes escaped, spans and short rows filled", () => {
    expect(fieldToMarkdown("<table><tr><td>a|1</td><td>b</td></tr><tr><td colspan=2>c<br>d</td></tr><tr><td>e</td></tr></table>")).toBe(
      "| a\\|1 | b |\n| --- | --- |\n| c d | |\n| e |  |",
    );
    expect(fieldToMarkdown("<table><thead><tr><th>x</th></tr></thead><tbody><tr><td>1</td></tr></tbody></table>")).toBe(
      "| x |\n| --- |\n| 1 |",
    );
  });

  test("sub- and superscripts in Unicode when every character has one, else as <sub>/<sup>", () => {
    expect(fieldToMarkdown("H<sub>2</sub>O, x<sup>2</sup>, 10<sup>-3</sup>")).toBe("H₂O, x², 10⁻³");
    expect(fieldToMarkdown("x<sup>th</sup> a<sub><b>ij</b></sub>")).toBe("x<sup>th</sup> a<sub>**ij**</sub>");
    expect(fieldToText("x<sup>th</sup>")).toBe("xth");
  });

  test("preformatted text becomes a fenced code block", () => {
    expect(fieldToMarkdown("<pre>code\n  `indented`</pre>")).toBe("```\ncode\n  `indented`\n```");
    expect(fieldToMarkdown("<pre><code>x = 1</code></pre>")).toBe("```\nx = 1\n```");
  });

  test("MathJax and Anki's [$] become $…$ and $$…$$, the TeX untouched", () => {
    expect(fieldToMarkdown("Energy \\(E = mc^2\\) and \\[\\int_0^1 x\\,dx &lt; 1\\] [$]a_1[/$]")).toBe(
      "Energy $E = mc^2$ and $$\\int_0^1 x\\,dx < 1$$ $a_1$",
    );
    expect(fieldToText("\\(x_1<br>+ y\\)")).toBe("$x_1 + y$");
  });
});

describe("Anki field HTML as a title", () => {
  test("one line of text: tags dropped, entities decoded, blocks and breaks as spaces", () => {
    expect(fieldToText("<b>Hola</b>&nbsp;&amp; <i>adiós</i><br>[sound:a.mp3]<div>más</div>")).toBe("Hola & adiós más");
    expect(fieldToText("<style>p{}</style>&lt;b&gt;")).toBe("<b>");
  });
});
