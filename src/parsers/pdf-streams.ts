import { DocumentLimitError } from "../errors.js";
import { unusable } from "./format.js";
import { streamDecryptor } from "./pdf-crypt.js";
import { InflatedPastCap, inflateRawCapped } from "./inflate-raw.js";

const MB = 1024 * 1024;

/** PDF names may escape characters as #xx (`/Flate#44ecode` is /FlateDecode, as pdfjs reads it). */
const unescapeNames = (text: string) => text.replace(/#([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/**
 * Indirect objects by "num gen", built on first use in one pass (the last definition wins, as
 * with incremental updates): the text of an object, to resolve a /Length or /Filter given by reference.
 */
function objectIndex(text: string): (num: string, gen: string) => string {
  let positions: Map<string, number> | null = null;
  return (num, gen) => {
    if (!positions) {
      positions = new Map();
      const re = /(\d+)\s+(\d+)\s+obj\b/g;
      let m: RegExpExecArray | null;
      while ((m = re.exec(text)) !== null) positions.set(`${Number(m[1])} ${Number(m[2])}`, m.index + m[0].length);
    }
    const at = positions.get(`${Number(num)} ${Number(gen)}`);
    if (at === undefined) return "";
    const body = text.slice(at, at + 4096);
    const end = body.indexOf("endobj");
    return end === -1 ? body : body.slice(0, end);
  };
}

/** Graphics-state nesting (`q` without `Q`) one content stream may reach; PDF 1.7 Annex C asks readers for 28. */
const MAX_GRAPHICS_STATE_DEPTH = 256;

/** Thrown by a decoder whose output would pass what is left of the budget. */
class OverBudget extends Error {}

/** A decoder's output: copied into 1 MB blocks, refused past `cap` bytes. */
class ByteSink {
  private blocks: Buffer[] = [];
  private block = Buffer.allocUnsafe(MB);
  private used = 0;
  total = 0;
  constructor(private readonly cap: number) {}
  push(bytes: Uint8Array): void {
    this.total += bytes.length;
    if (this.total > this.cap) throw new OverBudget();
    let from = 0;
    while (from < bytes.length) {
      const n = Math.min(bytes.length - from, this.block.length - this.used);
      this.block.set(bytes.subarray(from, from + n), this.used);
      this.used += n;
      from += n;
      if (this.used === this.block.length) {
        this.blocks.push(this.block);
        this.block = Buffer.allocUnsafe(MB);
        this.used = 0;
      }
    }
  }
  result(): Buffer {
    return Buffer.concat([...this.blocks, this.block.subarray(0, this.used)]);
  }
}

function asciiHexDecode(data: Buffer): Buffer {
  const hex = data
    .toString("latin1")
    .replace(/>[\s\S]*$/, "")
    .replace(/[^0-9a-fA-F]/g, "");
  return Buffer.from(hex.length % 2 ? `${hex}0` : hex, "hex");
}

function ascii85Decode(data: Buffer, cap: number): Buffer {
  const text = data
    .toString("latin1")
    .replace(/^\s*<~/, "")
    .replace(/~>[\s\S]*$/, "")
    .replace(/\s+/g, "");
  const out = new ByteSink(cap);
  const word = Buffer.alloc(4);
  let group: number[] = [];
  const flush = (n: number) => {
    while (group.length < 5) group.push(84);
    let value = 0;
    for (const c of group) value = value * 85 + c;
    word.writeUInt32BE(value % 2 ** 32);
    out.push(word.subarray(0, n));
    group = [];
  };
  for (const ch of text) {
    if (ch === "z" && group.length === 0) out.push(new Uint8Array(4));
    else if (ch >= "!" && ch <= "u") {
      group.push(ch.charCodeAt(0) - 33);
      if (group.length === 5) flush(4);
    }
  }
  if (group.length > 1) flush(group.length - 1);
  return out.result();
}

/** LZWDecode with EarlyChange 1 (the default), refused once the output would pass `cap`. */
function lzwDecode(data: Buffer, cap: number): Buffer {
  const out = new ByteSink(cap);
  let table: Buffer[] = [];
  const reset = () => {
    table = Array.from({ length: 258 }, (_, i) => Buffer.from([i]));
  };
  reset();
  let bits = 9;
  let buffer = 0;
  let held = 0;
  let previous: Buffer | null = null;
  for (const byte of data) {
    buffer = ((buffer << 8) | byte) & 0xffffff;
    held += 8;
    while (held >= bits) {
      const code = (buffer >>> (held - bits)) & ((1 << bits) - 1);
      held -= bits;
      if (code === 256) {
        reset();
        bits = 9;
        previous = null;
        continue;
      }
      if (code === 257) return out.result();
      let entry = table[code];
      if (!entry && previous && code === table.length) entry = Buffer.concat([previous, previous.subarray(0, 1)]);
      if (!entry) return out.result(); // corrupt: readers stop here
      out.push(entry);
      if (previous && table.length < 4096) table.push(Buffer.concat([previous, entry.subarray(0, 1)]));
      previous = entry;
      if (table.length + 1 >= 1 << bits && bits < 12) bits++;
    }
  }
  return out.result();
}

function runLengthDecode(data: Buffer, cap: number): Buffer {
  const out = new ByteSink(cap);
  for (let i = 0; i < data.length;) {
    const n = data[i]!;
    if (n === 128) break;
    if (n < 128) {
      out.push(data.subarray(i + 1, i + 2 + n));
      i += n + 2;
    } else {
      out.push(Buffer.alloc(257 - n, data[i + 1] ?? 0));
      i += 2;
    }
  }
  return out.result();
}

/** The filter names of a stream dictionary, in decoding order ([] when it has none). */
function filtersOf(dict: string): string[] {
  const m = /\/Filter\s*(\[[^\]]*\]|\/[^\s/[\]<>()]+)/.exec(dict);
  return m ? [...m[1]!.matchAll(/\/([^\s/[\]<>()]+)/g)].map((f) => f[1]!) : [];
}

