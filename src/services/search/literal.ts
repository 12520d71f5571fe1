import { SQLiteError } from "bun:sqlite";
import type { AppContext } from "../../context";
import { stripControlCharacters } from "../text-input";
import type { SearchScope } from "./scope";

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
}

/** A note's id with its text, as the passes that read it answer. */
type NoteTextRow = { id: number } & NoteText;

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

/** Shortest word the trigram index can look up; shorter words are matched with LIKE. */
const TRIGRAM = 3;

const likePattern = (word: string) => `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const ftsPhrase = (word: string) => `"${word.replaceAll('"', '""')}"`;

interface Row {
  id: number;
  tier: number;
  score: number;
}

/** Builds one query's SQL with numbered parameters. */
class Sql {
  readonly params: (string | number)[] = [];
  param(value: string | number) {
    this.params.push(value);
    return `?${this.params.length}`;
  }
}

/** LIKE conditions: every short word in one of the columns. */
function shortWordsIn(sql: Sql, words: string[], columns: string[]): string {
  return words
    .map((word) => {
      const pattern = sql.param(likePattern(word));
      return `AND (${columns.map((column) => `${column} LIKE ${pattern} ESCAPE '\\'`).join(" OR ")})`;
    })
    .join(" ");
}

/** The scope's readable notes. ("+" keeps SQLite from using the target_note_id index: the notebook index is the selective one.) */
function inScope(sql: Sql, scope: SearchScope, excluded: number[] = []): string {
  return `n.notebook_id IN (SELECT value FROM json_each(${sql.param(JSON.stringify(scope.notebookIds))}))
    AND n.deleted_at IS NULL AND +n.target_note_id IS NULL
    AND n.id NOT IN (SELECT value FROM json_each(${sql.param(JSON.stringify([scope.excludeNoteId ?? -1, ...excluded]))}))`;
}

/**
 * Finds notes whose title or details contain every word of the key (substrings, any case),
 * through the trigram indexes (notes_title_fts, then notes_fts); words under 3 characters are
 * checked with LIKE on the candidates, and a key made only of such words scans the scope's notes
 * with LIKE. Deleted notes and link notes are never found. At most SEARCH_LIMIT hits, closest first.
 *
 * Titles are searched first, in an index of titles alone; the details are searched only when
 * fewer than SEARCH_LIMIT titles match (indexedSearch).
 */
export function literalSearch(ctx: AppContext, scope: SearchScope, searchKey: string): SearchHit[] {
  const key = stripControlCharacters(searchKey).trim();
  if (!key || scope.notebookIds.length === 0) return [];
  const words = [...new Set(key.split(/\s+/))];
  const indexed = words.filter((word) => [...word].length >= TRIGRAM);
  const short = words.filter((word) => [...word].length < TRIGRAM);
  const run = (sql: Sql, text: string) =>
    ctx.sqlite
      .query<Row, (string | number)[]>(text)
      .all(...sql.params)
      .map((row) => ({
        noteId: row.id,
        distance: literalDistance(row.tier, -row.score),
      }));
  // Without the index: every word checked with LIKE over the scope's notes.
  const scan = () => {
    const sql = new Sql();
    const exact = sql.param(key);
    const inTitle = words.map((word) => `n.title LIKE ${sql.param(likePattern(word))} ESCAPE '\\'`).join(" AND ");
    return run(
      sql,
      `SELECT n.id, CASE WHEN lower(trim(n.title)) = lower(${exact}) THEN 0 WHEN ${inTitle} THEN 1 ELSE 2 END AS tier, 0.0 AS score
      FROM notes n WHERE ${inScope(sql, scope)} ${shortWordsIn(sql, words, ["n.title", "n.details"])}
      ORDER BY tier, length(n.title), n.id LIMIT ${SEARCH_LIMIT}`,
    );
  };

  if (indexed.length === 0) {
    if (words.length > 1) return scan();
    // One short word (someone starts typing): titles that start with it, through the
    // (notebook, title) index, stop the search once they fill the page; only then are the
    // other titles and the details scanned for it.
    const prefixed = titlePrefixSearch(ctx, scope, key);
    if (prefixed.length >= SEARCH_LIMIT) return prefixed;
    const found = new Set(prefixed.map((hit) => hit.noteId));
    return [...prefixed, ...scan().filter((hit) => !found.has(hit.noteId))].slice(0, SEARCH_LIMIT);
  }
  try {
    return indexedSearch(run, ctx, scope, key, indexed, short);
  } catch (error) {
    // A key FTS5 still refuses (its query syntax) is answered by the plain scan, never an error.
    if (error instanceof SQLiteError) return scan();
    throw error;
  }
}

