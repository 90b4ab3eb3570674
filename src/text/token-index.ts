import { LONG_PIECE, bpeBoundaries, pieceMatcher, pieceTokenCount } from "./bpe.js";
import { countTokens } from "./tokens.js";
import { lastAtOrBefore } from "./sorted.js";

/** Slices up to this many characters are simply counted; longer ones use the index. */
const SHORT_SLICE = 160;
/** How far into a slice its own pieces are followed to meet the text's piece boundaries (< SHORT_SLICE). */
const RESYNC_WINDOW = 120;

/**
 * A text tokenised once: its o200k pre-tokeniser pieces with the running token count at each
 * piece boundary. Chunkers ask for the token count of many overlapping slices of one text;
 * counting each slice from scratch re-tokenises the text several times over (and long words
 * quadratically), while a slice's count is mostly a difference of two running counts.
 *
 * `count(start, end)` is exactly `countTokens(text.slice(start, end))`, because a slice is
 * pieced like the text except near its two ends:
 * - at the start, the slice's first pieces may differ (a cut inside a word or after a space);
 *   its own pieces are followed until one ends on a piece boundary of the text, after which
 *   both walks meet the same characters and agree;
 * - at the end, only the slice's last piece can differ: it is cut short, or (the one look-ahead
 *   of the pattern, `\s+(?!\S)`) a run of white space ends the slice where the text went on.
 *   So the slice agrees with the text up to the start of the text's piece holding the last
 *   character, less any white-space pieces before it; from there the tail is counted as is.
 */
export class TokenIndex {
  /** Piece start offsets, then text.length. */
  private readonly starts: Int32Array;
  /** Tokens before each entry of `starts`, long pieces counted as 0 until `settle` counts them. */
  private readonly before: Float64Array;
  /** For each character offset, the index in `starts` of the piece starting there (or of the end), else -1. */
  private readonly pieceStartingAt: Int32Array;
  /** False if the pattern skipped characters (it never should); then slices are counted whole. */
  private readonly contiguous: boolean;
  /**
   * Pieces of LONG_PIECE characters or more, not yet counted. A long word is costly to merge
   * whole, and chunkers that cut it ask only for slices inside it (counted on their own), so
   * its count is taken only when a difference of running counts spans it.
   */
  private unsettled: number[] = [];
  /** Counts a chunker already knows exactly (see remember), by start and end. */
  private readonly known = new Map<number, number>();

  constructor(readonly text: string) {
    const starts: number[] = [];
    const before: number[] = [];
    this.pieceStartingAt = new Int32Array(text.length + 1).fill(-1);
    const matcher = pieceMatcher();
    let total = 0;
    let end = 0;
    let contiguous = true;
    let match: RegExpExecArray | null;
    while ((match = matcher.exec(text)) !== null) {
      if (match.index !== end) contiguous = false;
      this.pieceStartingAt[match.index] = starts.length;
      starts.push(match.index);
      before.push(total);
      if (match[0].length >= LONG_PIECE) this.unsettled.push(starts.length - 1);
      else total += pieceTokenCount(match[0]);
      end = match.index + match[0].length;
    }
    starts.push(text.length);
    before.push(total);
    this.pieceStartingAt[text.length] = starts.length - 1;
    this.starts = Int32Array.from(starts);
    this.before = Float64Array.from(before);
    this.contiguous = contiguous && end === text.length;
  }

  /** Tokens of the whole text. */
  get total(): number {
    this.settle(0, this.starts.length - 1);
    return this.before[this.before.length - 1]!;
  }

  /**
   * Records the exact count of text.slice(start, end), found by a chunker on its own (a cut
   * inside a long word), so packing and drafting that chunk later do not merge it again.
   */
  remember(start: number, end: number, tokens: number): void {
    this.known.set(start * (this.text.length + 1) + end, tokens);
  }

