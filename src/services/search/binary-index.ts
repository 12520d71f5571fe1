import type { Database } from "bun:sqlite";
import type { AppContext } from "../../context";

/**
 * The binary-quantised embeddings (note_embedding_bits, kept by triggers) of one model and
 * dimension, held in memory and grouped by notebook: a search compares the key's bits with every
 * readable note's bits by Hamming distance (XOR and popcount on 32-bit words, 32× less to read than
 * the float vectors) to pick a few hundred candidates, which the caller re-ranks by exact cosine
 * distance in SQL. Reloaded when search_index_state's counter says the table changed.
 */
interface BitsIndex {
  version: number | undefined;
  words: number;
  noteIds: Int32Array;
  bits: Uint32Array;
  /** notebook id → [first, end) rows of that notebook. */
  ranges: Map<number, [number, number]>;
}

const indexes = new WeakMap<Database, Map<string, BitsIndex>>();

/** The change counter; undefined if its row is missing (then nothing is cached). */
function bitsVersion(sqlite: Database): number | undefined {
  return sqlite.query<{ v: number }, []>("SELECT bits_version AS v FROM search_index_state WHERE id = 1").get()?.v;
}

/**
 * After emptying every table (the test reset): the counter's row again, at a value no server has
 * cached, so the copies in memory are reloaded.
 */
export function restartBinaryIndexState(ctx: AppContext) {
  ctx.sqlite.run("INSERT OR REPLACE INTO search_index_state (id, bits_version) VALUES (1, ?)", [Date.now()]);
}

function load(sqlite: Database, model: string, dimensions: number): BitsIndex {
  const words = dimensions / 32;
  // One read transaction: the counter and the rows are of the same moment.
  return sqlite.transaction(() => {
    const version = bitsVersion(sqlite);
    const rows = sqlite
      .query<{ noteId: number; notebookId: number; bits: Uint8Array }, [string, number]>(
        "SELECT note_id AS noteId, notebook_id AS notebookId, bits FROM note_embedding_bits WHERE model = ? AND dimensions = ? ORDER BY notebook_id, note_id",
      )
      .all(model, dimensions);
    const noteIds = new Int32Array(rows.length);
    const bits = new Uint32Array(rows.length * words);
    const bytes = new Uint8Array(bits.buffer);
    const ranges = new Map<number, [number, number]>();
    rows.forEach((row, i) => {
      noteIds[i] = row.noteId;
      bytes.set(row.bits.subarray(0, words * 4), i * words * 4);
      const range = ranges.get(row.notebookId);
      if (range) range[1] = i + 1;
      else ranges.set(row.notebookId, [i, i + 1]);
    });
    return { version, words, noteIds, bits, ranges };
  })();
}

/** How many times a copy was (re)loaded from note_embedding_bits, for tests. */
export let binaryIndexLoads = 0;

function cachedIndex(ctx: AppContext, model: string, dimensions: number): BitsIndex | undefined {
  const cached = indexes.get(ctx.sqlite)?.get(`${dimensions}:${model}`);
  return cached && cached.version !== undefined && cached.version === bitsVersion(ctx.sqlite) ? cached : undefined;
}

/**
 * Whether the copy in memory is current: when it is not (an embedding changed since), using it
 * means reading every row of note_embedding_bits again, which a small scope can do without.
 */
export function binaryIndexIsFresh(ctx: AppContext, model: string, dimensions: number): boolean {
  return cachedIndex(ctx, model, dimensions) !== undefined;
}

function currentIndex(ctx: AppContext, model: string, dimensions: number): BitsIndex {
  let byKey = indexes.get(ctx.sqlite);
  if (!byKey) {
    byKey = new Map();
    indexes.set(ctx.sqlite, byKey);
  }
  const key = `${dimensions}:${model}`;
  const cached = cachedIndex(ctx, model, dimensions);
  if (cached) return cached;
  binaryIndexLoads++;
  const fresh = load(ctx.sqlite, model, dimensions);
  // Searches use the current model only: a copy for a model no longer in use is not kept.
  byKey.clear();
  byKey.set(key, fresh);
  return fresh;
}

/** One bit per dimension, set when the value is positive: what vec_quantize_binary stores. */
export function quantizeBinary(vector: ArrayLike<number>): Uint32Array {
  const out = new Uint32Array(Math.ceil(vector.length / 32));
  for (let i = 0; i < vector.length; i++) if (vector[i]! > 0) out[i >>> 5]! |= 1 << (i & 31);
  return out;
}

/** Set bits of every 16-bit number: two lookups a 32-bit word are about 3× faster than the bit trick in JS. */
const POPCOUNT16 = new Uint8Array(65536);
for (let i = 1; i < 65536; i++) POPCOUNT16[i] = POPCOUNT16[i >> 1]! + (i & 1);

/** Whether the binary index can serve this dimension (sqlite-vec quantises whole bytes; we read 32-bit words). */
export function binaryIndexSupports(dimensions: number): boolean {
  return dimensions > 0 && dimensions % 32 === 0;
}

/**
 * The ids of (up to) `count` notes of these notebooks whose bits are nearest the query's by Hamming
 * distance; every note of the notebooks when they hold no more than `count`. May include notes
 * deleted or moved since: the caller's SQL checks each candidate.
 */
export function hammingCandidates(
  ctx: AppContext,
  model: string,
  query: ArrayLike<number>,
  notebookIds: readonly number[],
  count: number,
): number[] {
  const index = currentIndex(ctx, model, query.length);
  const { words, noteIds, bits } = index;
  const ranges = notebookIds.map((id) => index.ranges.get(id)).filter((r): r is [number, number] => r !== undefined);
  const total = ranges.reduce((sum, [from, to]) => sum + to - from, 0);
  if (total <= count) return ranges.flatMap(([from, to]) => Array.from(noteIds.subarray(from, to)));

  const q = quantizeBinary(query);
  const distances = new Uint16Array(total);
  const histogram = new Uint32Array(query.length + 1);
  let n = 0;
  for (const [from, to] of ranges) {
    for (let row = from, offset = from * words; row < to; row++) {
      let d = 0;
      for (let w = 0; w < words; w++, offset++) {
        const x = bits[offset]! ^ q[w]!;
        d += POPCOUNT16[x & 0xffff]! + POPCOUNT16[x >>> 16]!;
      }
      distances[n++] = d;
      histogram[d]!++;
    }
  }
  // The distance at which `count` is reached: everything nearer, then ties at it until full.
  let cut = 0;
  for (let seen = 0; seen + histogram[cut]! < count; cut++) seen += histogram[cut]!;
  const nearer: number[] = [];
  const ties: number[] = [];
  n = 0;
  for (const [from, to] of ranges) {
    for (let row = from; row < to; row++, n++) {
      if (distances[n]! < cut) nearer.push(noteIds[row]!);
      else if (distances[n] === cut) ties.push(noteIds[row]!);
    }
  }
  return nearer.concat(ties.slice(0, count - nearer.length));
}
