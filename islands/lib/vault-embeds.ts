/**
 * Obsidian's embeds in a note's details, shown on the page as Obsidian shows them: ![[x.png|600]]
 * as an image of that width, ![[x.mp3]] as an audio player, ![[x.mp4]] as a video player, a PDF
 * or other file as a link, and ![alt](relative/path.png) as an image of the vault. The file is
 * asked of the server from the note that embeds it (GET /api/notes/{note}/attachment), which
 * finds it as Obsidian does. Only a note's own details have a note to ask from; elsewhere
 * embeds stay text. The same on the server and in the browser.
 */
import type { TokenizerAndRendererExtension, Tokens } from "marked";
import { type AttachmentKind, kindOfName } from "../../src/services/vaults/attachment-types";

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** Where the page asks for the file an embed names. */
export const embedUrl = (noteId: number, target: string) => `/api/notes/${noteId}/attachment?target=${encodeURIComponent(target)}`;

/** An embed as HTML (attribute values escaped), or undefined for one that is not a file (a note's text). */
export function embedHtml(noteId: number, target: string, label: string | undefined): string | undefined {
  const kind: AttachmentKind | undefined = kindOfName(target);
  if (!kind) return undefined;
  const src = escapeHtml(embedUrl(noteId, target));
  const name = target.split("/").at(-1)!;
  // "|600" or "|600x400" is a size; other text after the "|" is the file's description.
  const size = label === undefined ? undefined : /^\s*(\d{1,5})(?:x(\d{1,5}))?\s*$/.exec(label);
  const alt = escapeHtml(label !== undefined && !size ? label : name);
  const width = size ? ` width="${size[1]}"` : "";
  const height = size?.[2] ? ` height="${size[2]}"` : "";
  if (kind === "image") return `<img class="vault-embed" src="${src}" alt="${alt}"${width}${height} loading="lazy">`;
  if (kind === "audio") return `<audio class="vault-embed" controls preload="metadata" src="${src}" title="${alt}"></audio>`;
  if (kind === "video")
    return `<video class="vault-embed" controls preload="metadata" src="${src}" title="${alt}"${width}${height}></video>`;
  return `<a class="vault-embed-file" href="${src}">${alt}</a>`;
}

/** Whether an image's address is a path inside the vault (not a URL, not a path of this site). */
export const isVaultPath = (href: string) => !/^[a-z][a-z0-9+.-]*:/i.test(href) && !href.startsWith("/") && !href.startsWith("#");

interface EmbedToken extends Tokens.Generic {
  type: "vaultEmbed";
  target: string;
  label: string | undefined;
}

/**
 * The marked extension for ![[embeds]]: `noteId()` answers the note whose details are being
 * rendered (undefined: leave embeds as text).
 */
export function vaultEmbedExtension(noteId: () => number | undefined): TokenizerAndRendererExtension {
  return {
    name: "vaultEmbed",
    level: "inline",
    start: (source) => (noteId() === undefined ? undefined : source.match(/!\[\[/)?.index),
    tokenizer(source) {
      if (noteId() === undefined) return undefined;
      const match = /^!\[\[([^\]\n]+?)\]\]/.exec(source);
      if (!match) return undefined;
      const inner = match[1]!.replace(/\\\|/g, "|");
      const bar = inner.indexOf("|");
      const target = (bar < 0 ? inner : inner.slice(0, bar)).split("#")[0]!.trim();
      if (!kindOfName(target)) return undefined;
      return { type: "vaultEmbed", raw: match[0], target, label: bar < 0 ? undefined : inner.slice(bar + 1) } satisfies EmbedToken;
    },
    renderer(token) {
      const id = noteId();
      const { target, label } = token as EmbedToken;
      return id === undefined ? escapeHtml(token.raw) : (embedHtml(id, target, label) ?? escapeHtml(token.raw));
    },
  };
}
