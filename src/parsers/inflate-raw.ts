import { lazyRequire } from "../lazy-require.js";

/** The part of pako's (1.x) streaming inflater used here. */
interface PakoInflate {
  push(data: Uint8Array, mode: number): boolean;
  onData(chunk: Uint8Array): void;
  err: number;
  /** True once the final block was read (or on an error). */
  ended: boolean;
}
const pako = lazyRequire<{ Inflate: new (options: { raw: true; chunkSize: number }) => PakoInflate }>("pako");

/** zlib's flush mode that leaves the stream open: what a truncated stream holds is returned, with `finished` false. */
const Z_SYNC_FLUSH = 2;
/** Output is produced, and the cap checked, a piece of this size at a time (pako's window, 32 KB, is apart). */
const PIECE_BYTES = 16 * 1024;

/** Raised by inflateRawCapped when the data unpacks to more than its cap. */
export class InflatedPastCap extends Error {}

/**
 * Raw deflate data unpacked in JavaScript (pako), at most `cap` bytes: past it InflatedPastCap
 * is thrown, a piece at a time, before more memory is taken. `finished` says the final block was
 * read: a truncated stream gives what it holds with `finished` false (a PDF reader takes that, a
 * zip entry is refused). Data that is not deflate gives `corrupt` true (the output is then
 * incomplete, and not for use).
 *
 * Not node:zlib: the parsers run in worker threads that are terminated when their request is
 * cancelled or overruns its deadline, and a worker terminated while Node makes a zlib handle
 * aborts the whole process ("close before init" in Node's CompressionStream, seen in a 504 test
 * on Node 20), which would take a server down with the request. pako 1.x is the version mammoth's
 * jszip installs already.
 */
export function inflateRawCapped(data: Uint8Array, cap: number): { data: Buffer; corrupt: boolean; finished: boolean } {
  const inflater = new (pako().Inflate)({ raw: true, chunkSize: PIECE_BYTES });
  const pieces: Uint8Array[] = [];
  let total = 0;
  inflater.onData = (piece) => {
    total += piece.length;
    if (total > cap) throw new InflatedPastCap(`unpacks to more than ${cap} bytes`);
    pieces.push(piece);
  };
  const corrupt = !inflater.push(data, Z_SYNC_FLUSH) || inflater.err !== 0;
  return { data: Buffer.concat(pieces, total), corrupt, finished: inflater.ended && !corrupt };
}
