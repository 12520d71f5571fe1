/**
 * The words a reader sees in a note's Markdown, as one line of plain text (for snippets): read
 * with marked's lexer, so syntax leaves and the text stays. Links give their text, images and
 * embeds nothing, code its content, raw HTML its source (the page shows it as text too). Emphasis
 * is a matter of reading: `*` and `**` around words are dropped, but marks that touch a word
 * (`2*3*4`) or are written with underscores (`__init__`, `my_var_name`) are kept as written, as
 * identifiers and arithmetic use them far more often in notes than emphasis does.
 */
import { Marked, type Token, type TokenizerExtension, type Tokens } from "marked";
import { detailsBody } from "./note-properties";

/** [[target]], [[target|alias]] and ![[embed]]: Obsidian's links, read as their shown text. */
const wikiLink: TokenizerExtension = {
  name: "wikiLink",
  level: "inline",
  start: (source: string) => source.match(/!?\[\[/)?.index,
  tokenizer(source: string) {
    const match = /^(!?)\[\[([^\]\n]+?)\]\]/.exec(source);
    if (!match) return undefined;
    const [target, alias] = match[2]!.replace(/\\\|/g, "|").split("|");
    return { type: "wikiLink", raw: match[0], embed: match[1] === "!", text: (alias ?? target ?? "").trim() };
  },
};

// Each lex makes its own lexer (reference definitions are kept on it).
const markdown = new Marked({ gfm: true, breaks: false, extensions: [wikiLink] });

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** Character references as the page shows them (marked keeps them in its text tokens). */
function decodeEntities(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] !== "#") return ENTITIES[ref.toLowerCase()] ?? whole;
    const code = ref[1] === "x" || ref[1] === "X" ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : "\uFFFD";
  });
}

const WORD_END = /[\p{L}\p{N}]$/u;
const WORD_START = /^[\p{L}\p{N}]/u;

/** Inline tokens as text. */
function inlineText(tokens: Token[] | undefined): string {
  if (!tokens) return "";
  let out = "";
  tokens.forEach((token, i) => {
    switch (token.type) {
      case "em":
      case "strong": {
        const mark = token.raw.slice(0, token.type === "em" ? 1 : 2);
        const before = tokens[i - 1]?.raw ?? "";
        const after = tokens[i + 1]?.raw ?? "";
        const literal = mark.startsWith("_") || WORD_END.test(before) || WORD_START.test(after);
        const inner = inlineText((token as Tokens.Em | Tokens.Strong).tokens);
        out += literal ? `${mark}${inner}${mark}` : inner;
        break;
      }
      case "del":
      case "link":
        out += inlineText((token as Tokens.Del | Tokens.Link).tokens);
        break;
      case "image":
      case "checkbox":
        break;
      case "wikiLink": {
        const link = token as Tokens.Generic;
        if (!link.embed) out += String(link.text);
        break;
      }
      case "br":
        out += " ";
        break;
      case "codespan":
        out += (token as Tokens.Codespan).text;
        break;
      case "html":
        out += token.raw;
        break;
      case "text":
        out += "tokens" in token && token.tokens ? inlineText(token.tokens) : decodeEntities((token as Tokens.Text).text);
        break;
      default:
        out += "text" in token ? decodeEntities(String(token.text)) : "";
    }
  });
  return out;
}

/** Block tokens as text, blocks separated by a space. */
function blockText(tokens: Token[]): string {
  const parts: string[] = [];
  for (const token of tokens) {
    switch (token.type) {
      case "space":
      case "hr":
      case "def":
        break;
      case "code":
        parts.push((token as Tokens.Code).text);
        break;
      case "html":
        parts.push(token.raw);
        break;
      case "blockquote":
        parts.push(blockText((token as Tokens.Blockquote).tokens));
        break;
      case "list":
        for (const item of (token as Tokens.List).items) parts.push(blockText(item.tokens));
        break;
      case "table": {
        const table = token as Tokens.Table;
        for (const cell of table.header) parts.push(inlineText(cell.tokens));
        for (const row of table.rows) for (const cell of row) parts.push(inlineText(cell.tokens));
        break;
      }
      default:
        parts.push("tokens" in token && token.tokens ? inlineText(token.tokens) : "text" in token ? String(token.text) : "");
    }
  }
  return parts.join(" ");
}

/** The whole Markdown as one line of plain text (front matter left out). */
export function plainTextOfMarkdown(source: string): string {
  // The properties at the top of imported details are not text (note-properties.ts).
  return blockText(markdown.lexer(detailsBody(source)))
    .replace(/\s+/g, " ")
    .trim();
}
