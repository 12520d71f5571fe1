/**
 * How literal search ranks what it found, in JavaScript (the same on every database): the hits'
 * distances on the scale semantic search shares, BM25-shaped relevance, and the order SQLite's
 * NOCASE and lower() give titles (ASCII letters folded only).
 */

/** A note found by a search, and how far it is from the search key (smaller is closer). */
export interface SearchHit {
  noteId: number;
  distance: number;
  /** The note's title and details when the search read them anyway: presenting it reads nothing more. */
  text?: NoteText;
}

/** A searchable note's title and details (never a link note's). */
export interface NoteText {
  title: string;
  details: string;
  /**
   * True when `details` may be only the details' first DETAILS_HEAD_LENGTH characters (a search
   * that reads a page of titles reads no more: a note's short details come from its first words).
   */
  detailsHead?: boolean;
}

/** How many characters of the details a search reads with a title it presents (see NoteText). */
export const DETAILS_HEAD_LENGTH = 60;

/** A note's id with its text, as the passes that read it answer. */
export type NoteTextRow = { id: number } & NoteText;

/** Where a search looks: these notebooks' undeleted notes, never the excluded note. */
export interface SearchScope {
  notebookIds: readonly number[];
  excludeNoteId?: number;
}

/** Most results one search answers. */
export const SEARCH_LIMIT = 30;

/**
 * Literal distances (merged with semantic ones in the browser, so they share one scale):
 *   0            the title equals the key (case-insensitive, ignoring surrounding spaces)
 *   0.100-0.199  the title contains every word of the key
 *   0.300-0.399  the words are found in the details (or partly in the title)
 * Within a band, the more relevant note (`relevance`: BM25-shaped, title weighted 10, details 1)
 * gives the smaller distance: band + 0.099 / (1 + relevance). Semantic distances are cosine
 * distances (0 = same direction), so a good semantic match (< 0.3) ranks above details-only matches.
 */
export const TITLE_BAND = 0.1;
export const DETAILS_BAND = 0.3;
const BAND_WIDTH = 0.099;

/**
 * Most details hits ranked here from their text (BM25's shape, see `relevance`); when more notes
 * match only in their details, FTS5's bm25() ranks them.
 */
export const DETAILS_RANKED_HERE = 2000;

/** Lower case for ASCII letters only, as NOCASE compares. */
export const asciiLower = (text: string) => text.replace(/[A-Z]/g, (c) => c.toLowerCase());

/**
 * The first character after every string that starts with `prefix` in the NOCASE order (which
 * folds ASCII letters only, like LIKE): titles in [prefix, upper) are the ones starting with it.
 */
export function prefixUpperBound(prefix: string): string {
  const lower = asciiLower(prefix);
  const last = lower.codePointAt(lower.length - 1)!;
  const head = lower.slice(0, lower.length - String.fromCodePoint(last).length);
  return head + String.fromCodePoint(last + 1);
}

/** SQLite's trim() (spaces only) and length() (characters, not UTF-16 units), for ranking in JS. */
const trimSpaces = (text: string) => text.replace(/^ +| +$/g, "");
export function characterCount(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0xdc00 || unit > 0xdfff) count++;
  }
  return count;
}

/** lower(trim(title)) = lower(key) as SQLite computes it, without a regular expression for most titles. */
export function equalsKey(title: string, lowerKey: string): boolean {
  if (title.length < lowerKey.length) return false;
  if (title.length > lowerKey.length && title.charCodeAt(0) !== 32 && title.charCodeAt(title.length - 1) !== 32) return false;
  return asciiLower(trimSpaces(title)) === lowerKey;
}

/**
 * Hits of one pass ranked: by tier, then relevance (higher first), then shorter title, then id.
 * `withText`: the rows hold the notes' details (not only their titles), and the hits carry them.
 */
export function rankByRelevance(
  rows: { id: number; title: string; details: string; tier: number }[],
  words: string[],
  withText = false,
): SearchHit[] {
  const lengths = rows.map((row) => row.title.length + row.details.length);
  const averageLength = lengths.reduce((sum, length) => sum + length, 0) / (rows.length || 1);
  return rows
    .map((row, i) => ({ row, score: relevance(row, words, lengths[i]! / (averageLength || 1)), titleLength: characterCount(row.title) }))
    .sort((a, b) => a.row.tier - b.row.tier || b.score - a.score || a.titleLength - b.titleLength || a.row.id - b.row.id)
    .map(({ row, score }) => ({ noteId: row.id, distance: literalDistance(row.tier, score), ...(withText && { text: row }) }));
}

/** How often `word` occurs in `text`, overlapping occurrences included (as trigram phrase hits are). */
function occurrences(text: string, word: string): number {
  let count = 0;
  for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) count++;
  return count;
}

/** BM25's k1 and b, as FTS5's bm25() uses them. */
const K1 = 1.2;
const B = 0.75;
/** A word in the title counts as much as this many in the details (as bm25(notes_fts, 10.0, 1.0)). */
const TITLE_WEIGHT = 10;

/**
 * How well a note's text matches the key's (lower-case) words, 0 or more: BM25's term-frequency
 * part summed over the words, each word's title occurrences weighted 10, details 1, saturating with
 * more occurrences and discounted in longer notes (relativeLength: this note's length over the
 * average of the notes ranked with it). Words are counted in the lower-cased text, so a hit the
 * index found under another case folding may count 0; it is still listed.
 */
export function relevance(note: { title: string; details: string }, words: string[], relativeLength: number): number {
  const title = note.title.toLowerCase();
  const details = note.details.toLowerCase();
  const norm = K1 * (1 - B + B * relativeLength);
  let score = 0;
  for (const word of words) {
    const frequency = TITLE_WEIGHT * occurrences(title, word) + (details ? occurrences(details, word) : 0);
    score += (frequency * (K1 + 1)) / (frequency + norm);
  }
  return score;
}

/**
 * The distance of a literal hit from its tier (0 exact title, 1 title, 2 details) and its relevance
 * (0 or more: `relevance`, or -bm25 where FTS5 ranked it).
 */
export function literalDistance(tier: number, relevance: number): number {
  if (tier === 0) return 0;
  const band = tier === 1 ? TITLE_BAND : DETAILS_BAND;
  return band + BAND_WIDTH / (1 + Math.max(0, relevance));
}
