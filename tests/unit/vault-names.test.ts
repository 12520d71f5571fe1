import { describe, expect, test } from "bun:test";
import { attachmentDisposition } from "../../src/services/vaults/export";
import {
  detailsWithFrontMatter,
  markdownImages,
  scalarValue,
  splitDetails,
  splitMarkdownFile,
  wikiLinks,
} from "../../src/services/vaults/markdown-file";
import { entryPathParts, FolderNames, isHiddenPath, MAX_NAME_BYTES, safeName, stemFitsTitle } from "../../src/services/vaults/names";

describe("safe file names for vault notes", () => {
  test("characters no file system or wikilink accepts become _", () => {
    expect(safeName('a/b\\c:d*e?f"g<h>i|j')).toBe("a_b_c_d_e_f_g_h_i_j");
    expect(safeName("[[x]] #tag ^block")).toBe("__x__ _tag _block");
    expect(safeName("tab\there\nnewline")).toBe("tab here newline");
  });

  test("leading dots, trailing dots and spaces go; nothing left gives Untitled", () => {
    expect(safeName(".obsidian")).toBe("obsidian");
    expect(safeName("...")).toBe("Untitled");
    expect(safeName("  end. . ")).toBe("end");
    expect(safeName("")).toBe("Untitled");
  });

  test("reserved Windows names and the index file's name get a _", () => {
    for (const name of ["CON", "prn", "Aux", "NUL", "com1", "LPT9", "con.txt"]) expect(safeName(name)).toBe(`${name}_`);
    expect(safeName("Console")).toBe("Console");
    expect(safeName("__index")).toBe("__index_");
  });

  test("long titles are cut to whole characters within the byte limit", () => {
    const emoji = "😀".repeat(100);
    const cut = safeName(emoji);
    expect(new TextEncoder().encode(cut).length).toBeLessThanOrEqual(MAX_NAME_BYTES);
    expect(cut).toBe("😀".repeat(MAX_NAME_BYTES / 4));
    expect(safeName("a".repeat(300))).toHaveLength(MAX_NAME_BYTES);
  });

  test("non-ASCII titles stay, in NFC", () => {
    expect(safeName("Cafe\u0301 ☕ 日本")).toBe("Café ☕ 日本");
  });

  test("names stay unique in a folder, ignoring case, across notes, folders and attachments", () => {
    const names = new FolderNames();
    names.reserve("__index.md");
    expect(names.noteStem("Note")).toBe("Note");
    expect(names.noteStem("note")).toBe("note (2)");
    expect(names.noteStem("a/b")).toBe("a_b");
    expect(names.noteStem("a_b")).toBe("a_b (2)");
    expect(names.noteStem("__index")).toBe("__index_");
    expect(names.fileName("Note", "png")).toBe("Note.png");
    expect(names.fileName("Note", "png")).toBe("Note (2).png");
  });

  test("a file name fits the title it was made from, with or without a number", () => {
    expect(stemFitsTitle("a_b_ c_", "a/b: c?")).toBe(true);
    expect(stemFitsTitle("a_b_ c_ (2)", "a/b: c?")).toBe(true);
    expect(stemFitsTitle("other", "a/b: c?")).toBe(false);
  });
});

describe("zip entry paths", () => {
  test("paths leaving the archive are refused", () => {
    expect(entryPathParts("../evil.md")).toBeUndefined();
    expect(entryPathParts("a/../../evil.md")).toBeUndefined();
    expect(entryPathParts("/etc/passwd")).toBeUndefined();
    expect(entryPathParts("C:/x.md")).toBeUndefined();
    expect(entryPathParts("a\\..\\..\\x.md")).toBeUndefined();
    expect(entryPathParts("a/./b//c.md")).toEqual(["a", "b", "c.md"]);
  });

  test("hidden and system entries are recognised", () => {
    expect(isHiddenPath(["v", ".obsidian", "app.json"])).toBe(true);
    expect(isHiddenPath(["__MACOSX", "v", "._a.md"])).toBe(true);
    expect(isHiddenPath(["v", ".DS_Store"])).toBe(true);
    expect(isHiddenPath(["v", "a.md"])).toBe(false);
  });
});

describe("Markdown files of a vault", () => {
  test("front matter is split into entries, lists kept with their key", () => {
    const { frontMatter, body } = splitMarkdownFile('---\nnote_id: 3\ntags:\n  - a\n  - b\nurl: "https://x.org/a: b"\n---\n# T\n\nbody');
    expect(frontMatter.map((e) => e.key)).toEqual(["note_id", "tags", "url"]);
    expect(frontMatter[1]!.lines).toEqual(["tags:", "  - a", "  - b"]);
    expect(scalarValue(frontMatter[2])).toBe("https://x.org/a: b");
    expect(scalarValue(frontMatter[1])).toBeUndefined();
    expect(body).toBe("# T\n\nbody");
    expect(splitMarkdownFile("no front matter\n---\n").frontMatter).toEqual([]);
  });

  test("front matter kept in details reads back the same", () => {
    const entries = splitMarkdownFile("---\naliases: [x]\n---\n").frontMatter;
    const details = detailsWithFrontMatter(entries, "text");
    expect(details).toBe("---\naliases: [x]\n---\n\ntext");
    expect(splitDetails(details)).toEqual({ entries, rest: "text" });
    expect(splitDetails("--- not front matter")).toEqual({ entries: [], rest: "--- not front matter" });
  });

  test("wikilinks, aliases, headings and embeds; Markdown images inside the vault", () => {
    expect(wikiLinks("see [[A|alias]], [[B#Part]] and ![[c.png]]")).toEqual([
      { text: "[[A|alias]]", target: "A", embed: false },
      { text: "[[B#Part]]", target: "B", embed: false },
      { text: "![[c.png]]", target: "c.png", embed: true },
    ]);
    expect(markdownImages("![a](img/x%20y.png) ![b](https://e.org/z.png) ![c](<my pic.jpg>)")).toEqual([
      { text: "![a](img/x%20y.png)", target: "img/x y.png" },
      { text: "![c](<my pic.jpg>)", target: "my pic.jpg" },
    ]);
  });
});

describe("download names", () => {
  test("Content-Disposition has an ASCII fallback and the exact UTF-8 name (RFC 6266)", () => {
    expect(attachmentDisposition("Root Note-obsidian.zip")).toBe(
      `attachment; filename="Root Note-obsidian.zip"; filename*=UTF-8''Root%20Note-obsidian.zip`,
    );
    expect(attachmentDisposition('日本 "q"-obsidian.zip')).toBe(
      `attachment; filename="__ _q_-obsidian.zip"; filename*=UTF-8''%E6%97%A5%E6%9C%AC%20%22q%22-obsidian.zip`,
    );
  });
});
