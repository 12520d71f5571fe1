/**
 * Backslash escapes for a stretch of plain text written as Markdown: only the characters
 * Markdown would read as syntax where they are.
 */

const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/;
const WORD = /[\p{L}\p{N}]/u;
const SPACE = /\s/;

/**
 * Escapes the characters of a plain text that Markdown would read as syntax, and only those, so
 * that "snake_case", "2 * 3" or "[1]" stay as people write them. It sees one stretch of plain
 * text at a time, so whatever could combine with its neighbours (a "*" or "_" at either end, a
 * "<" before a letter) is escaped.
 */
export function escapeMarkdownText(text: string, { inHeading = false, inLinkText = false } = {}): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    const prev = text[i - 1];
    const next = text[i + 1];
    const spaced = prev !== undefined && next !== undefined && SPACE.test(prev) && SPACE.test(next);
    let needsEscape = false;
    switch (char) {
      case "\\":
        needsEscape = next === undefined || ASCII_PUNCTUATION.test(next);
        break;
      case "`":
        needsEscape = true;
        break;
      case "*":
      case "~":
        needsEscape = !spaced;
        break;
      case "_":
        needsEscape = !spaced && !(prev !== undefined && next !== undefined && WORD.test(prev) && WORD.test(next));
        break;
      // Link text must not hold a bracket of its own.
      case "[":
        needsEscape = inLinkText || next === "^";
        break;
      case "]":
        needsEscape = inLinkText || next === "(" || next === ":";
        break;
      case "<":
        needsEscape = next === undefined || /[A-Za-z/!?]/.test(next);
        break;
      case "&":
        needsEscape = /^&(#\d{1,7}|#x[0-9a-f]{1,6}|[a-z][a-z0-9]{1,31});/i.test(text.slice(i));
        break;
    }
    out += needsEscape ? `\\${char}` : char;
  }
  // A heading's text ending in " #" would lose those hashes as the heading's closing sequence.
  out = out.replace(/(^|\s)(#+)$/, "$1\\$2");
  return inHeading ? out : escapeLineStart(out);
}

/** What would start a block at the beginning of a line: a heading, quote, list item or rule. */
function escapeLineStart(text: string): string {
  if (/^(-[ \t]*){3,}$/.test(text)) return `\\${text}`;
  const match = /^(#{1,6}|[-+]|\d{1,9}[.)])(?=\s|$)/.exec(text) ?? /^>/.exec(text);
  if (!match) return text;
  const marker = match[0];
  // "1." becomes "1\.", "#" becomes "\#".
  return /^\d/.test(marker) ? `${marker.slice(0, -1)}\\${text.slice(marker.length - 1)}` : `\\${text}`;
}