/**
 * Decodes a stream through its filters with the output capped at `cap` (OverBudget past it);
 * null when a filter is one whose data is an image (DCT, JPX, CCITT, JBIG2) or is unknown: there
 * the chain stops, and what it decoded so far is what counted.
 */
function decodeCapped(data: Buffer, filters: string[], cap: number): { data: Buffer; complete: boolean } {
  for (const filter of filters) {
    switch (filter) {
      case "FlateDecode":
      case "Fl":
        if (data.length < 2) return { data, complete: false };
        try {
          // Raw inflate past the 2-byte zlib header: no checksum to trip over, and a truncated
          // stream yields what it holds, as pdfjs reads it.
          const inflated = inflateRawCapped(data.subarray(2), cap);
          if (inflated.corrupt) return { data, complete: false }; // pdfjs stops reading it too
          data = inflated.data;
        } catch (error) {
          if (error instanceof InflatedPastCap) throw new OverBudget();
          throw error;
        }
        break;
      case "ASCIIHexDecode":
      case "AHx":
        data = asciiHexDecode(data);
        break;
      case "ASCII85Decode":
      case "A85":
        data = ascii85Decode(data, cap);
        break;
      case "LZWDecode":
      case "LZW":
        data = lzwDecode(data, cap);
        break;
      case "RunLengthDecode":
      case "RL":
        data = runLengthDecode(data, cap);
        break;
      default:
        return { data, complete: false };
    }
    if (data.length > cap) throw new OverBudget();
  }
  return { data, complete: true };
}

/** The deepest `q` nesting of a content stream (tokens, not bytes inside words). */
function graphicsStateDepth(data: Buffer): number {
  let depth = 0;
  let deepest = 0;
  const text = data.toString("latin1");
  const re = /(?:^|[\s\]\[)>}])([qQ])(?=[\s\[\]\(<\/%{]|$)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    if (m[1] === "q") deepest = Math.max(deepest, ++depth);
    else depth = Math.max(0, depth - 1);
  }
  return deepest;
}

