/**
 * Literal search on SQLite: the trigram FTS5 indexes (notes_title_fts, notes_fts, kept by
 * triggers), LIKE for words too short for them, and the title index for a key of one short word.
 * The hits are ranked in JavaScript (literal-ranking.ts); bm25() only when too many notes match.
 * Queries run through bun:sqlite's statement cache (sqlite-statements.ts): search is a hot path.
 */
import { SQLiteError } from "bun:sqlite";
import { type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Session, Step } from "../session";
import { cachedAll, compiledOnce } from "../sqlite-statements";
import {
  asciiLower,
  characterCount,
  DETAILS_HEAD_LENGTH,
  DETAILS_RANKED_HERE,
  equalsKey,
  literalDistance,
  type NoteTextRow,
  prefixUpperBound,
  rankByRelevance,
  SEARCH_LIMIT,
  type SearchHit,
  type SearchScope,
} from "./literal-ranking";

/** Shortest word the trigram index can look up; shorter words are matched with LIKE. */
const TRIGRAM = 3;

const likePattern = (word: string) => `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const ftsPhrase = (word: string) => `"${word.replaceAll('"', '""')}"`;

interface Row {
  id: number;
  tier: number;
  score: number;
}

/** LIKE conditions: every short word in one of the columns. */
function shortWordsIn(words: string[], columns: SQLiteColumn[]): SQL {
  return sql.join(
    words.map((word) => {
      const pattern = likePattern(word);
      return sql` AND (${sql.join(
        columns.map((column) => sql`${column} LIKE ${pattern} ESCAPE '\\'`),
        sql` OR `,
      )})`;
    }),
  );
}

/** The scope's readable notes. ("+" keeps SQLite from using the target_note_id index: the notebook index is the selective one.) */
function inScope(s: Session, scope: SearchScope, excluded: number[] = []): SQL {
  const n = s.t.notes;
  return sql`${n.notebookId} IN (SELECT value FROM json_each(${JSON.stringify(scope.notebookIds)}))
    AND ${n.deletedAt} IS NULL AND +${n.targetNoteId} IS NULL
    AND ${n.id} NOT IN (SELECT value FROM json_each(${JSON.stringify([scope.excludeNoteId ?? -1, ...excluded])}))`;
}

function* ranked(s: Session, query: SQL): Step<SearchHit[]> {
  const rows = yield* cachedAll<Row>(s, query);
  return rows.map((row) => ({ noteId: row.id, distance: literalDistance(row.tier, -row.score) }));
}

/**
 * Finds notes whose title or details contain every word of the key (substrings, any case),
 * through the trigram indexes (notes_title_fts, then notes_fts); words under 3 characters are
 * checked with LIKE on the candidates, and a key made only of such words scans the scope's notes
 * with LIKE. Deleted notes and link notes are never found. At most SEARCH_LIMIT hits, closest first.
 * `key` is trimmed and not empty.
 *
 * Titles are searched first, in an index of titles alone; the details are searched only when
 * fewer than SEARCH_LIMIT titles match (indexedSearch).
 */
export function* literalSearch(s: Session, scope: SearchScope, key: string): Step<SearchHit[]> {
  if (!key || scope.notebookIds.length === 0) return [];
  const n = s.t.notes;
  const words = [...new Set(key.split(/\s+/))];
  const indexed = words.filter((word) => [...word].length >= TRIGRAM);
  const short = words.filter((word) => [...word].length < TRIGRAM);
  // Without the index: every word checked with LIKE over the scope's notes.
  function* scan(): Step<SearchHit[]> {
    const inTitle = sql.join(
      words.map((word) => sql`${n.title} LIKE ${likePattern(word)} ESCAPE '\\'`),
      sql` AND `,
    );
    return yield* ranked(
      s,
      sql`SELECT ${n.id}, CASE WHEN lower(trim(${n.title})) = lower(${key}) THEN 0 WHEN ${inTitle} THEN 1 ELSE 2 END AS tier, 0.0 AS score
      FROM ${n} WHERE ${inScope(s, scope)} ${shortWordsIn(words, [n.title, n.details])}
      ORDER BY tier, length(${n.title}), ${n.id} LIMIT ${SEARCH_LIMIT}`,
    );
  }

  if (indexed.length === 0) {
    if (words.length > 1) return yield* scan();
    // One short word (someone starts typing): titles that start with it, through the
    // (notebook, title) index, stop the search once they fill the page; only then are the
    // other titles and the details scanned for it.
    const prefixed = yield* titlePrefixSearch(s, scope, key);
    if (prefixed.length >= SEARCH_LIMIT) return prefixed;
    const found = new Set(prefixed.map((hit) => hit.noteId));
    return [...prefixed, ...(yield* scan()).filter((hit) => !found.has(hit.noteId))].slice(0, SEARCH_LIMIT);
  }
  try {
    return yield* indexedSearch(s, scope, key, indexed, short);
  } catch (error) {
    // A key FTS5 still refuses (its query syntax) is answered by the plain scan, never an error.
    if (error instanceof SQLiteError) return yield* scan();
    throw error;
  }
}

