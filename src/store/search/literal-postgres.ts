/**
 * Literal search on PostgreSQL, the twin of literal-sqlite.ts with the same passes and the same
 * ranking (literal-ranking.ts): `ILIKE '%word%'` over titles and details, which the pg_trgm GIN
 * indexes on notes.title and notes.details answer for words of 3 characters or more (as FTS5's
 * trigram indexes do on SQLite). What differs:
 *   - ILIKE and lower() fold every letter's case; SQLite's LIKE and NOCASE fold ASCII letters only
 *     (its trigram index folds every letter), so keys of one or two non-ASCII letters find more here;
 *   - a key of one short word reads the titles starting with it as SQLite's NOCASE title index
 *     orders them (ASCII letters folded, then byte order: `translate(...) COLLATE "C"`), so the
 *     same page is read; the trigram index serves the `ILIKE 'key%'` that narrows them first;
 *   - more than DETAILS_RANKED_HERE details hits are ordered by the words' mentions per length of
 *     the details (FTS5's bm25() has no twin here; it too ranks more mentions first); the first
 *     DETAILS_RANKED_HERE are ranked in JavaScript, as on SQLite.
 */
import { and, isNull, notInArray, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { inIds, rawAll, type Session, type Step } from "../session";
import {
  asciiLower,
  characterCount,
  DETAILS_RANKED_HERE,
  equalsKey,
  literalDistance,
  type NoteTextRow,
  rankByRelevance,
  SEARCH_LIMIT,
  type SearchHit,
  type SearchScope,
} from "./literal-ranking";

/** Shortest word the trigram indexes can look up (shorter ones are checked on the candidates). */
const TRIGRAM = 3;

const escapeLike = (word: string) => word.replace(/[\\%_]/g, (c) => `\\${c}`);
const containing = (word: string) => `%${escapeLike(word)}%`;

/** `column ILIKE '%word%'` (backslash escapes the pattern's own % and _). */
const contains = (column: SQLiteColumn, word: string) => sql`${column} ILIKE ${containing(word)} ESCAPE '\\'`;

/** Every word in one of the columns. */
function everyWordIn(words: string[], columns: SQLiteColumn[]): SQL {
  if (words.length === 0) return sql`TRUE`;
  return sql.join(
    words.map(
      (word) =>
        sql`(${sql.join(
          columns.map((column) => contains(column, word)),
          sql` OR `,
        )})`,
    ),
    sql` AND `,
  );
}

/** The scope's searchable notes: its notebooks' undeleted notes, not links, not the excluded ones. */
function inScope(s: Session, scope: SearchScope, excluded: number[] = []): SQL {
  const n = s.t.notes;
  return and(
    inIds(s, n.notebookId, scope.notebookIds),
    isNull(n.deletedAt),
    isNull(n.targetNoteId),
    notInArray(n.id, [scope.excludeNoteId ?? -1, ...excluded]),
  )!;
}

/** See literal-sqlite.ts's literalSearch: the same answers, through the trigram GIN indexes. */
export function* literalSearch(s: Session, scope: SearchScope, key: string): Step<SearchHit[]> {
  if (!key || scope.notebookIds.length === 0) return [];
  const n = s.t.notes;
  const words = [...new Set(key.split(/\s+/))];
  const indexed = words.filter((word) => [...word].length >= TRIGRAM);
  const short = words.filter((word) => [...word].length < TRIGRAM);
  // Every word checked over the scope's notes: exact titles, then titles holding every word, then the rest.
  function* scan(): Step<SearchHit[]> {
    const rows = yield* rawAll<{ id: number; tier: number }>(
      s,
      sql`SELECT ${n.id} AS id,
        CASE WHEN lower(trim(${n.title})) = lower(${key}) THEN 0 WHEN ${everyWordIn(words, [n.title])} THEN 1 ELSE 2 END AS tier
      FROM ${n} WHERE ${inScope(s, scope)} AND ${everyWordIn(words, [n.title, n.details])}
      ORDER BY tier, length(${n.title}), ${n.id} LIMIT ${SEARCH_LIMIT}`,
    );
    return rows.map((row) => ({ noteId: row.id, distance: literalDistance(row.tier, 0) }));
  }

  if (indexed.length === 0) {
    if (words.length > 1) return yield* scan();
    const prefixed = yield* titlePrefixSearch(s, scope, key);
    if (prefixed.length >= SEARCH_LIMIT) return prefixed;
    const found = new Set(prefixed.map((hit) => hit.noteId));
    return [...prefixed, ...(yield* scan()).filter((hit) => !found.has(hit.noteId))].slice(0, SEARCH_LIMIT);
  }
  return yield* indexedSearch(s, scope, key, indexed, short);
}

/** Lower case for ASCII letters only, in SQL: the order of SQLite's NOCASE titles. */
const ASCII_UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const nocase = (column: SQLiteColumn) => sql`translate(${column}, ${ASCII_UPPER}, ${ASCII_UPPER.toLowerCase()}) COLLATE "C"`;

/**
 * Titles starting with the key, in the scope: those equal to it and the first page of the others
 * in the order of SQLite's title index (notebook, title folded as NOCASE folds it, id), ranked
 * here as on SQLite (exact first, then shorter, then by id); the hits carry their text.
 */
function* titlePrefixSearch(s: Session, scope: SearchScope, key: string): Step<SearchHit[]> {
  const n = s.t.notes;
  const columns = sql`${n.id} AS id, ${n.title} AS title, ${n.details} AS details`;
  const rows = yield* rawAll<NoteTextRow>(
    s,
    sql`(SELECT ${columns} FROM ${n} WHERE ${inScope(s, scope)} AND ${nocase(n.title)} = ${asciiLower(key)})
      UNION
      (SELECT ${columns} FROM ${n} WHERE ${inScope(s, scope)} AND ${n.title} ILIKE ${`${escapeLike(key)}%`} ESCAPE '\\'
         AND left(${nocase(n.title)}, ${[...key].length}) = ${asciiLower(key)}
       ORDER BY ${n.notebookId}, ${nocase(n.title)}, ${n.id} LIMIT ${SEARCH_LIMIT})`,
  );
  const lowerKey = asciiLower(key);
  return rows
    .map((row) => ({ row, tier: equalsKey(row.title, lowerKey) ? 0 : 1, length: characterCount(row.title) }))
    .sort((a, b) => a.tier - b.tier || a.length - b.length || a.row.id - b.row.id)
    .slice(0, SEARCH_LIMIT)
    .map(({ row, tier }) => ({ noteId: row.id, distance: literalDistance(tier, 0), text: row }));
}

/**
 * The two passes of literal-sqlite.ts's indexedSearch: titles holding every word (ranked here; a
 * page of them ends the search), then notes holding every word in their title or details, ranked
 * here from their texts up to DETAILS_RANKED_HERE of them.
 */
function* indexedSearch(s: Session, scope: SearchScope, key: string, indexed: string[], short: string[]): Step<SearchHit[]> {
  const n = s.t.notes;
  const words = [...indexed, ...short].map((word) => word.toLowerCase());
  const titleRows = yield* rawAll<Omit<NoteTextRow, "details">>(
    s,
    sql`SELECT ${n.id} AS id, ${n.title} AS title FROM ${n}
    WHERE ${inScope(s, scope)} AND ${everyWordIn([...indexed, ...short], [n.title])}`,
  );
  const lowerKey = asciiLower(key);
  const titleHits = rankByRelevance(
    titleRows.map((row) => ({ ...row, details: "", tier: equalsKey(row.title, lowerKey) ? 0 : 1 })),
    words,
  ).slice(0, SEARCH_LIMIT);
  if (titleHits.length >= SEARCH_LIMIT) return titleHits;

  const wanted = SEARCH_LIMIT - titleHits.length;
  const matching = sql`${inScope(
    s,
    scope,
    titleHits.map((hit) => hit.noteId),
  )} AND ${everyWordIn([...indexed, ...short], [n.title, n.details])}`;
  const texts = yield* rawAll<NoteTextRow>(
    s,
    sql`SELECT ${n.id} AS id, ${n.title} AS title, ${n.details} AS details FROM ${n} WHERE ${matching} LIMIT ${DETAILS_RANKED_HERE + 1}`,
  );
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
  // FTS5's bm25() has no twin here: the words' mentions in the details, per 100 characters of
  // them, rank the page (more mentions first, as bm25 ranks them), then shorter titles.
  const mentions = sql.join(
    words.map((word) => sql`(length(lower(${n.details})) - length(replace(lower(${n.details}), ${word}, ''))) / ${word.length}`),
    sql` + `,
  );
  const rows = yield* rawAll<{ id: number; score: number }>(
    s,
    sql`SELECT ${n.id} AS id, (${mentions}) * 100.0 / greatest(length(${n.details}), 1) AS score
    FROM ${n} WHERE ${matching} ORDER BY score DESC, length(${n.title}), ${n.id} LIMIT ${wanted}`,
  );
  return [...titleHits, ...rows.map((row) => ({ noteId: row.id, distance: literalDistance(2, Number(row.score)) }))];
}
