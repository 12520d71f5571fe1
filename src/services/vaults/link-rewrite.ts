/**
 * Rewrites the links of a note's Markdown, leaving code alone: [[wikilinks]], ![[embeds]],
 * [text](links) and ![alt](images) outside fenced code blocks and `code spans` are handed to a
 * function that answers their new text (or undefined to keep them as written).
 */
import { wikiLinkParts } from "./markdown-file";

export interface LinkInText {
  kind: "wikilink" | "markdown";
  embed: boolean;
  /** The path as the link names it (decoded), without anchor. */
  target: string;
  /** "#Heading", "#^block" or "". */
  anchor: string;
  /** Wikilinks: what follows the "|" (alias or size). Markdown: the text in brackets. */
  label: string | undefined;
  /** A wikilink inside a table writes its "|" as "\|". */
  escapedPipe: boolean;
  text: string;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const LINKS = /(!?)\[\[([^\]\n]+?)\]\]|(!?)\[([^\]\n]*)\]\(\s*(<[^>\n]+>|[^)\s]+)((?:\s+"[^"\n]*")?\s*)\)/g;

/** The text with each link outside code replaced by rewrite's answer. */
export function rewriteLinks(markdown: string, rewrite: (link: LinkInText) => string | undefined): string {
  const lines = markdown.split("\n");
  let fence: string | undefined;
  return lines
    .map((line) => {
      const opening = FENCE.exec(line)?.[1];
      if (fence !== undefined) {
        if (opening && opening[0] === fence[0] && opening.length >= fence.length && line.trim() === opening) fence = undefined;
        return line;
      }
      if (opening) {
        fence = opening;
        return line;
      }
      // Code spans: runs of backticks closed by a run of the same length stay as they are.
      return line
        .split(/(`+[^`]*?`+)/)
        .map((part, i) => (i % 2 === 1 ? part : rewriteOutsideCode(part, rewrite)))
        .join("");
    })
    .join("\n");
}

function rewriteOutsideCode(text: string, rewrite: (link: LinkInText) => string | undefined): string {
  return text.replace(LINKS, (whole, wikiBang, inner, mdBang, label, rawTarget) => {
    if (inner !== undefined) {
      const parts = wikiLinkParts(inner);
      if (!parts.target) return whole;
      const link: LinkInText = {
        kind: "wikilink",
        embed: wikiBang === "!",
        target: parts.target,
        anchor: parts.anchor,
        label: parts.rest,
        escapedPipe: parts.escapedPipe,
        text: whole,
      };
      return rewrite(link) ?? whole;
    }
    let target = String(rawTarget).replace(/^<|>$/g, "");
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("//") || target.startsWith("#")) return whole;
    const hash = target.indexOf("#");
    const anchor = hash < 0 ? "" : target.slice(hash);
    target = hash < 0 ? target : target.slice(0, hash);
    try {
      target = decodeURI(target);
    } catch {
      // kept as written
    }
    const link: LinkInText = { kind: "markdown", embed: mdBang === "!", target, anchor, label, escapedPipe: false, text: whole };
    return rewrite(link) ?? whole;
  });
}

/** A wikilink's text with a new target (anchor, alias or size, and the table's escaped "|" kept). */
export function wikiLinkText(link: LinkInText, target: string): string {
  const rest = link.label === undefined ? "" : `${link.escapedPipe ? "\\|" : "|"}${link.label}`;
  return `${link.embed ? "!" : ""}[[${target}${link.anchor}${rest}]]`;
}

/** A Markdown link's text with a new path (spaces and parentheses escaped as Obsidian writes them). */
export function markdownLinkText(link: LinkInText, path: string): string {
  const encoded = path.replace(/%/g, "%25").replace(/ /g, "%20").replace(/\(/g, "%28").replace(/\)/g, "%29");
  return `${link.embed ? "!" : ""}[${link.label ?? ""}](${encoded}${link.anchor})`;
}

/** The links of a note's Markdown outside code, in order. */
export function linksOutsideCode(markdown: string): LinkInText[] {
  const found: LinkInText[] = [];
  rewriteLinks(markdown, (link) => {
    found.push(link);
    return undefined;
  });
  return found;
}
