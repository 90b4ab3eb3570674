import { O200K_TOKEN_SPLIT_REGEX } from "gpt-tokenizer/encodingParams/constants";
import { lazyRequire } from "../lazy-require.js";
import { readVocabularyFile, vocabularyFilePath, writeVocabularyFile, type VocabularyArrays } from "./bpe-vocabulary-file.js";

/**
 * o200k's ranks (gpt-tokenizer's table), loaded only to build our vocabulary when no copy of it
 * is kept (bpe-vocabulary-file.ts): parsing the 2 MB table alone is about 0.3 s of CPU.
 */
const ranksModule = lazyRequire<{ default: Array<string | number[]> }>("gpt-tokenizer/bpeRanks/o200k_base");
const o200kRanks = () => ranksModule().default;

/**
 * o200k's pre-tokeniser: BPE never merges across these pieces (words with their leading space
 * or punctuation, digit groups, punctuation runs, white space), so a text's token count is
 * the sum of its pieces' counts. A fresh global regex, walked with exec as gpt-tokenizer walks
 * it with matchAll.
 */
export function pieceMatcher(): RegExp {
  return new RegExp(O200K_TOKEN_SPLIT_REGEX.source, "gu");
}

/**
 * Pieces at least this long are counted without the per-piece memo below: a long run (a URL, a
 * base64 blob) seldom repeats, and our merge is O(n log n) in its length (gpt-tokenizer's, which
 * counted every piece until 30 November 2026, is quadratic: minutes for a 100k-character run).
 */
export const LONG_PIECE = 1000;
/** Counts of short pieces, which repeat a lot in any text; bounded so a stream cannot grow it. */
const shortCounts = new Map<string, number>();
const SHORT_COUNTS_LIMIT = 200_000;

/**
 * Exact o200k token count of one pre-tokeniser piece, as tiktoken and gpt-tokenizer count it: a
 * piece that is a token is one, any other is merged pair by pair (merge below).
 */
export function pieceTokenCount(piece: string): number {
  if (piece.length >= LONG_PIECE) return bpeCount(Buffer.from(piece, "utf8"));
  let n = shortCounts.get(piece);
  if (n === undefined) {
    const bytes = Buffer.from(piece, "utf8");
    n = bytes.length <= 1 || byteVocabulary().tokens.rankOf(bytes) >= 0 ? Math.min(bytes.length, 1) : bpeCount(bytes);
    if (shortCounts.size >= SHORT_COUNTS_LIMIT) shortCounts.clear();
    shortCounts.set(piece, n);
  }
  return n;
}

/** The vocabulary for our BPE: read from its kept copy, or built from the ranks on the first count. */
interface ByteVocabulary {
  tokens: TokenBytes;
  byteRank: Int32Array;
  pairs: PairRanks;
}
let vocabulary: ByteVocabulary | undefined;

function byteVocabulary(): ByteVocabulary {
  if (vocabulary) return vocabulary;
  const path = vocabularyFilePath();
  let arrays = readVocabularyFile(path);
  if (!arrays) {
    arrays = vocabularyFromRanks(o200kRanks());
    writeVocabularyFile(path, arrays);
  }
  const tokens = new TokenBytes(arrays.bytes, arrays.offset);
  // Every byte is a token of its own in o200k.
  const byteRank = new Int32Array(256);
  for (let rank = 0; rank < tokens.count; rank++) {
    if (tokens.offset[rank + 1]! - tokens.offset[rank]! === 1) byteRank[tokens.bytes[tokens.offset[rank]!]!] = rank;
  }
  const pairs = new PairRanks(arrays.pairLeft.length * 2);
  for (let i = 0; i < arrays.pairLeft.length; i++) pairs.set(arrays.pairLeft[i]!, arrays.pairRight[i]!, arrays.pairRank[i]!);
  vocabulary = { tokens, byteRank, pairs };
  return vocabulary;
}

/**
 * Our vocabulary from gpt-tokenizer's rank table: every token's bytes, and every split of every
 * token into two tokens (a pair the merge loop may meet) with that token's rank. Prefix hashes
 * give each split's two halves their hashes in O(1), so the walk costs one table probe per half
 * instead of slicing and hashing strings (which took most of a second).
 */
