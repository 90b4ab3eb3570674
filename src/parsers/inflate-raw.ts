import { lazyRequire } from "../lazy-require.js";

/** The part of pako's (1.x) streaming inflater used here. */
interface PakoInflate {
  push(data: Uint8Array, mode: number): boolean;
  onData(chunk: Uint8Array): void;
  err: number;
}
const pako = lazyRequire<{ Inflate: new (options: { raw: true; chunkSize: number }) => PakoInflate }>("pako");

/** zlib's flush mode that takes what a truncated stream holds without calling it an error. */
const Z_SYNC_FLUSH = 2;
/** Output is produced, and the cap checked, a piece of this size at a time. */
const PIECE_BYTES = 64 * 1024;

/** Raised by inflateRawCapped when the data unpacks to more than its cap. */
export class InflatedPastCap extends Error {}

/**
 * Raw deflate data unpacked in JavaScript (pako), at most `cap` bytes: past it InflatedPastCap
 * is thrown, a piece at a time, before more memory is taken. A truncated stream gives what it
 * holds (`corrupt` false: the caller compares lengths where it knows them); data that is not
 * deflate gives `corrupt` true and what was unpacked before the fault.
 *
 * Not node:zlib: the parsers run in worker threads that are terminated when their request is
 * cancelled or overruns its deadline, and a worker terminated while Node makes a zlib handle
 * aborts the whole process ("close before init" in Node's CompressionStream, seen in a 504 test
 * on Node 20), which would take a server down with the request.
 */
export function inflateRawCapped(data: Uint8Array, cap: number): { data: Buffer; corrupt: boolean } {
  const inflater = new (pako().Inflate)({ raw: true, chunkSize: PIECE_BYTES });
  const pieces: Uint8Array[] = [];
  let total = 0;
  inflater.onData = (piece) => {
    total += piece.length;
    if (total > cap) throw new InflatedPastCap(`unpacks to more than ${cap} bytes`);
    pieces.push(piece);
  };
  const ended = inflater.push(data, Z_SYNC_FLUSH);
  return { data: Buffer.concat(pieces, total), corrupt: !ended || inflater.err !== 0 };
}