/**
 * Checks, before pdfjs reads anything, the two costs of a PDF's streams it cannot bound itself.
 * Size: every stream is decoded through its filters (Flate, LZW, RunLength, ASCIIHex, ASCII85;
 * image codecs end the chain) with the output capped at what is left of `max_unpacked_mb`, so a
 * 300 KB file inflating to gigabytes (the object-stream bomb) is refused at the cost of the budget
 * itself; pdfjs decodes into typed arrays, which a worker's heap limit does not bound. Nesting: a
 * content stream of 100,000 `q` operators (a 200 KB file) costs pdfjs minutes of CPU (each saved
 * state is a prototype-chained clone of the last, so lookups grow with depth); one past
 * MAX_GRAPHICS_STATE_DEPTH is refused. Streams are found as pdfjs finds them: the `stream`
 * keyword after the object's dictionary, the data's /Length when it is right (direct, or an
 * indirect number object), else up to the next `endstream`; a /Filter given by reference is
 * resolved; an encrypted file that opens without a password is decrypted first (pdf-crypt.ts).
 * Every scan moves forward, so the check is linear in the file.
 */
export function checkStreams(bytes: Buffer, filename: string, maxUnpackedBytes: number): void {
  const text = bytes.toString("latin1");
  let budget = maxUnpackedBytes;
  const indirectObject = objectIndex(text);
  const decrypt = streamDecryptor(text, indirectObject);
  const noMetadataEncryption = /\/EncryptMetadata\s+false/.test(text);
  const streamRe = /stream(\r\n|\n|\r)/g;
  let previousEnd = 0;
  let m: RegExpExecArray | null;
  while ((m = streamRe.exec(text)) !== null) {
    if (text.startsWith("end", m.index - 3)) continue;
    const before = text.slice(previousEnd, m.index);
    const objAt = before.lastIndexOf("obj");
    const ref = objAt === -1 ? null : /(\d+)\s+(\d+)\s+$/.exec(before.slice(Math.max(0, objAt - 24), objAt));
    let dict = unescapeNames(objAt === -1 ? before : before.slice(objAt));
    const filterRef = /\/Filter\s+(\d+)\s+(\d+)\s+R/.exec(dict);
    if (filterRef) dict = dict.replace(filterRef[0], `/Filter ${unescapeNames(indirectObject(filterRef[1]!, filterRef[2]!)).trim()}`);
    const dataStart = m.index + m[0].length;
    let dataEnd = -1;
    const lengthMatch = /\/Length\s+(\d+)(?:\s+(\d+)\s+R)?/.exec(dict);
    if (lengthMatch) {
      let length = Number(lengthMatch[1]);
      if (lengthMatch[2] !== undefined) {
        const ref = /^\s*(\d+)\s*$/.exec(indirectObject(lengthMatch[1]!, lengthMatch[2]));
        length = ref ? Number(ref[1]) : -1;
      }
      if (length >= 0 && /^\s*endstream/.test(text.slice(dataStart + length, dataStart + length + 16))) dataEnd = dataStart + length;
    }
    if (dataEnd === -1) dataEnd = text.indexOf("endstream", dataStart);
    if (dataEnd === -1) dataEnd = text.length;
    streamRe.lastIndex = dataEnd;
    previousEnd = dataEnd;
    const filters = filtersOf(dict);
    let data: Buffer | null = bytes.subarray(dataStart, dataEnd);
    // Streams of an encrypted file are checked decrypted, as pdfjs reads them (cross-reference
    // streams and, when so declared, metadata are stored in the clear).
    if (decrypt && ref && !/\/Type\s*\/XRef/.test(dict) && !filters.includes("Crypt") && !(noMetadataEncryption && /\/Type\s*\/Metadata/.test(dict))) {
      data = decrypt(Number(ref[1]), Number(ref[2]), data);
    }
    if (!data) continue;
    let decoded: { data: Buffer; complete: boolean };
    try {
      decoded = decodeCapped(data, filters, budget);
    } catch (error) {
      if (!(error instanceof OverBudget)) throw error;
      throw new DocumentLimitError(`${filename}: the PDF's compressed streams unpack to more than max_unpacked_mb (${maxUnpackedBytes / MB} MB)`);
    }
    if (filters.length > 0) budget -= decoded.data.length;
    if (decoded.complete && graphicsStateDepth(decoded.data) > MAX_GRAPHICS_STATE_DEPTH) {
      unusable(
        filename,
        `a content stream nests graphics states (q operators) more than ${MAX_GRAPHICS_STATE_DEPTH} deep, which no real document does; refused`,
      );
    }
  }
}