export function vocabularyFromRanks(all: Array<string | number[]>): VocabularyArrays {
  // Written into one buffer: a Uint8Array per token costs more in allocation than the rest.
  let bound = 0;
  for (const token of all) bound += typeof token === "string" ? token.length * 3 : token.length;
  const buffer = Buffer.allocUnsafe(bound);
  const offset = new Int32Array(all.length + 1);
  let at = 0;
  all.forEach((token, rank) => {
    if (typeof token === "string") at += buffer.write(token, at, "utf8");
    else for (const byte of token) buffer[at++] = byte;
    offset[rank + 1] = at;
  });
  const tokens = new TokenBytes(buffer.subarray(0, at), offset);
  const left: number[] = [];
  const right: number[] = [];
  const merged: number[] = [];
  const prefixHash = new Int32Array(TokenBytes.LONGEST + 1);
  for (let rank = 0; rank < tokens.count; rank++) {
    const start = tokens.offset[rank]!;
    const length = tokens.offset[rank + 1]! - start;
    if (length < 2) continue;
    for (let k = 0; k < length; k++) prefixHash[k + 1] = Math.imul(prefixHash[k]!, HASH_BASE) + tokens.bytes[start + k]!;
    for (let k = 1; k < length; k++) {
      const l = tokens.find(tokens.bytes, start, k, prefixHash[k]!);
      if (l < 0) continue;
      const r = tokens.find(tokens.bytes, start + k, length - k, (prefixHash[length]! - Math.imul(prefixHash[k]!, HASH_POWERS[length - k]!)) | 0);
      if (r >= 0) (left.push(l), right.push(r), merged.push(rank));
    }
  }
  return { bytes: new Uint8Array(tokens.bytes), offset, pairLeft: Int32Array.from(left), pairRight: Int32Array.from(right), pairRank: Int32Array.from(merged) };
}

/** Polynomial hash of a byte string, h = h * base + byte (mod 2^32); powers for the suffixes. */
const HASH_BASE = 0x01000193;
const HASH_POWERS = new Int32Array(129);
HASH_POWERS[0] = 1;
for (let m = 1; m < HASH_POWERS.length; m++) HASH_POWERS[m] = Math.imul(HASH_POWERS[m - 1]!, HASH_BASE);

/**
 * o200k's tokens as one byte array with offsets, and a hash table from a byte string to its
 * rank that looks up any substring of that array by its hash (checked byte by byte, so a hash
 * collision costs time, never correctness).
 */
class TokenBytes {
  /** o200k's longest token, in bytes. */
  static readonly LONGEST = 128;
  readonly count: number;
  readonly bytes: Uint8Array;
  /** Where each rank's bytes start, then the end. */
  readonly offset: Int32Array;
  private readonly slotRank: Int32Array;
  private readonly slotHash: Int32Array;
  private readonly mask: number;

  constructor(bytes: Uint8Array, offset: Int32Array) {
    this.bytes = bytes;
    this.offset = offset;
    this.count = offset.length - 1;
    let slots = 1;
    while (slots < this.count * 2) slots *= 2;
    this.mask = slots - 1;
    this.slotRank = new Int32Array(slots).fill(-1);
    this.slotHash = new Int32Array(slots);
    for (let rank = 0; rank < this.count; rank++) {
      const start = this.offset[rank]!;
      const length = this.offset[rank + 1]! - start;
      let hash = 0;
      for (let k = 0; k < length; k++) hash = Math.imul(hash, HASH_BASE) + this.bytes[start + k]!;
      hash |= 0;
      let slot = mix(hash) & this.mask;
      while (this.slotRank[slot] !== -1) slot = (slot + 1) & this.mask;
      this.slotRank[slot] = rank;
      this.slotHash[slot] = hash;
    }
  }

  /** Rank of the token whose bytes are all of `piece`; -1 if none. */
  rankOf(piece: Uint8Array): number {
    if (piece.length > TokenBytes.LONGEST) return -1;
    let hash = 0;
    for (let k = 0; k < piece.length; k++) hash = Math.imul(hash, HASH_BASE) + piece[k]!;
    return this.find(piece, 0, piece.length, hash | 0);
  }

  /** Rank of the token whose bytes are source[start, start + length), given their hash; -1 if none. */
  find(source: Uint8Array, start: number, length: number, hash: number): number {
    for (let slot = mix(hash) & this.mask; ; slot = (slot + 1) & this.mask) {
      const rank = this.slotRank[slot]!;
      if (rank === -1) return -1;
      if (this.slotHash[slot] !== hash || this.offset[rank + 1]! - this.offset[rank]! !== length) continue;
      const at = this.offset[rank]!;
      let k = 0;
      while (k < length && this.bytes[at + k] === source[start + k]) k++;
      if (k === length) return rank;
    }
  }
}

