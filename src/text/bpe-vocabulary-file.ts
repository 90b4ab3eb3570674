import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { dirname, join } from "node:path";
import { crc32 } from "node:zlib";
import { createRequire } from "node:module";

/**
 * o200k's vocabulary as our BPE reads it (bpe.ts), kept in a file between processes: built from
 * gpt-tokenizer's rank table it costs about half a second of CPU per process and per worker
 * thread (parsing the 2 MB table, then splitting 200,000 tokens into pairs), read from this file
 * a few milliseconds. The file is only a copy: when it is missing, unreadable or damaged (its
 * checksum is checked) the vocabulary is built again and the file written again, through a
 * temporary file renamed into place, so that a process never reads another's half-written copy.
 */
export interface VocabularyArrays {
  /** Every token's bytes, one after another. */
  bytes: Uint8Array;
  /** Where each rank's bytes start in `bytes`, then the end (count + 1 entries). */
  offset: Int32Array;
  /** Every split of a token into two tokens: left rank, right rank, the token's rank. */
  pairLeft: Int32Array;
  pairRight: Int32Array;
  pairRank: Int32Array;
}

const MAGIC = 0x42564543; // "CEVB"
const FORMAT = 1;
const HEADER_WORDS = 6; // magic, format, token count, bytes length, pair count, checksum

/**
 * Where the copy lives: the system's temporary folder, one per user, named for the rank table it
 * was built from (gpt-tokenizer's version), so an upgrade never reads an older table's copy.
 */
export function vocabularyFilePath(): string {
  const version = (createRequire(import.meta.url)("gpt-tokenizer/package.json") as { version: string }).version;
  let user: string;
  try {
    user = String(userInfo().uid);
  } catch {
    user = "user";
  }
  return join(tmpdir(), `chunkeval-${user}`, `o200k_base-gpt-tokenizer-${version}-v${FORMAT}.bin`);
}

/** The vocabulary from `path`, or undefined when the file is missing, short or fails its checksum. */
export function readVocabularyFile(path: string): VocabularyArrays | undefined {
  let file: Buffer;
  try {
    // In a shared temporary folder, only a folder of this user's own: another user's copy could say anything.
    if (process.getuid && statSync(dirname(path)).uid !== process.getuid()) return undefined;
    file = readFileSync(path);
  } catch {
    return undefined;
  }
  if (file.length < HEADER_WORDS * 4) return undefined;
  const header = new Int32Array(file.buffer.slice(file.byteOffset, file.byteOffset + HEADER_WORDS * 4));
  const [magic, format, count, bytesLength, pairCount, checksum] = header as unknown as number[];
  if (magic !== MAGIC || format !== FORMAT || count! <= 0 || bytesLength! <= 0 || pairCount! <= 0) return undefined;
  const words = count! + 1 + 3 * pairCount!;
  if (file.length !== HEADER_WORDS * 4 + words * 4 + bytesLength!) return undefined;
  const body = file.subarray(HEADER_WORDS * 4);
  if ((crc32(body) | 0) !== checksum) return undefined;
  // Views of the file's buffer where its offset is aligned (a file this size is read into a
  // buffer of its own), copies where it is not.
  const int32s = (from: number, length: number) =>
    (body.byteOffset + from * 4) % 4 === 0
      ? new Int32Array(body.buffer, body.byteOffset + from * 4, length)
      : new Int32Array(body.buffer.slice(body.byteOffset + from * 4, body.byteOffset + (from + length) * 4));
  return {
    offset: int32s(0, count! + 1),
    pairLeft: int32s(count! + 1, pairCount!),
    pairRight: int32s(count! + 1 + pairCount!, pairCount!),
    pairRank: int32s(count! + 1 + 2 * pairCount!, pairCount!),
    bytes: new Uint8Array(body.buffer, body.byteOffset + words * 4, bytesLength!),
  };
}

/** Writes the vocabulary to `path` (a temporary file, then renamed); a failure to write is ignored: the file is only a copy. */
export function writeVocabularyFile(path: string, vocabulary: VocabularyArrays): void {
  const count = vocabulary.offset.length - 1;
  const pairCount = vocabulary.pairLeft.length;
  const body = Buffer.concat([
    Buffer.from(vocabulary.offset.buffer, vocabulary.offset.byteOffset, vocabulary.offset.byteLength),
    Buffer.from(vocabulary.pairLeft.buffer, vocabulary.pairLeft.byteOffset, vocabulary.pairLeft.byteLength),
    Buffer.from(vocabulary.pairRight.buffer, vocabulary.pairRight.byteOffset, vocabulary.pairRight.byteLength),
    Buffer.from(vocabulary.pairRank.buffer, vocabulary.pairRank.byteOffset, vocabulary.pairRank.byteLength),
    Buffer.from(vocabulary.bytes.buffer, vocabulary.bytes.byteOffset, vocabulary.bytes.byteLength),
  ]);
  const header = Int32Array.of(MAGIC, FORMAT, count, vocabulary.bytes.length, pairCount, crc32(body) | 0);
  const temporary = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    writeFileSync(temporary, Buffer.concat([Buffer.from(header.buffer), body]));
    renameSync(temporary, path);
  } catch {
    rmSync(temporary, { force: true });
  }
}
