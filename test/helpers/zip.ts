import { constants, crc32, deflateRawSync, inflateRawSync } from "node:zlib";
import { inspectZip } from "../../src/parsers/zip-guard.js";

/** One entry of a hand-built zip; sizes and data can be made to lie, as in a zip bomb. */
export interface ZipEntrySpec {
  name: string;
  /** Compressed (raw deflate) bytes as stored. */
  packed: Buffer;
  /** The unpacked size the directory declares. */
  declaredSize: number;
  crc?: number;
  method?: 0 | 8;
}

/** Zip limits that refuse nothing: for a test whose subject is not the limits. */
export const NO_LIMITS = { maxUnpackedBytes: Number.MAX_SAFE_INTEGER, maxCompressionRatio: Number.MAX_SAFE_INTEGER, maxEntries: 65535 };

export function deflated(name: string, data: Buffer): ZipEntrySpec {
  return { name, packed: deflateRawSync(data), declaredSize: data.length, crc: crc32(data) };
}

/**
 * A raw deflate stream that unpacks to `copies` × `block` while storing one compressed copy
 * per repetition: blocks flushed from separate streams concatenate into one valid stream.
 */
export function repeatedDeflate(block: Buffer, copies: number): Buffer {
  const one = deflateRawSync(block, { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  return Buffer.concat([...Array.from({ length: copies }, () => one), deflateRawSync(Buffer.alloc(0))]);
}

function localHeader(e: ZipEntrySpec): Buffer {
  const name = Buffer.from(e.name);
  const h = Buffer.alloc(30);
  h.writeUInt32LE(0x04034b50, 0);
  h.writeUInt16LE(20, 4);
  h.writeUInt16LE(e.method ?? 8, 8);
  h.writeUInt32LE((e.crc ?? 0) >>> 0, 14);
  h.writeUInt32LE(e.packed.length, 18);
  h.writeUInt32LE(e.declaredSize, 22);
  h.writeUInt16LE(name.length, 26);
  return Buffer.concat([h, name]);
}

function centralHeader(e: ZipEntrySpec, offset: number): Buffer {
  const name = Buffer.from(e.name);
  const h = Buffer.alloc(46);
  h.writeUInt32LE(0x02014b50, 0);
  h.writeUInt16LE(20, 4);
  h.writeUInt16LE(20, 6);
  h.writeUInt16LE(e.method ?? 8, 10);
  h.writeUInt32LE((e.crc ?? 0) >>> 0, 16);
  h.writeUInt32LE(e.packed.length, 20);
  h.writeUInt32LE(e.declaredSize, 24);
  h.writeUInt16LE(name.length, 28);
  h.writeUInt32LE(offset, 42);
  return Buffer.concat([h, name]);
}

function endRecord(count: number, directorySize: number, directoryOffset: number): Buffer {
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(count, 8);
  end.writeUInt16LE(count, 10);
  end.writeUInt32LE(directorySize, 12);
  end.writeUInt32LE(directoryOffset, 16);
  return end;
}

/** A zip of the given entries, each with its own data. */
export function buildZip(entries: ZipEntrySpec[]): Buffer {
  const parts: Buffer[] = [];
  const offsets: number[] = [];
  let at = 0;
  for (const e of entries) {
    offsets.push(at);
    const block = Buffer.concat([localHeader(e), e.packed]);
    parts.push(block);
    at += block.length;
  }
  const directory = Buffer.concat(entries.map((e, i) => centralHeader(e, offsets[i]!)));
  return Buffer.concat([...parts, directory, endRecord(entries.length, directory.length, at)]);
}

/** The overlapping-entries zip bomb (Fifield): `count` directory entries share one block of data. */
export function buildOverlappingZip(kernel: ZipEntrySpec, count: number): Buffer {
  const block = Buffer.concat([localHeader(kernel), kernel.packed]);
  const directory = Buffer.concat(
    Array.from({ length: count }, (_, i) => centralHeader({ ...kernel, name: i === 0 ? kernel.name : `word/media/part${i}.xml` }, 0)),
  );
  return Buffer.concat([block, directory, endRecord(count, directory.length, block.length)]);
}

/** The entries of a real .docx, unpacked, so a test can swap one part for a hostile one. */
export function unpackDocx(docx: Buffer): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (const e of inspectZip(docx, "base.docx", NO_LIMITS)) {
    const packed = docx.subarray(e.dataStart, e.dataEnd);
    out.set(e.name, e.method === 0 ? packed : inflateRawSync(packed));
  }
  return out;
}

/** A .docx with its parts, re-packed. */
export function packDocx(parts: Map<string, Buffer>): Buffer {
  return buildZip([...parts].map(([name, data]) => deflated(name, data)));
}