/** Murmur3's finaliser, so linear probing meets short runs. */
function mix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/**
 * Every pair of tokens whose bytes together make a token, with that token's rank: what each
 * merge step asks, as an open-addressing table in typed arrays (a Map keyed by the pair is
 * several times slower, and the merge loop does little else).
 */
class PairRanks {
  private readonly mask: number;
  private readonly left: Int32Array;
  private readonly right: Int32Array;
  private readonly rank: Int32Array;

  constructor(minimumSlots: number) {
    let slots = 1;
    while (slots < minimumSlots) slots *= 2;
    this.mask = slots - 1;
    this.left = new Int32Array(slots).fill(-1);
    this.right = new Int32Array(slots);
    this.rank = new Int32Array(slots);
  }

  private slotOf(left: number, right: number): number {
    let slot = mix(Math.imul(left, 0x9e3779b1) + right) & this.mask;
    while (this.left[slot] !== -1 && (this.left[slot] !== left || this.right[slot] !== right)) slot = (slot + 1) & this.mask;
    return slot;
  }

  set(left: number, right: number, rank: number): void {
    const slot = this.slotOf(left, right);
    this.left[slot] = left;
    this.right[slot] = right;
    this.rank[slot] = rank;
  }

  /** Rank of the token two tokens merge into, or -1 if their bytes are no token. */
  get(left: number, right: number): number {
    const slot = this.slotOf(left, right);
    return this.left[slot] === -1 ? -1 : this.rank[slot]!;
  }
}

/** Our BPE keeps piece offsets in int32 arrays; no document holds a longer piece. */
const LONGEST_PIECE = 2 ** 30;

/**
 * Token count of one piece by byte-pair merging, with the same rule as tiktoken and
 * gpt-tokenizer (merge the adjacent pair whose merged token has the lowest rank, the leftmost
 * on ties, until no pair is a token) but in O(n log n): a heap of candidate pairs and a linked
 * list of parts instead of a scan of every pair per merge.
 */
export function bpeCount(bytes: Uint8Array): number {
  return bytes.length <= 1 ? bytes.length : merge(bytes).parts;
}

/**
 * The token boundaries of a piece's encoding: for each byte offset 0..n, how many tokens come
 * before it if a token starts (or the piece ends) there, else -1. A boundary is never crossed
 * by a merge, so every merge left of it was the lowest-ranked pair left of it when made: the
 * encoding of the piece cut at a boundary is the part of this encoding before it. Chunkers
 * use that to count many prefixes of one long word from one merge.
 */
export function bpeBoundaries(bytes: Uint8Array): Int32Array {
  const n = bytes.length;
  const before = new Int32Array(n + 1).fill(-1);
  before[0] = 0;
  if (n === 0) return before;
  const { next } = n === 1 ? { next: Int32Array.of(1) } : merge(bytes);
  let tokens = 0;
  for (let i = 0; i < n; i = next[i]!) before[next[i]!] = ++tokens;
  return before;
}

function merge(bytes: Uint8Array): { parts: number; next: Int32Array } {
  const n = bytes.length;
  if (n >= LONGEST_PIECE) throw new RangeError(`a single ${n}-byte piece is too long to count`);
  const { byteRank, pairs } = byteVocabulary();
  const token = new Int32Array(n); // token of the part starting at a byte, -1 once merged away
  const next = new Int32Array(n);
  const prev = new Int32Array(n);
  // Rank of the token the part starting here would make with the next part, -1 if none; a heap
  // entry is current only while it still says the same.
  const pairRank = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    token[i] = byteRank[bytes[i]!]!;
    next[i] = i + 1;
    prev[i] = i - 1;
  }
  // Each merge adds at most two candidates to the n - 1 first ones.
  const heap = new PairHeap(3 * n);
  for (let i = 0; i + 1 < n; i++) {
    const rank = pairs.get(token[i]!, token[i + 1]!);
    pairRank[i] = rank;
    if (rank >= 0) heap.add(rank, i);
  }
  pairRank[n - 1] = -1;
  heap.heapify();
  let parts = n;
  while (heap.size > 0) {
    const rank = heap.topRank();
    const i = heap.pop();
    if (token[i] === -1 || pairRank[i] !== rank) continue; // stale: a part merged since
    const j = next[i]!;
    token[i] = rank;
    token[j] = -1;
    const after = next[j]!;
    next[i] = after;
    if (after < n) prev[after] = i;
    parts--;
    pairRank[i] = after < n ? pairs.get(rank, token[after]!) : -1;
    if (pairRank[i]! >= 0) heap.push(pairRank[i]!, i);
    const before = prev[i]!;
    if (before >= 0) {
      pairRank[before] = pairs.get(token[before]!, rank);
      if (pairRank[before]! >= 0) heap.push(pairRank[before]!, before);
    }
  }
  return { parts, next };
}

