import type { AppContext } from "../../context";
import { instanceSlot, instanceValue } from "../../instance-state";
import type { BitsLogState, BitsRow } from "../../store/search/binary-index-store";

/**
 * The binary-quantised embeddings (note_embedding_bits, kept by triggers) of one model and
 * dimension, held in memory and grouped by notebook: a search compares the key's bits with every
 * readable note's bits by Hamming distance (XOR and popcount on 32-bit words, 32× less to read than
 * the float vectors) to pick a few hundred candidates, which the caller re-ranks by exact cosine
 * distance in SQL. Loaded whole once; after that each search first applies the changes logged
 * since (note_embedding_bits_changes: the notes whose bits were written, deleted or moved, by any
 * process), so a change costs reading that note's bits, not every note's.
 */

/** More changed notes than this since the copy's last refresh and loading whole is cheaper. */
const MAX_CHANGES_APPLIED = 20_000;

/** One notebook's rows: note ids and their bits, `words` 32-bit words a note, in no particular order. */
interface Block {
  noteIds: Int32Array;
  bits: Uint32Array;
  count: number;
}

interface BitsIndex {
  model: string;
  dimensions: number;
  words: number;
  /** The log's generation and the last change applied. */
  generation: number;
  seq: number;
  blocks: Map<number, Block>;
  /** Where each note's row is. */
  where: Map<number, { notebookId: number; row: number }>;
}

/** The copy this instance holds (of the current model and dimension only). */
const held = instanceSlot<{ index?: BitsIndex }>("binary embedding index", () => ({}));

/** How many times a copy was loaded whole, and refreshed from the log, for tests. */
export let binaryIndexLoads = 0;
export let binaryIndexRefreshes = 0;

function newBlock(words: number, capacity: number): Block {
  return { noteIds: new Int32Array(capacity), bits: new Uint32Array(capacity * words), count: 0 };
}

function put(index: BitsIndex, row: BitsRow) {
  const { words } = index;
  const known = index.where.get(row.noteId);
  if (known && known.notebookId !== row.notebookId) remove(index, row.noteId);
  let block = index.blocks.get(row.notebookId);
  if (!block) {
    block = newBlock(words, 16);
    index.blocks.set(row.notebookId, block);
  }
  let at = index.where.get(row.noteId)?.row;
  if (at === undefined) {
    if (block.count === block.noteIds.length) {
      const grown = newBlock(words, block.noteIds.length * 2);
      grown.noteIds.set(block.noteIds);
      grown.bits.set(block.bits);
      grown.count = block.count;
      index.blocks.set(row.notebookId, grown);
      block = grown;
    }
    at = block.count++;
    block.noteIds[at] = row.noteId;
    index.where.set(row.noteId, { notebookId: row.notebookId, row: at });
  }
  new Uint8Array(block.bits.buffer, at * words * 4, words * 4).set(row.bits.subarray(0, words * 4));
}

function remove(index: BitsIndex, noteId: number) {
  const known = index.where.get(noteId);
  if (!known) return;
  index.where.delete(noteId);
  const block = index.blocks.get(known.notebookId)!;
  const last = --block.count;
  if (known.row !== last) {
    // The last row takes the removed one's place.
    const moved = block.noteIds[last]!;
    block.noteIds[known.row] = moved;
    block.bits.copyWithin(known.row * index.words, last * index.words, (last + 1) * index.words);
    index.where.set(moved, { notebookId: known.notebookId, row: known.row });
  }
  if (block.count === 0) index.blocks.delete(known.notebookId);
}

function build(model: string, dimensions: number, state: BitsLogState, rows: BitsRow[]): BitsIndex {
  const index: BitsIndex = {
    model,
    dimensions,
    words: dimensions / 32,
    generation: state.generation,
    seq: state.lastSeq,
    blocks: new Map(),
    where: new Map(),
  };
  // Rows come by notebook: each block is made at its size.
  let from = 0;
  while (from < rows.length) {
    let to = from;
    while (to < rows.length && rows[to]!.notebookId === rows[from]!.notebookId) to++;
    index.blocks.set(rows[from]!.notebookId, newBlock(index.words, to - from));
    for (let i = from; i < to; i++) put(index, rows[i]!);
    from = to;
  }
  return index;
}

/**
 * Whether using the copy for this model and dimension means loading every note's bits first (none
 * is held yet): a small scope can do without it.
 */
export function binaryIndexNeedsLoad(ctx: AppContext, model: string, dimensions: number): boolean {
  const { index } = instanceValue(ctx, held);
  return !index || index.model !== model || index.dimensions !== dimensions;
}

/** The copy, current: refreshed from the changes logged since, or loaded whole. */
async function currentIndex(ctx: AppContext, model: string, dimensions: number): Promise<BitsIndex> {
  const copy = instanceValue(ctx, held);
  const index = copy.index;
  if (index && !binaryIndexNeedsLoad(ctx, model, dimensions)) {
    const refresh = await ctx.stores.binaryIndex.changesSince(index.generation, index.seq, model, dimensions, MAX_CHANGES_APPLIED);
    if (refresh.kind === "current") return index;
    if (refresh.kind === "changes") {
      if (refresh.lastSeq > index.seq) {
        for (const { noteId, row } of refresh.notes) {
          if (row) put(index, row);
          else remove(index, noteId);
        }
        index.seq = refresh.lastSeq;
        binaryIndexRefreshes++;
      }
      return index;
    }
  }
  binaryIndexLoads++;
  const { state, rows } = await ctx.stores.binaryIndex.loadAll(model, dimensions);
  // Searches use the current model only: a copy for a model no longer in use is not kept.
  const fresh = build(model, dimensions, state, rows);
  copy.index = fresh;
  return fresh;
}

/**
 * What the copy holds, brought up to date first: [note id, notebook id, bits as hex] by note id.
 * For tests comparing a refreshed copy with one loaded whole.
 */
export async function binaryIndexContents(ctx: AppContext, model: string, dimensions: number): Promise<[number, number, string][]> {
  const index = await currentIndex(ctx, model, dimensions);
  const contents: [number, number, string][] = [];
  for (const [noteId, { notebookId, row }] of index.where) {
    const block = index.blocks.get(notebookId)!;
    contents.push([noteId, notebookId, Buffer.from(block.bits.buffer, row * index.words * 4, index.words * 4).toString("hex")]);
  }
  return contents.sort((a, b) => a[0] - b[0]);
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
export async function hammingCandidates(
  ctx: AppContext,
  model: string,
  query: ArrayLike<number>,
  notebookIds: readonly number[],
  count: number,
): Promise<number[]> {
  const index = await currentIndex(ctx, model, query.length);
  const { words } = index;
  const blocks = notebookIds.map((id) => index.blocks.get(id)).filter((block): block is Block => block !== undefined);
  const total = blocks.reduce((sum, block) => sum + block.count, 0);
  if (total <= count) return blocks.flatMap((block) => Array.from(block.noteIds.subarray(0, block.count)));

  const q = quantizeBinary(query);
  const distances = new Uint16Array(total);
  const histogram = new Uint32Array(query.length + 1);
  let n = 0;
  for (const { bits, count: rows } of blocks) {
    for (let row = 0, offset = 0; row < rows; row++) {
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
  for (const { noteIds, count: rows } of blocks) {
    for (let row = 0; row < rows; row++, n++) {
      if (distances[n]! < cut) nearer.push(noteIds[row]!);
      else if (distances[n] === cut) ties.push(noteIds[row]!);
    }
  }
  return nearer.concat(ties.slice(0, count - nearer.length));
}