/** Lower case for ASCII letters only, as NOCASE compares. */
const asciiLower = (text: string) => text.replace(/[A-Z]/g, (c) => c.toLowerCase());

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
function characterCount(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0xdc00 || unit > 0xdfff) count++;
  }
  return count;
}

/** lower(trim(title)) = lower(key) as SQLite computes it, without a regular expression for most titles. */
function equalsKey(title: string, lowerKey: string): boolean {
  if (title.length < lowerKey.length) return false;
  if (title.length > lowerKey.length && title.charCodeAt(0) !== 32 && title.charCodeAt(title.length - 1) !== 32) return false;
  return asciiLower(trimSpaces(title)) === lowerKey;
}

/** Searchable notes of the scope's notebooks (undeleted, not links): the conditions of the partial index notes_searchable_title. */
const SEARCHABLE_TITLES = `SELECT id, title, details FROM notes INDEXED BY notes_searchable_title
  WHERE notebook_id IN (SELECT value FROM json_each(?1)) AND deleted_at IS NULL AND target_note_id IS NULL`;

/**
 * Titles starting with the key, in the scope, through notes_searchable_title (a range per
 * notebook): the titles equal to the key (an index seek per notebook) and the first page of titles
 * starting with it in index order (the range scan stops there), ranked here exact first, then
 * shorter, then by id. A common prefix never reads more than a page of notes, and the hits carry
 * their text, so presenting them reads nothing more. Two prepared statements; the ranking is done
 * in JavaScript, as SQLite would order them (lower() and NOCASE fold ASCII letters only).
 */
function titlePrefixSearch(ctx: AppContext, scope: SearchScope, key: string): SearchHit[] {
  const notebooks = JSON.stringify(scope.notebookIds);
  const excluded = scope.excludeNoteId;
  const exactRows = ctx.sqlite
    .query<NoteTextRow, [string, string]>(`${SEARCHABLE_TITLES} AND title = ?2 COLLATE NOCASE`)
    .all(notebooks, key);
  // One more than a page when a note is left out, so the page stays full.
  const rangeRows = ctx.sqlite
    .query<NoteTextRow, [string, string, string, number]>(
      `${SEARCHABLE_TITLES} AND title >= ?2 COLLATE NOCASE AND title < ?3 COLLATE NOCASE LIMIT ?4`,
    )
    .all(notebooks, asciiLower(key), prefixUpperBound(key), SEARCH_LIMIT + (excluded === undefined ? 0 : 1));
  const lowerKey = asciiLower(key);
  const seen = new Set<number>();
  const ranked: { row: NoteTextRow; tier: number; length: number }[] = [];
  let pageLeft = SEARCH_LIMIT;
  for (const [rows, paged] of [
    [exactRows, false],
    [rangeRows, true],
  ] as const) {
    for (const row of rows) {
      if (row.id === excluded) continue;
      if (paged && pageLeft-- <= 0) break;
      if (seen.has(row.id)) continue;
      seen.add(row.id);
      ranked.push({ row, tier: equalsKey(row.title, lowerKey) ? 0 : 1, length: characterCount(row.title) });
    }
  }
  ranked.sort((a, b) => a.tier - b.tier || a.length - b.length || a.row.id - b.row.id);
  return ranked.slice(0, SEARCH_LIMIT).map(({ row, tier }) => ({ noteId: row.id, distance: literalDistance(tier, 0), text: row }));
}

