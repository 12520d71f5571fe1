/**
 * Links read and written as Obsidian does (src/services/vaults/vault-paths.ts), and the files a
 * vault's notes embed told apart by their bytes (attachment-types.ts).
 */
import { describe, expect, test } from "bun:test";
import { detectAttachmentType } from "../../src/services/vaults/attachment-types";
import { VaultPaths } from "../../src/services/vaults/vault-paths";
import { makePng } from "../support/vaults";

describe("vault paths", () => {
  const vault = new VaultPaths(
    [
      "Home.md",
      "Plugins/Templates.md",
      "Plugins/__index.md",
      "Attachments/image.png",
      "Über/Bilder/image.png",
      "Über/Bilder/Überblick.png",
      "Über/Note.md",
    ],
    [["Plugins.md", "Plugins/__index.md"]],
  );

  test("a name anywhere, a path from the root or the end of one, a path from the note's folder", () => {
    expect(vault.resolve("Templates")).toBe("Plugins/Templates.md");
    expect(vault.resolve("templates.md")).toBe("Plugins/Templates.md");
    expect(vault.resolve("Plugins/Templates")).toBe("Plugins/Templates.md");
    expect(vault.resolve("Bilder/Überblick.png")).toBe("Über/Bilder/Überblick.png");
    expect(vault.resolve("../Attachments/image.png", ["Plugins"])).toBe("Attachments/image.png");
    expect(vault.resolve("Bilder/image.png", ["Über"])).toBe("Über/Bilder/image.png");
    expect(vault.resolve("Plugins")).toBe("Plugins/__index.md");
    expect(vault.resolve("Nowhere")).toBeUndefined();
  });

  test("the vault's own folder in front of a path is read without it (a vault zipped with its folder)", () => {
    expect(vault.resolve("Obsidian Help/Plugins/Templates")).toBe("Plugins/Templates.md");
    expect(vault.resolve("Obsidian Help/Home")).toBe("Home.md");
  });

  test("of two files of one name, the one beside the note, else the shorter path", () => {
    expect(vault.resolve("image.png")).toBe("Attachments/image.png");
    expect(vault.resolve("image.png", ["Über", "Bilder"])).toBe("Über/Bilder/image.png");
  });

  test("a link names a file by its name when no other file has it, else by its whole path", () => {
    expect(vault.linkTarget("Plugins/Templates.md")).toBe("Templates");
    expect(vault.linkTarget("Über/Bilder/Überblick.png")).toBe("Überblick.png");
    expect(vault.linkTarget("Über/Bilder/image.png")).toBe("Über/Bilder/image.png");
    expect(vault.linkTarget("Plugins/__index.md")).toBe("Plugins/__index");
  });
});

describe("attachment types", () => {
  const ascii = (text: string) => new TextEncoder().encode(text);
  test("by their bytes; the name only tells audio from video in a shared container", () => {
    expect(detectAttachmentType(makePng(1, 1), "x.jpg")).toEqual({ contentType: "image/png", kind: "image" });
    expect(detectAttachmentType(ascii("%PDF-1.7 ..."), "doc.pdf")).toEqual({ contentType: "application/pdf", kind: "pdf" });
    expect(detectAttachmentType(ascii("ID3\u0003\u0000"), "a.mp3")).toEqual({ contentType: "audio/mpeg", kind: "audio" });
    expect(detectAttachmentType(ascii("RIFF\u0000\u0000\u0000\u0000WAVEfmt "), "a.wav")).toEqual({
      contentType: "audio/wav",
      kind: "audio",
    });
    const ftyp = (brand: string) => ascii(`\u0000\u0000\u0000\u0018ftyp${brand}`);
    expect(detectAttachmentType(ftyp("isom"), "v.mp4")).toEqual({ contentType: "video/mp4", kind: "video" });
    expect(detectAttachmentType(ftyp("isom"), "a.m4a")).toEqual({ contentType: "audio/mp4", kind: "audio" });
    expect(detectAttachmentType(new Uint8Array([0x1a, 0x45, 0xdf, 0xa3]), "r.webm")).toEqual({ contentType: "video/webm", kind: "video" });
    expect(
      detectAttachmentType(ascii('<?xml version="1.0"?>\n<!-- drawn -->\n<svg xmlns="http://www.w3.org/2000/svg"/>'), "d.svg"),
    ).toEqual({
      contentType: "image/svg+xml",
      kind: "image",
    });
    expect(detectAttachmentType(ascii("<svg/>"), "d.txt")).toBeUndefined();
    expect(detectAttachmentType(ascii('{"nodes":[]}'), "board.canvas")).toBeUndefined();
    expect(detectAttachmentType(ascii("<html><script>x</script>"), "page.svg")).toBeUndefined();
  });
});