  /** Exact o200k token count of text.slice(start, end). */
  count(start: number, end: number): number {
    if (end <= start) return 0;
    const known = this.known.get(start * (this.text.length + 1) + end);
    if (known !== undefined) return known;
    if (!this.contiguous) return countTokens(this.text.slice(start, end));
    // From a piece start to a piece end that is not white space, the slice is pieced as the
    // text is there (the one look-ahead, \s+(?!\S), can only change a piece ending in white
    // space), so its count is a difference of running counts: how packers count word pieces.
    const first = this.pieceStartingAt[start]!;
    const last = this.pieceStartingAt[end]!;
    if (first >= 0 && last >= 0 && !/\s/.test(this.text[end - 1]!)) {
      this.settle(first, last);
      return this.before[last]! - this.before[first]!;
    }
    if (end - start <= SHORT_SLICE) return countTokens(this.text.slice(start, end));
    // Follow the slice's own pieces until one ends on a piece boundary of the text.
    let head = 0;
    let synced = -1;
    const windowEnd = start + RESYNC_WINDOW;
    const matcher = pieceMatcher();
    const window = this.text.slice(start, windowEnd);
    let match: RegExpExecArray | null;
    while ((match = matcher.exec(window)) !== null) {
      const pieceEnd = start + match.index + match[0].length;
      // A piece that reaches the window's end might continue past it; it proves nothing.
      if (pieceEnd >= windowEnd) break;
      head += pieceTokenCount(match[0]);
      if (this.pieceStartingAt[pieceEnd]! >= 0) {
        synced = pieceEnd;
        break;
      }
    }
    if (synced < 0) return countTokens(this.text.slice(start, end)); // inside one very long piece
    const from = this.pieceAt(synced);
    // The text's piece holding the last character, moved back over white-space pieces.
    let to = this.pieceAt(end - 1);
    while (to > from && /^\s+$/.test(this.text.slice(this.starts[to - 1]!, this.starts[to]!))) to--;
    if (to <= from) return head + countTokens(this.text.slice(synced, end));
    this.settle(from, to);
    return head + this.before[to]! - this.before[from]! + countTokens(this.text.slice(this.starts[to]!, end));
  }

  /**
   * Whether text.slice(start, end) has at most `limit` tokens, settled without counting when
   * its length alone decides: a token is at least one byte (so `limit` bytes always fit) and
   * at most 128 bytes, o200k's longest (so a slice over 128 x limit characters never fits).
   */
  fits(start: number, end: number, limit: number): boolean {
    const length = end - start;
    if (length * 3 <= limit) return true; // at most 3 UTF-8 bytes per UTF-16 unit
    if (length > limit * 128) return false;
    return this.count(start, end) <= limit;
  }

  /** Counts the long pieces among pieces from..to-1 if any is still uncounted (then all of them, once). */
  private settle(from: number, to: number): void {
    if (!this.unsettled.some((piece) => piece >= from && piece < to)) return;
    const added = new Float64Array(this.before.length);
    for (const piece of this.unsettled) added[piece + 1] = pieceTokenCount(this.text.slice(this.starts[piece]!, this.starts[piece + 1]!));
    let sum = 0;
    for (let i = 0; i < this.before.length; i++) this.before[i] = this.before[i]! + (sum += added[i]!);
    this.unsettled = [];
  }

  /** Index in `starts` of the piece holding the character at `offset`. */
  private pieceAt(offset: number): number {
    return lastAtOrBefore(this.starts, offset, this.starts.length - 2);
  }
}

/**
 * Counts the slices of one text that share a start, as a bisection over a long word asks for
 * them. A slice that is one ASCII piece (a run of letters, say) is counted by merging it, and
 * the merge's token boundaries answer, exactly, every later slice from the same start that
 * ends on one of them (see bpeBoundaries); other slices go to the index.
 */
export class PrefixCounter {
  private readonly merged: Array<{ end: number; before: Int32Array }> = [];

  constructor(
    private readonly index: TokenIndex,
    private readonly start: number,
  ) {}

  /** Whether text.slice(start, end) has at most `limit` tokens (see TokenIndex.fits). */
  fits(end: number, limit: number): boolean {
    const length = end - this.start;
    if (length * 3 <= limit) return true;
    if (length > limit * 128) return false;
    return this.count(end) <= limit;
  }

  count(end: number): number {
    const length = end - this.start;
    for (const run of this.merged) if (run.end >= end && run.before[length]! >= 0) return run.before[length]!;
    const slice = this.index.text.slice(this.start, end);
    if (!isOneAsciiPiece(slice)) return this.index.count(this.start, end);
    const before = bpeBoundaries(Buffer.from(slice, "latin1"));
    this.merged.push({ end, before });
    return before[length]!;
  }
}

function isOneAsciiPiece(text: string): boolean {
  if (/[^\x00-\x7f]/.test(text)) return false;
  const matcher = pieceMatcher();
  const match = matcher.exec(text);
  return match !== null && match.index === 0 && match[0].length === text.length;
}