/**
 * Most details hits ranked here from their text (BM25's shape, see `relevance`); when more notes
 * match only in their details, FTS5's bm25() ranks them.
 */
export const DETAILS_RANKED_HERE = 2000;

/**
 * The search through the trigram indexes, in two passes:
 *   1. titles, through notes_title_fts (titles only: about an eighth of the postings of notes_fts):
 *      every title holding every word, ranked here (exact title, then relevance, shorter, id).
 *      A page full of titles ends the search.
 *   2. otherwise details, through notes_fts: the matching notes (up to DETAILS_RANKED_HERE + 1, in
 *      index order, no ranking) ranked here from their texts; more than that are ranked by bm25().
 * Neither pass calls bm25() for a page it can rank itself: bm25() reads every word's whole posting
 * list once more to weigh the words (its inverse document frequency), which cost more than the
 * search. Every hit holds every word, so that weighing changes little.
 */
function indexedSearch(
  run: (sql: Sql, text: string) => SearchHit[],
  ctx: AppContext,
  scope: SearchScope,
  key: string,
  indexed: string[],
  short: string[],
): SearchHit[] {
  const phrases = indexed.map(ftsPhrase).join(" AND ");
  const words = [...indexed, ...short].map((word) => word.toLowerCase());
  // The trigram index drives each query (CROSS JOIN keeps it the outer loop).
  const titles = new Sql();
  const titleRows = ctx.sqlite
    .query<Omit<NoteTextRow, "details">, (string | number)[]>(`SELECT n.id, n.title
    FROM notes_title_fts CROSS JOIN notes n ON n.id = notes_title_fts.rowid
    WHERE notes_title_fts MATCH ${titles.param(phrases)} AND ${inScope(titles, scope)} ${shortWordsIn(titles, short, ["n.title"])}`)
    .all(...titles.params);
  const lowerKey = asciiLower(key);
  const titleHits = rankByRelevance(
    titleRows.map((row) => ({ ...row, details: "", tier: equalsKey(row.title, lowerKey) ? 0 : 1 })),
    words,
  ).slice(0, SEARCH_LIMIT);
  if (titleHits.length >= SEARCH_LIMIT) return titleHits;

  const wanted = SEARCH_LIMIT - titleHits.length;
  const matching = (select: string, sql: Sql) => `SELECT ${select}
    FROM notes_fts CROSS JOIN notes n ON n.id = notes_fts.rowid
    WHERE notes_fts MATCH ${sql.param(phrases)}
      AND ${inScope(
        sql,
        scope,
        titleHits.map((hit) => hit.noteId),
      )} ${shortWordsIn(sql, short, ["n.title", "n.details"])}`;
  const candidates = new Sql();
  const texts = ctx.sqlite
    .query<NoteTextRow, (string | number)[]>(`${matching("n.id, n.title, n.details", candidates)} LIMIT ${DETAILS_RANKED_HERE + 1}`)
    .all(...candidates.params);
  if (texts.length <= DETAILS_RANKED_HERE) {
    return [
      ...titleHits,
      ...rankByRelevance(
        texts.map((row) => ({ ...row, tier: 2 })),
        words,
        true,
      ).slice(0, wanted),
    ];
  }
  const details = new Sql();
  const detailHits = run(
    details,
    `${matching("n.id, 2 AS tier, bm25(notes_fts, 10.0, 1.0) AS score", details)}
    ORDER BY score, length(n.title), n.id LIMIT ${wanted}`,
  );
  return [...titleHits, ...detailHits];
}

/**
 * Hits of one pass ranked: by tier, then relevance (higher first), then shorter title, then id.
 * `withText`: the rows hold the notes' details (not only their titles), and the hits carry them.
 */
function rankByRelevance(
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
