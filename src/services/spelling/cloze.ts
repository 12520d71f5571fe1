import { lengthOf, type TitleFragment, titleParts } from "./title-fragments";

/**
 * The cloze of a spelling question's stem: in the text between
 * HTML tags, pronunciations like /kat/ and every form of the note title are hidden.
 */

/** What each kind of hidden text becomes: marked so the page can style it and say why. */
export const CLOZE_MARKS = {
  full: "<mark title='Hidden text that is matching the answer'>[...]</mark>",
  partial: "<mark title='Hidden text that is partially matching the answer'>[..~]</mark>",
  pronunciation: "<mark title='Hidden pronunciation'>/.../</mark>",
  subtitle: "<mark title='Hidden subtitle that is matching the answer'>(...)</mark>",
} as const;

// Internal placeholders (private-use characters) keep one pass from matching what an earlier pass
// hid. They count as word characters, as the reference's "__f_u_l_l__" placeholders did.
const FULL = "\uE000";
const PARTIAL = "\uE001";
const SUBTITLE = "\uE002";
const PRONUNCIATION = "\uE003";
const PLACEHOLDERS = /[\uE000-\uE003]/gu;
/** Text set aside and put back as it was (entities we do not decode): slot i is U+F0000 + i. */
const KEPT_BASE = 0xf0000;
const KEPT = /[\u{F0000}-\u{10FFFF}]/gu;

/** A word character, Unicode-aware (letters, marks, digits, connectors), or a placeholder. */
const WORD = "[\\p{Alphabetic}\\p{M}\\p{Nd}\\p{Pc}\\u200C\\u200D\\uE000-\\uE003]";
const WORD_BOUNDARY = `(?:(?<=${WORD})(?!${WORD})|(?<!${WORD})(?=${WORD}))`;
const KANA_OR_HAN = "[\\p{sc=Han}\\p{sc=Katakana}\\p{sc=Hiragana}]";
/** Articles dropped from long stems, and what may stand between their words. */
const ARTICLES = ["the", "a", "an"];
const CONNECTOR = "[\\s-]+(?:(?:and|the|a|an)\\s+)?";

/** A slash, then no space, slash or ^, then anything but a slash or newline, then a slash not followed by a word. */
const PRONUNCIATION_PATTERN = new RegExp(`/[^\\s^/][^/\\n]*/(?!${WORD})`, "gu");
/** Text between tags: a run of characters other than < and >, at the start or after a >. */
const TEXT_RUN = /(?<=^|>)[^<>]+/g;
/** An HTML entity, or a character of the content that looks like one of our placeholders. */
const ENTITY_OR_PLACEHOLDER = /&(#\d{1,7}|#x[0-9a-f]{1,6}|[a-z][a-z0-9]*);|[\uE000-\uE003\u{F0000}-\u{10FFFF}]/giu;
const NAMED_ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00A0" };

const escapeRegExp = (text: string) => text.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");

/**
 * The pattern source of a stem (Appendix A.2), or undefined when nothing is left to match.
 * Long stems and suffix stems match word by word, ignoring articles and hyphens between them;
 * short stems match whole words only (whole numbers for digits).
 */
export function stemPattern(stem: string, suffix: boolean): string | undefined {
  let body: string;
  if (lengthOf(stem) >= 4 || suffix) {
    const tokens = stem.split(/[\s-]+/u).filter((token) => token !== "" && !ARTICLES.includes(token));
    if (tokens.length === 0) return undefined;
    body = tokens.map(escapeRegExp).join(CONNECTOR);
  } else if (/^\p{Nd}+$/u.test(stem)) {
    body = `(?<!\\p{Nd})${escapeRegExp(stem)}(?!\\p{Nd})`;
  } else if (stem !== "") {
    body = `${escapeRegExp(stem)}(?=${WORD_BOUNDARY}|${KANA_OR_HAN})`;
  } else {
    return undefined;
  }
  const prefix = suffix ? "(?<=\\S)" : `(?:${WORD_BOUNDARY}|(?<=${KANA_OR_HAN}))`;
  return prefix + body;
}

function replaceStem(text: string, stem: string, suffix: boolean, placeholder: string): string {
  const source = stemPattern(stem, suffix);
  return source === undefined ? text : text.replace(new RegExp(source, "giu"), () => placeholder);
}

/** The first three quarters of the stem (rounded as the reference does), in characters. */
function partialStem(stem: string): string {
  const chars = Array.from(stem);
  return chars.slice(0, Math.floor(((chars.length + 1) * 3) / 4)).join("");
}

function hideTitle(text: string, titles: TitleFragment[], subtitles: TitleFragment[]): string {
  let result = text;
  for (const f of titles) result = replaceStem(result, f.stem, f.suffix, FULL);
  for (const f of titles) result = replaceStem(result, partialStem(f.stem), f.suffix, PARTIAL);
  for (const f of subtitles) result = replaceStem(result, f.stem, f.suffix, SUBTITLE);
  return result;
}

/**
 * Decodes the entities of a text run so that titles match what the reader sees. Unknown entities,
 * and content characters equal to a placeholder (as numeric entities), are kept aside.
 */
function decodeEntities(run: string, kept: string[]): string {
  const keep = (text: string) => String.fromCodePoint(KEPT_BASE + kept.push(text) - 1);
  return run.replace(ENTITY_OR_PLACEHOLDER, (entity, name: string | undefined) => {
    if (name === undefined) return keep(`&#x${entity.codePointAt(0)!.toString(16)};`);
    if (!name.startsWith("#")) return NAMED_ENTITIES[name.toLowerCase()] ?? keep(entity);
    const code = /^#x/i.test(name) ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
    const usable = code > 0 && code < KEPT_BASE && !(code >= 0xd800 && code <= 0xdfff) && !(code >= 0xe000 && code <= 0xe003);
    return usable ? String.fromCodePoint(code) : keep(entity);
  });
}

const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

function clozeRun(run: string, titles: TitleFragment[], subtitles: TitleFragment[]): string {
  const kept: string[] = [];
  const text = decodeEntities(run, kept).replace(PRONUNCIATION_PATTERN, () => PRONUNCIATION);
  return escapeHtml(hideTitle(text, titles, subtitles))
    .replace(PLACEHOLDERS, (placeholder) => {
      switch (placeholder) {
        case FULL:
          return CLOZE_MARKS.full;
        case PARTIAL:
          return CLOZE_MARKS.partial;
        case SUBTITLE:
          return CLOZE_MARKS.subtitle;
        default:
          return CLOZE_MARKS.pronunciation;
      }
    })
    .replace(KEPT, (slot) => kept[slot.codePointAt(0)! - KEPT_BASE] ?? "");
}

/**
 * Hides the note title (and pronunciations) in HTML, touching only the text between tags.
 * Every replacement is done with functions, so `$` in the content is kept as it is.
 */
export function clozeHtml(html: string, title: string): string {
  const { titles, subtitles } = titleParts(title.replace(PLACEHOLDERS, "").replace(KEPT, ""));
  return html.replace(TEXT_RUN, (run) => clozeRun(run, titles, subtitles));
}