/** A binary min-heap of (rank, position) pairs, lowest rank first, then leftmost. */
class PairHeap {
  private readonly ranks: Int32Array;
  private readonly positions: Int32Array;
  size = 0;
  constructor(capacity: number) {
    this.ranks = new Int32Array(capacity);
    this.positions = new Int32Array(capacity);
  }
  /** Appends without ordering; call heapify before the first push or pop. */
  add(rank: number, position: number): void {
    this.ranks[this.size] = rank;
    this.positions[this.size++] = position;
  }
  heapify(): void {
    for (let i = (this.size >> 1) - 1; i >= 0; i--) this.siftDown(i, this.ranks[i]!, this.positions[i]!);
  }
  topRank(): number {
    return this.ranks[0]!;
  }
  push(rank: number, position: number): void {
    const r = this.ranks;
    const p = this.positions;
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (r[parent]! < rank || (r[parent] === rank && p[parent]! < position)) break;
      r[i] = r[parent]!;
      p[i] = p[parent]!;
      i = parent;
    }
    r[i] = rank;
    p[i] = position;
  }
  /** Removes the top and returns its position. */
  pop(): number {
    const top = this.positions[0]!;
    this.size--;
    if (this.size > 0) this.siftDown(0, this.ranks[this.size]!, this.positions[this.size]!);
    return top;
  }
  private siftDown(from: number, rank: number, position: number): void {
    const r = this.ranks;
    const p = this.positions;
    let i = from;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= this.size) break;
      const d = c + 1;
      if (d < this.size && (r[d]! < r[c]! || (r[d] === r[c] && p[d]! < p[c]!))) c = d;
      if (r[c]! > rank || (r[c] === rank && p[c]! > position)) break;
      r[i] = r[c]!;
      p[i] = p[c]!;
      i = c;
    }
    r[i] = rank;
    p[i] = position;
  }
}

/** For each ASCII trigram, the longest token starting with it (0: none); built on first use. */
let longestByTrigram: Uint8Array | undefined;

function trigramKey(text: string, at: number): number {
  return (text.charCodeAt(at) << 14) | (text.charCodeAt(at + 1) << 7) | text.charCodeAt(at + 2);
}

function trigramTable(): Uint8Array {
  if (longestByTrigram) return longestByTrigram;
  longestByTrigram = new Uint8Array(1 << 21);
  const { tokens } = byteVocabulary();
  for (let rank = 0; rank < tokens.count; rank++) {
    const start = tokens.offset[rank]!;
    const length = tokens.offset[rank + 1]! - start;
    if (length < 3 || tokens.bytes.subarray(start, start + length).some((byte) => byte > 0x7f)) continue;
    const key = (tokens.bytes[start]! << 14) | (tokens.bytes[start + 1]! << 7) | tokens.bytes[start + 2]!;
    longestByTrigram[key] = Math.max(longestByTrigram[key]!, length);
  }
  return longestByTrigram;
}

/**
 * A cheap lower bound on the token count of any slice of `span`, for chunkers that must find
 * how much of a long word fits in a chunk without counting every candidate: every token is a
 * vocabulary entry that starts where it starts, so a slice needs at least as many tokens as
 * the fewest jumps across it when each jump may go as far as the longest entry beginning with
 * the characters there (the trigram table; 2 where no entry of 3 or more begins). Outside
 * ASCII, where a character may be several bytes, it falls back to the vocabulary's longest
 * token, 128 bytes. Counting stops past `cap`, which is all a caller comparing with a limit needs.
 */
export function tokenCountFloor(text: string, span: { start: number; end: number }): (start: number, end: number, cap: number) => number {
  if (/[^\x00-\x7f]/.test(text.slice(span.start, span.end))) return (start, end) => Math.ceil((end - start) / 128);
  const table = trigramTable();
  const reach = new Uint8Array(span.end - span.start);
  for (let i = span.start; i < span.end; i++) reach[i - span.start] = i + 3 <= span.end ? Math.max(2, table[trigramKey(text, i)]!) : 2;
  return (start, end, cap) => {
    // The greedy minimum number of jumps from start to at least end.
    let jumps = 0;
    let reachable = start;
    let farthest = start;
    for (let i = start; i < end; i++) {
      farthest = Math.max(farthest, i + reach[i - span.start]!);
      if (i === reachable) {
        jumps++;
        reachable = farthest;
        if (reachable >= end || jumps > cap) break;
      }
    }
    return jumps;
  };
}
