import { InflatedPastCap, inflateRawCapped } from "./inflate-raw.js";
import { ChunkingError, DocumentLimitError } from "../errors.js";

/** What a .docx (a zip package) may cost to open; docs/configuration.md "Configuration" names each setting. */
export interface ZipLimits {
  /** Sum of the entries' unpacked sizes (`max_unpacked_mb`). */
  maxUnpackedBytes: number;
  /** Unpacked / packed size of one entry (`max_compression_ratio`). */
  maxCompressionRatio: number;
  /** Entries in the package (`max_zip_entries`). */
  maxEntries: number;
}

/** Entries smaller than this unpack to little whatever their ratio; tiny XML parts compress well. */
const RATIO_GRACE_BYTES = 1024 * 1024;
const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const EOCD_MIN_SIZE = 22;
const MAX_COMMENT = 0xffff;
const STORED = 0;
const DEFLATED = 8;

export interface ZipEntry {
  name: string;
  method: number;
  packedSize: number;
  unpackedSize: number;
  /** Where the entry's compressed data starts and ends in the file. */
  dataStart: number;
  dataEnd: number;
  localHeaderOffset: number;
}

function corrupt(filename: string, reason: string): never {
  throw new ChunkingError(`${filename}: corrupt .docx file (${reason})`);
}

/**
 * Reads the package's central directory and refuses, before anything is unpacked, a package
 * whose declared sizes break the limits or whose entries overlap (the overlapping-entries zip
 * bomb reuses one compressed block for thousands of entries). Returns the entries for
 * {@link verifyZipContents}.
 */
export function inspectZip(bytes: Buffer, filename: string, limits: ZipLimits): ZipEntry[] {
  const eocd = findEndOfCentralDirectory(bytes);
  if (eocd < 0) corrupt(filename, "no zip end-of-central-directory record");
  const declaredEntries = bytes.readUInt16LE(eocd + 10);
  const directorySize = bytes.readUInt32LE(eocd + 12);
  const directoryOffset = bytes.readUInt32LE(eocd + 16);
  if (declaredEntries === 0xffff || directoryOffset === 0xffffffff || directorySize === 0xffffffff) {
    corrupt(filename, "a zip64 package, which Word files of an uploadable size never are");
  }
  if (declaredEntries > limits.maxEntries) {
    throw new DocumentLimitError(`${filename}: the package has ${declaredEntries} entries, more than max_zip_entries (${limits.maxEntries})`);
  }
  if (directoryOffset + directorySize > eocd) corrupt(filename, "the central directory lies outside the file");

  const entries: ZipEntry[] = [];
  let unpackedTotal = 0;
  let at = directoryOffset;
  for (let i = 0; i < declaredEntries; i++) {
    if (at + 46 > eocd || bytes.readUInt32LE(at) !== CENTRAL_SIGNATURE) corrupt(filename, "a truncated central directory");
    const method = bytes.readUInt16LE(at + 10);
    const packedSize = bytes.readUInt32LE(at + 20);
    const unpackedSize = bytes.readUInt32LE(at + 24);
    const nameLength = bytes.readUInt16LE(at + 28);
    const extraLength = bytes.readUInt16LE(at + 30);
    const commentLength = bytes.readUInt16LE(at + 32);
    const localHeaderOffset = bytes.readUInt32LE(at + 42);
    const name = bytes.toString("utf8", at + 46, Math.min(eocd, at + 46 + nameLength));
    at += 46 + nameLength + extraLength + commentLength;

    if (method !== STORED && method !== DEFLATED) corrupt(filename, `entry ${name} uses compression method ${method}`);
    if (localHeaderOffset + 30 > directoryOffset || bytes.readUInt32LE(localHeaderOffset) !== LOCAL_SIGNATURE) {
      corrupt(filename, `entry ${name} points outside the file`);
    }
    const dataStart = localHeaderOffset + 30 + bytes.readUInt16LE(localHeaderOffset + 26) + bytes.readUInt16LE(localHeaderOffset + 28);
    const dataEnd = dataStart + packedSize;
    if (dataEnd > directoryOffset) corrupt(filename, `entry ${name} extends past its data`);

    unpackedTotal += unpackedSize;
    if (unpackedTotal > limits.maxUnpackedBytes) {
      throw new DocumentLimitError(`${filename}: the package unpacks to more than max_unpacked_mb (${limits.maxUnpackedBytes / (1024 * 1024)} MB)`);
    }
    if (unpackedSize > RATIO_GRACE_BYTES && unpackedSize / Math.max(1, packedSize) > limits.maxCompressionRatio) {
      const ratio = Math.round(unpackedSize / Math.max(1, packedSize));
      throw new DocumentLimitError(
        `${filename}: entry ${name} unpacks ${ratio} times its packed size, more than max_compression_ratio (${limits.maxCompressionRatio})`,
      );
    }
    entries.push({ name, method, packedSize, unpackedSize, dataStart, dataEnd, localHeaderOffset });
  }

  const byOffset = [...entries].sort((a, b) => a.localHeaderOffset - b.localHeaderOffset);
  for (let i = 1; i < byOffset.length; i++) {
    if (byOffset[i]!.localHeaderOffset < byOffset[i - 1]!.dataEnd) {
      corrupt(filename, `entries ${byOffset[i - 1]!.name} and ${byOffset[i]!.name} overlap, as in a zip bomb`);
    }
  }
  return entries;
}

/**
 * Unpacks every entry with its declared size as a hard cap, so a package that lies about its
 * sizes costs no more than the limits it passed, and refuses XML with a document type
 * declaration: Office Open XML forbids DTDs (ECMA-376 Part 2), and they are how entity
 * expansion ("billion laughs") and external entities get in.
 */
export function verifyZipContents(bytes: Buffer, filename: string, entries: ZipEntry[]): void {
  for (const entry of entries) {
    const packed = bytes.subarray(entry.dataStart, entry.dataEnd);
    let unpacked: Buffer;
    if (entry.method === STORED) {
      if (entry.packedSize !== entry.unpackedSize) corrupt(filename, `stored entry ${entry.name} has two sizes`);
      unpacked = packed;
    } else {
      let inflated: ReturnType<typeof inflateRawCapped>;
      try {
        // The declared size is the cap: one byte over it proves the declaration false.
        inflated = inflateRawCapped(packed, entry.unpackedSize);
      } catch (error) {
        if (error instanceof InflatedPastCap) corrupt(filename, `entry ${entry.name} unpacks to more than its declared size`);
        throw error;
      }
      if (inflated.corrupt) corrupt(filename, `entry ${entry.name} cannot be unpacked`);
      if (!inflated.finished) corrupt(filename, `entry ${entry.name} cannot be unpacked: its data ends early`);
      unpacked = inflated.data;
      if (unpacked.length !== entry.unpackedSize)
        corrupt(filename, `entry ${entry.name} unpacks to ${unpacked.length} bytes, not its declared ${entry.unpackedSize}`);
    }
    if (/\.(xml|rels)$/i.test(entry.name) && (unpacked.includes("<!DOCTYPE") || unpacked.includes("<!ENTITY"))) {
      throw new ChunkingError(`${filename}: entry ${entry.name} declares a DTD or entities, which Word files never do; refused`);
    }
  }
}

function findEndOfCentralDirectory(bytes: Buffer): number {
  const lowest = Math.max(0, bytes.length - EOCD_MIN_SIZE - MAX_COMMENT);
  for (let at = bytes.length - EOCD_MIN_SIZE; at >= lowest; at--) {
    if (bytes.readUInt32LE(at) === EOCD_SIGNATURE) return at;
  }
  return -1;
}
