/**
 * A vault laid out as Obsidian's own Help vault is, for import and export tests: zipped with its
 * folder ("Obsidian Help/…", and links that name it: [[Obsidian Help/Plugins/Templates|Templates]]),
 * an Attachments folder and files beside notes, names with spaces and non-ASCII letters, and a
 * file of each kind a note embeds (SVG, PNG, JPEG, GIF, WebP, MP3, WAV, MP4, WebM, PDF), sized
 * embeds, heading anchors, callouts holding embeds, links inside tables (written [[Note\|alias]]),
 * two files of one name told apart by their folders, Markdown-style links and images, and the
 * hidden .obsidian folder.
 */
import { writeFileSync } from "node:fs";
import { makePng, makeZip } from "./vaults";

const bytes = (base64: string) => new Uint8Array(Buffer.from(base64, "base64"));
const text = (value: string) => new TextEncoder().encode(value);

/** A real WAV: a tenth of a second of a 440 Hz tone, 8 kHz mono 8-bit. */
function makeWav(): Uint8Array {
  const samples = 800;
  const data = Buffer.alloc(44 + samples);
  data.write("RIFF", 0, "ascii");
  data.writeUInt32LE(36 + samples, 4);
  data.write("WAVEfmt ", 8, "ascii");
  data.writeUInt32LE(16, 16);
  data.writeUInt16LE(1, 20);
  data.writeUInt16LE(1, 22);
  data.writeUInt32LE(8000, 24);
  data.writeUInt32LE(8000, 28);
  data.writeUInt16LE(1, 32);
  data.writeUInt16LE(8, 34);
  data.write("data", 36, "ascii");
  data.writeUInt32LE(samples, 40);
  for (let i = 0; i < samples; i++) data[44 + i] = 128 + Math.round(100 * Math.sin((2 * Math.PI * 440 * i) / 8000));
  return new Uint8Array(data);
}

/** The vault's files other than notes, by their path in the zip. */
export const HELP_VAULT_FILES: Record<string, Uint8Array<ArrayBufferLike>> = {
  "Obsidian Help/Attachments/Obsidian logo.svg": text(
    '<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64"><path d="M32 4 L56 20 L48 58 L16 58 L8 20 Z" fill="#7c3aed"/></svg>\n',
  ),
  "Obsidian Help/Attachments/link-preview.png": makePng(320, 180, [30, 120, 200]),
  "Obsidian Help/Attachments/Workspace layout.jpg": bytes(
    "/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=",
  ),
  "Obsidian Help/Attachments/Insert template.gif": bytes("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7"),
  "Obsidian Help/Attachments/icon.webp": bytes("UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA=="),
  "Obsidian Help/Attachments/Templates demo.mp4": new Uint8Array([
    0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70, 0x69, 0x73, 0x6f, 0x6d, 0, 0, 2, 0, 0x69, 0x73, 0x6f, 0x6d, 0x6d, 0x70, 0x34, 0x31,
  ]),
  "Obsidian Help/Attachments/Recording 20230101.webm": new Uint8Array([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0xf7]),
  "Obsidian Help/Attachments/Sound.mp3": new Uint8Array([0x49, 0x44, 0x33, 3, 0, 0, 0, 0, 0, 0, 0xff, 0xfb, 0x90, 0x64, 0, 0]),
  "Obsidian Help/Attachments/Tone.wav": makeWav(),
  "Obsidian Help/Attachments/image.png": makePng(8, 8, [220, 40, 40]),
  "Obsidian Help/Files and folders/sample.pdf": text("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n"),
  "Obsidian Help/Über Obsidian/Bilder/Überblick.png": makePng(240, 150, [40, 160, 60]),
  "Obsidian Help/Über Obsidian/Bilder/image.png": makePng(6, 6, [40, 40, 220]),
  "Obsidian Help/Attachments/unused.canvas": text('{"nodes":[],"edges":[]}'),
};

/** The vault's notes, by their path in the zip. */
export const HELP_VAULT_NOTES: Record<string, string> = {
  "Obsidian Help/Home.md": [
    "---",
    "aliases:",
    "  - Start here",
    "cssclasses: home",
    "---",
    "![[Obsidian logo.svg|200]]",
    "",
    "Welcome to the [[Obsidian Help/Getting started/Create a vault|Help vault]]. Start with [[Obsidian Help/Plugins/Templates|Templates]].",
    "",
    "> [!tip] Where things are",
    "> ![[link-preview.png|300]]",
    "> Links show a preview when you hover them.",
    "",
    "| Topic | See |",
    "| --- | --- |",
    "| Vaults | [[Create a vault\\|making one]] |",
    "| Linking | [[Link notes\\|links]] and ![[icon.webp\\|16]] |",
    "",
  ].join("\n"),
  "Obsidian Help/Getting started/Create a vault.md": [
    "A vault is a folder on your file system.",
    "",
    "![[Workspace layout.jpg|600]]",
    "",
    "Next: [[Link notes#Internal links|link your notes]].",
  ].join("\n"),
  "Obsidian Help/Getting started/Link notes.md": [
    "## Internal links",
    "",
    "Type `[[` to link a note; [[Workspace#Interface|the interface]] shows them.",
    "",
    "![Preview](../Attachments/link-preview.png)",
    "",
    "Read [the vault note](Create%20a%20vault.md) again.",
    "",
    "```",
    "[[Not a link]] inside code",
    "```",
  ].join("\n"),
  "Obsidian Help/User interface/Workspace.md": [
    "## Interface",
    "",
    "![[Workspace layout.jpg|600x400]]",
    "",
    "> [!note]",
    "> ![[Attachments/image.png]]",
  ].join("\n"),
  "Obsidian Help/Plugins/Templates.md": [
    "Insert a template with a command.",
    "",
    "![[Insert template.gif]]",
    "",
    "![[Templates demo.mp4]]",
    "",
    "See [[Audio recorder]] and [[Obsidian Help/Home|home]].",
  ].join("\n"),
  "Obsidian Help/Plugins/Audio recorder.md": [
    "Recordings land in the vault:",
    "",
    "![[Recording 20230101.webm]]",
    "",
    "![[Sound.mp3]]",
    "",
    "![[Tone.wav]]",
  ].join("\n"),
  "Obsidian Help/Files and folders/Accepted file formats.md": [
    "PDF files open in Obsidian: ![[sample.pdf]]",
    "",
    "Or link to them: [[sample.pdf|the sample]].",
  ].join("\n"),
  "Obsidian Help/Über Obsidian/Großartige Funktionen.md": [
    "![[Bilder/Überblick.png]]",
    "",
    "Two pictures of one name: ![[Bilder/image.png]] and ![[Attachments/image.png]].",
    "",
    "Zurück zu [[Home]].",
  ].join("\n"),
};

/** The whole vault as a zip's files, the hidden .obsidian folder included. */
export function helpVaultFiles(): Record<string, string | Uint8Array> {
  return {
    "Obsidian Help/.obsidian/app.json": '{"newLinkFormat":"shortest"}',
    ...HELP_VAULT_NOTES,
    ...HELP_VAULT_FILES,
  };
}

// `bun tests/support/help-vault.ts <file.zip>` writes the vault as a zip (for browser tests, which run on Node).
if (import.meta.main) writeFileSync(process.argv[2]!, await makeZip(helpVaultFiles()));