/**
 * Searchable notes of the given notebooks (undeleted, not links, the conditions of the partial
 * index notes_searchable_title) with their title and the head of their details (DETAILS_HEAD_LENGTH
 * characters: details can be 100,000 characters, and copying them costs more than the index
 * seek): `ids` is the notebooks' ids as a JSON array.
 */
function searchableTitles(s: Session): SQL {
  const n = s.t.notes;
  return sql`SELECT ${n.id}, ${n.title}, substr(${n.details}, 1, ${sql.raw(String(DETAILS_HEAD_LENGTH))}) AS details
  FROM ${n} INDEXED BY notes_searchable_title
  WHERE ${n.notebookId} IN (SELECT value FROM json_each(${sql.placeholder("ids")})) AND ${n.deletedAt} IS NULL AND ${n.targetNoteId} IS NULL`;
}

/**
 * Titles starting with the key, in the scope, through notes_searchable_title (a range per
 * notebook): the titles equal to the key (an index seek per notebook) and the first page of titles
 * starting with it in index order (the range scan stops there), ranked here exact first, then
 * shorter, then by id. A common prefix never reads more than a page of notes, and the hits carry
 * their text, so presenting them reads nothing more. Two statements compiled once (someone typing
 * sends one search per key stroke); the ranking is done in JavaScript, as SQLite would order them
 * (lower() and NOCASE fold ASCII letters only).
 */
function* titlePrefixSearch(s: Session, scope: SearchScope, key: string): Step<SearchHit[]> {
  const n = s.t.notes;
  const excluded = scope.excludeNoteId;
  const ids = JSON.stringify(scope.notebookIds);
  const exactRows = compiledOnce<NoteTextRow>(
    s,
    "literal:title-equals",
    () => sql`${searchableTitles(s)} AND ${n.title} = ${sql.placeholder("key")} COLLATE NOCASE`,
  )({ ids, key });
  // One more than a page when a note is left out, so the page stays full. The limit is written in
  // the statement (one per page size), not bound: a bound LIMIT made the range scan ~40 % slower.
  const limit = SEARCH_LIMIT + (excluded === undefined ? 0 : 1);
  const rangeRows = compiledOnce<NoteTextRow>(
    s,
    `literal:title-range:${limit}`,
    () => sql`${searchableTitles(s)} AND ${n.title} >= ${sql.placeholder("from")} COLLATE NOCASE
      AND ${n.title} < ${sql.placeholder("to")} COLLATE NOCASE LIMIT ${sql.raw(String(limit))}`,
  )({ ids, from: asciiLower(key), to: prefixUpperBound(key) });
  const lowerKey = asciiLower(key);
  const seen = new Set<number>();
  const ranking: { row: NoteTextRow; tier: number; length: number }[] = [];
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
      ranking.push({ row, tier: equalsKey(row.title, lowerKey) ? 0 : 1, length: characterCount(row.title) });
    }
  }
  ranking.sort((a, b) => a.tier - b.tier || a.length - b.length || a.row.id - b.row.id);
  return ranking.slice(0, SEARCH_LIMIT).map(({ row, tier }) => ({
    noteId: row.id,
    distance: literalDistance(tier, 0),
    text: { title: row.title, details: row.details, detailsHead: true },
  }));
}

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
function* indexedSearch(s: Session, scope: SearchScope, key: string, indexed: string[], short: string[]): Step<SearchHit[]> {
  const n = s.t.notes;
  const phrases = indexed.map(ftsPhrase).join(" AND ");
  const words = [...indexed, ...short].map((word) => word.toLowerCase());
  // The trigram index drives each query (CROSS JOIN keeps it the outer loop).
  const titleRows = yield* cachedAll<Omit<NoteTextRow, "details">>(
    s,
    sql`SELECT ${n.id}, ${n.title}
    FROM notes_title_fts CROSS JOIN ${n} ON ${n.id} = notes_title_fts.rowid
    WHERE notes_title_fts MATCH ${phrases} AND ${inScope(s, scope)} ${shortWordsIn(short, [n.title])}`,
  );
  const lowerKey = asciiLower(key);
  const titleHits = rankByRelevance(
    titleRows.map((row) => ({ ...row, details: "", tier: equalsKey(row.title, lowerKey) ? 0 : 1 })),
    words,
  ).slice(0, SEARCH_LIMIT);
  if (titleHits.length >= SEARCH_LIMIT) return titleHits;

  const wanted = SEARCH_LIMIT - titleHits.length;
  const matching = (select: SQL) => sql`SELECT ${select}
    FROM notes_fts CROSS JOIN ${n} ON ${n.id} = notes_fts.rowid
    WHERE notes_fts MATCH ${phrases}
      AND ${inScope(
        s,
        scope,
        titleHits.map((hit) => hit.noteId),
      )} ${shortWordsIn(short, [n.title, n.details])}`;
  const texts = yield* cachedAll<NoteTextRow>(s, sql`${matching(sql`${n.id}, ${n.title}, ${n.details}`)} LIMIT ${DETAILS_RANKED_HERE + 1}`);
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
  const detailHits = yield* ranked(
    s,
    sql`${matching(sql`${n.id}, 2 AS tier, bm25(notes_fts, 10.0, 1.0) AS score`)}
    ORDER BY score, length(${n.title}), ${n.id} LIMIT ${wanted}`,
  );
  return [...titleHits, ...detailHits];
}
