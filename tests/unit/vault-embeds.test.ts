/**
 * Obsidian's embeds in a note's details, shown on the page (islands/lib/vault-embeds.ts) by the
 * browser's renderer and the server's (sanitised) one alike.
 */
import { describe, expect, test } from "bun:test";
import { renderMarkdownSafely as inBrowser } from "../../islands/lib/markdown";
import { renderMarkdownSafely as onServer } from "../../src/services/notes/markdown";

const url = (target: string) => `/api/notes/12/attachment?target=${encodeURIComponent(target)}`;

describe.each([
  ["the browser", inBrowser],
  ["the server", onServer],
] as const)("embeds rendered by %s", (_where, render) => {
  test("an image with its size, a player for audio and video, a link for a PDF", () => {
    const html = render("![[Workspace layout.jpg|600]]\n\n![[Sound.mp3]]\n\n![[Templates demo.mp4|640x360]]\n\n![[sample.pdf]]", {
      noteId: 12,
    });
    expect(html).toContain(
      `<img class="vault-embed" src="${url("Workspace layout.jpg").replace(/&/g, "&amp;")}" alt="Workspace layout.jpg" width="600"`,
    );
    expect(html).toContain(`<audio class="vault-embed" controls`);
    expect(html).toContain(`src="${url("Sound.mp3")}"`);
    expect(html).toMatch(/<video class="vault-embed" controls[^>]*width="640" height="360"/);
    expect(html).toContain(`<a class="vault-embed-file" href="${url("sample.pdf")}"`);
  });

  test("in a callout and in a table (escaped pipe), and a relative Markdown image", () => {
    const html = render(
      "> [!tip] Hover\n> ![[link-preview.png|300]]\n\n| a |\n| - |\n| ![[icon.webp\\|16]] |\n\n![Preview](../Attachments/link%20preview.png)",
      {
        noteId: 12,
      },
    );
    expect(html).toMatch(/<blockquote>[\s\S]*<img class="vault-embed"[^>]*width="300"/);
    expect(html).toMatch(/<td><img class="vault-embed"[^>]*width="16"/);
    expect(html).toContain(`src="${url("../Attachments/link preview.png")}"`);
  });

  test("without a note, or for a note's text (not a file), an embed stays text; a web image stays a web image", () => {
    expect(render("![[x.png|600]]")).not.toContain("<img");
    expect(render("![[Other note#Part]]", { noteId: 12 })).toContain("![[Other note#Part]]");
    expect(render("![web](https://example.org/x.png)", { noteId: 12 })).toContain('src="https://example.org/x.png"');
  });

  test("an embed's description cannot break out of its attribute", () => {
    const html = render('![[x.png|"><script>alert(1)</script>]]', { noteId: 12 });
    expect(html).not.toContain("<script");
    expect(html).toContain('alt="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
  });
});
