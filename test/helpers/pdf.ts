import { createCipheriv, createHash } from "node:crypto";
import { constants, deflateRawSync } from "node:zlib";

/**
 * A tiny PDF writer for tests: numbered objects, a classic xref table and a trailer. Pages use
 * the standard Helvetica font (no font program embedded), so text is `BT /F1 size Tf x y Td (text) Tj ET`.
 */

/** One line of text on a page, at `y` points from the bottom (A4-ish page, 842 high). */
export interface PdfLine {
  text: string;
  size?: number;
  y: number;
  x?: number;
}

/** A page: lines of text, or none (an image-only page: a drawn rectangle and no text operator). */
export type PdfPage = PdfLine[];

/** Text as a PDF literal string in WinAnsiEncoding (Latin-1 plus a few, such as the bullet at 0x95). */
function escapePdfString(text: string): string {
  return text.replace(/[\\()]/g, (c) => `\\${c}`).replace(/[\u2022\u2013\u2014]/g, (c) => ({ "\u2022": "\x95", "\u2013": "\x96", "\u2014": "\x97" })[c]!);
}

/** A page's content stream. */
function contentOf(page: PdfPage): Buffer {
  if (page.length === 0) return Buffer.from("q 0.5 g 72 72 400 600 re f Q\n");
  return Buffer.from(page.map((l) => `BT /F1 ${l.size ?? 12} Tf ${l.x ?? 72} ${l.y} Td (${escapePdfString(l.text)}) Tj ET`).join("\n") + "\n", "latin1");
}

interface PdfObject {
  /** The dictionary (or other object) text, without `obj`/`endobj`. */
  body: string;
  stream?: Buffer;
}

/** Serialises objects 1..n (object i+1 is objects[i]), with the catalog as object 1; `encrypt` adds the trailer's /Encrypt and /ID. */
function serialise(objects: PdfObject[], trailerExtra = ""): Buffer {
  const parts: Buffer[] = [Buffer.from("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n", "latin1")];
  let length = parts[0]!.length;
  const offsets: number[] = [];
  const push = (b: Buffer) => {
    parts.push(b);
    length += b.length;
  };
  objects.forEach((o, i) => {
    offsets.push(length);
    if (o.stream) {
      push(Buffer.from(`${i + 1} 0 obj\n${o.body.replace(/>>\s*$/, ` /Length ${o.stream.length} >>`)}\nstream\n`, "latin1"));
      push(o.stream);
      push(Buffer.from("\nendstream\nendobj\n", "latin1"));
    } else {
      push(Buffer.from(`${i + 1} 0 obj\n${o.body}\nendobj\n`, "latin1"));
    }
  });
  const xrefAt = length;
  const xref = [`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`, ...offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`)].join("");
  push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R${trailerExtra} >>\nstartxref\n${xrefAt}\n%%EOF\n`, "latin1"));
  return Buffer.concat(parts);
}

/** Objects of a plain document: 1 catalog, 2 pages, 3 font, then per page its page object and content stream. */
function documentObjects(pages: PdfPage[], countOverride?: number): PdfObject[] {
  const kids = pages.map((_, i) => `${4 + 2 * i} 0 R`).join(" ");
  const objects: PdfObject[] = [
    { body: "<< /Type /Catalog /Pages 2 0 R >>" },
    { body: `<< /Type /Pages /Kids [${kids}] /Count ${countOverride ?? pages.length} >>` },
    { body: "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>" },
  ];
  pages.forEach((page, i) => {
    objects.push({ body: `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + 2 * i} 0 R >>` });
    objects.push({ body: "<< >>", stream: contentOf(page) });
  });
  return objects;
}

/**
 * The document's objects with a second font beside the standard one: Helvetica whose ToUnicode
 * map (a `bfrange` line of a CMap: source codes, then the first Unicode value) says what a reader
 * extracts, used by the pages `onPage` picks.
 */
function withMappedFont(objects: PdfObject[], bfrange: string, onPage: (i: number) => boolean): PdfObject[] {
  const pageCount = (objects.length - 3) / 2;
  const cmapAt = objects.length + 1;
  const fontAt = objects.length + 2;
  const cmap =
    "/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def " +
    "/CMapName /Adobe-Identity-UCS def /CMapType 2 def 1 begincodespacerange <00> <FF> endcodespacerange " +
    `1 beginbfrange ${bfrange} endbfrange endcmap CMapName currentdict /CMap defineresource pop end end\n`;
  objects.push({ body: "<< >>", stream: Buffer.from(cmap, "latin1") });
  objects.push({ body: `<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding /ToUnicode ${cmapAt} 0 R >>` });
  for (let i = 0; i < pageCount; i++) {
    if (!onPage(i)) continue;
    const pageObject = objects[3 + 2 * i]!;
    pageObject.body = pageObject.body.replace("/F1 3 0 R", `/F1 ${fontAt} 0 R`);
  }
  return objects;
}

/**
 * A PDF whose pages marked `glyphCodes` are set in a font whose ToUnicode map sends every capital
 * letter to the private use area: what a reader extracts from such pages is glyph codes, not text
 * (the font of a PDF made without a usable text mapping). Their lines are written in capitals.
 */
export function buildGlyphCodePdf(pages: Array<{ lines: string[]; glyphCodes?: boolean }>): Buffer {
  const objects = documentObjects(pages.map((p) => layoutParagraphs([{ lines: p.lines }])));
  return serialise(withMappedFont(objects, "<41> <5A> <E000>", (i) => pages[i]!.glyphCodes === true));
}

/**
 * A PDF of `paragraphs` whose font maps the byte 0xAD to U+00AD, the soft hyphen (in plain
 * WinAnsi it is a visible hyphen): "\u00AD" in a line is a break a typesetter allowed, invisible.
 */
export function buildSoftHyphenPdf(paragraphs: Array<{ lines: string[] }>): Buffer {
  return serialise(withMappedFont(documentObjects([layoutParagraphs(paragraphs)]), "<AD> <AD> <00AD>", () => true));
}

/**
 * A PDF of `paragraphs` whose font maps the bytes 0x8A and 0x8B (glyphs Helvetica has) to the
 * ligatures U+FB01 "ﬁ" and U+FB02 "ﬂ", as a typeset PDF's text layer gives them: write "\x8a" in
 * a line for "ﬁ", "\x8b" for "ﬂ".
 */
export function buildLigaturePdf(paragraphs: Array<{ lines: string[] }>): Buffer {
  return serialise(withMappedFont(documentObjects([layoutParagraphs(paragraphs)]), "<8A> <8B> <FB01>", () => true));
}

/** A PDF with the given pages. */
export function buildPdf(pages: PdfPage[]): Buffer {
  return serialise(documentObjects(pages));
}

/** Lines of paragraphs laid out top-down: a blank line's worth of gap between paragraphs, `size`-point text. */
export function layoutParagraphs(paragraphs: Array<{ lines: string[]; size?: number }>, top = 780): PdfPage {
  const page: PdfPage = [];
  let y = top;
  for (const p of paragraphs) {
    const size = p.size ?? 12;
    for (const line of p.lines) {
      page.push({ text: line, size, y });
      y -= Math.round(size * 1.25);
    }
    y -= 14; // the paragraph gap
  }
  return page;
}

/** A page of a report: a running header and footer around `body` paragraphs, the page number in the footer (page furniture). */
export function reportPage(n: number, body: Array<{ lines: string[] }>): PdfPage {
  return [
    { text: "Harbour Authority · Annual Report 2025", size: 9, y: 810 },
    ...layoutParagraphs(body, 770),
    { text: `Confidential draft   ${n}`, size: 9, y: 30 },
  ];
}

/** A page with no text at all: what a scanner produces (here a grey rectangle stands in for the image). */
export function buildImageOnlyPdf(pages = 2): Buffer {
  return buildPdf(Array.from({ length: pages }, () => []));
}

const PASSWORD_PAD = Buffer.from("28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a", "hex");

function md5(...parts: Buffer[]): Buffer {
  const h = createHash("md5");
  for (const p of parts) h.update(p);
  return h.digest();
}

/** RC4 (the standard security handler's cipher); a few lines, since OpenSSL 3 may not offer it. */
function rc4(key: Buffer, data: Buffer): Buffer {
  const s = Array.from({ length: 256 }, (_, i) => i);
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i]! + key[i % key.length]!) & 255;
    [s[i], s[j]] = [s[j]!, s[i]!];
  }
  const out = Buffer.alloc(data.length);
  for (let n = 0, i = 0, j = 0; n < data.length; n++) {
    i = (i + 1) & 255;
    j = (j + s[i]!) & 255;
    [s[i], s[j]] = [s[j]!, s[i]!];
    out[n] = data[n]! ^ s[(s[i]! + s[j]!) & 255]!;
  }
  return out;
}

/** Algorithm 2.B of ISO 32000-2 (R6 password hash), written here independently of src/. */
function hashR6(password: Buffer, salt: Buffer, udata: Buffer): Buffer {
  let k = createHash("sha256").update(password).update(salt).update(udata).digest();
  let round = 0;
  let e = Buffer.alloc(0);
  while (round < 64 || e[e.length - 1]! > round - 32) {
    const k1 = Buffer.concat(Array.from({ length: 64 }, () => Buffer.concat([password, k, udata])));
    const cipher = createCipheriv("aes-128-cbc", k.subarray(0, 16), k.subarray(16, 32)).setAutoPadding(false);
    e = Buffer.concat([cipher.update(k1), cipher.final()]);
    const mod = [...e.subarray(0, 16)].reduce((a, b) => a + b, 0) % 3;
    k = createHash(["sha256", "sha384", "sha512"][mod]!).update(e).digest();
    round++;
  }
  return k.subarray(0, 32);
}

export interface EncryptionOptions {
  /** "" opens without a password (an owner-restricted file, which readers open as readily). */
  userPassword?: string;
  ownerPassword?: string;
  /** rc4-40: R2; aes-128: V4 R4 AESV2; aes-256: V5 R6 AESV3. */
  cipher?: "rc4-40" | "aes-128" | "aes-256";
  /** The page's content stream in place of one line of text: its dictionary and (encoded) data. */
  content?: { dict: string; stream: Buffer };
}

/**
 * A PDF encrypted with the standard security handler (PDF 1.7 7.6.3, ISO 32000-2 7.6.4), every
 * stream encrypted with its object's key. With a non-empty user password a reader cannot open it
 * without the password; with an empty one it opens as usual.
 */
export function buildEncryptedPdf(options: EncryptionOptions = {}): Buffer {
  const { userPassword = "secret", ownerPassword = "owner", cipher = "rc4-40" } = options;
  const pad = (p: string) => Buffer.concat([Buffer.from(p, "latin1"), PASSWORD_PAD]).subarray(0, 32);
  const permissions = -4; // every permission bit set but the reserved low ones
  const fileId = md5(Buffer.from("chunkeval-test-pdf"));
  const p = Buffer.alloc(4);
  p.writeInt32LE(permissions);
  const content = options.content ?? { dict: "<< >>", stream: contentOf(layoutParagraphs([{ lines: ["Quarterly results are confidential."] }])) };
  const objects: PdfObject[] = [
    { body: "<< /Type /Catalog /Pages 2 0 R >>" },
    { body: "<< /Type /Pages /Kids [4 0 R] /Count 1 >>" },
    { body: "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>" },
    { body: "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents 5 0 R >>" },
    { body: content.dict, stream: content.stream },
  ];
  const iv = Buffer.from("0123456789abcdef");
  const aes = (key: Buffer, data: Buffer) => {
    const c = createCipheriv(key.length === 32 ? "aes-256-cbc" : "aes-128-cbc", key, iv);
    return Buffer.concat([iv, c.update(data), c.final()]);
  };
  let encrypt: string;
  let streamKey: (objectNumber: number) => (data: Buffer) => Buffer;
  if (cipher === "aes-256") {
    const fileKey = createHash("sha256").update("chunkeval file key").digest();
    const [uvs, uks, ovs, oks] = ["uvsalt01", "ukslt001", "ovsalt01", "okslt001"].map((x) => Buffer.from(x));
    const user = Buffer.from(userPassword, "utf8");
    const owner = Buffer.from(ownerPassword, "utf8");
    const wrap = (key: Buffer) => {
      const c = createCipheriv("aes-256-cbc", key, Buffer.alloc(16)).setAutoPadding(false);
      return Buffer.concat([c.update(fileKey), c.final()]);
    };
    const u = Buffer.concat([hashR6(user, uvs!, Buffer.alloc(0)), uvs!, uks!]);
    const ue = wrap(hashR6(user, uks!, Buffer.alloc(0)));
    const o = Buffer.concat([hashR6(owner, ovs!, u), ovs!, oks!]);
    const oe = wrap(hashR6(owner, oks!, u));
    const permsPlain = Buffer.concat([p, Buffer.from([255, 255, 255, 255]), Buffer.from("Tadb"), Buffer.from("0000")]);
    const ecb = createCipheriv("aes-256-ecb", fileKey, null).setAutoPadding(false);
    const perms = Buffer.concat([ecb.update(permsPlain), ecb.final()]);
    encrypt =
      `<< /Filter /Standard /V 5 /R 6 /Length 256 /CF << /StdCF << /CFM /AESV3 /AuthEvent /DocOpen /Length 32 >> >> /StmF /StdCF /StrF /StdCF ` +
      `/O <${o.toString("hex")}> /U <${u.toString("hex")}> /OE <${oe.toString("hex")}> /UE <${ue.toString("hex")}> ` +
      `/P ${permissions} /Perms <${perms.toString("hex")}> >>`;
    streamKey = () => (data) => aes(fileKey, data);
  } else {
    const r = cipher === "rc4-40" ? 2 : 4;
    const n = r === 2 ? 5 : 16;
    // Algorithm 3: the O entry, from the owner password.
    let ownerKey = md5(pad(ownerPassword));
    if (r >= 3) for (let i = 0; i < 50; i++) ownerKey = md5(ownerKey);
    ownerKey = ownerKey.subarray(0, n);
    let o = rc4(ownerKey, pad(userPassword));
    if (r >= 3) for (let i = 1; i <= 19; i++) o = rc4(Buffer.from(ownerKey.map((b) => b ^ i)), o);
    // Algorithm 2: the file key, from the user password.
    let key = md5(pad(userPassword), o, p, fileId);
    if (r >= 3) for (let i = 0; i < 50; i++) key = md5(key.subarray(0, n));
    key = key.subarray(0, n);
    // Algorithms 4 (R2) and 5 (R3+): the U entry.
    let u: Buffer;
    if (r === 2) u = rc4(key, PASSWORD_PAD);
    else {
      u = rc4(key, md5(PASSWORD_PAD, fileId));
      for (let i = 1; i <= 19; i++) u = rc4(Buffer.from(key.map((b) => b ^ i)), u);
      u = Buffer.concat([u, Buffer.alloc(16, 0x2a)]);
    }
    const cf = r === 4 ? "/CF << /StdCF << /CFM /AESV2 /AuthEvent /DocOpen /Length 16 >> >> /StmF /StdCF /StrF /StdCF " : "";
    const entries = `/O <${o.toString("hex")}> /U <${u.toString("hex")}> /P ${permissions}`;
    encrypt = `<< /Filter /Standard /V ${r === 2 ? 1 : 4} /R ${r} /Length ${n * 8} ${cf}${entries} >>`;
    streamKey = (objectNumber) => {
      const num = Buffer.alloc(5);
      num.writeUIntLE(objectNumber, 0, 3);
      // Algorithm 1: the object's key (AESV2 salts it with "sAlT").
      const objectKey = md5(key, num, r === 4 ? Buffer.from("sAlT") : Buffer.alloc(0)).subarray(0, Math.min(n + 5, 16));
      return (data) => (r === 4 ? aes(objectKey, data) : rc4(objectKey, data));
    };
  }
  objects.forEach((obj, i) => {
    if (obj.stream) obj.stream = streamKey(i + 1)(obj.stream);
  });
  objects.push({ body: encrypt });
  return serialise(objects, ` /Encrypt ${objects.length} 0 R /ID [<${fileId.toString("hex")}> <${fileId.toString("hex")}>]`);
}

/**
 * The page bomb: a page tree of `fan` × `fan` pages in three small objects (the root's kids are
 * one intermediate node `fan` times over, whose kids are one page `fan` times over). The counts
 * are true, so a reader believes it: 1,000 × 1,000 is a million pages in about 8 KB.
 */
export function buildPageTreeBomb(fan: number): Buffer {
  return serialise([
    { body: "<< /Type /Catalog /Pages 2 0 R >>" },
    { body: `<< /Type /Pages /Kids [${Array(fan).fill("3 0 R").join(" ")}] /Count ${fan * fan} >>` },
    { body: `<< /Type /Pages /Parent 2 0 R /Kids [${Array(fan).fill("4 0 R").join(" ")}] /Count ${fan} >>` },
    { body: "<< /Type /Page /Parent 3 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >> /Contents 6 0 R >>" },
    { body: "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>" },
    { body: "<< >>", stream: contentOf(layoutParagraphs([{ lines: ["The same page again."] }])) },
  ]);
}

/**
 * A page tree with `pages` real pages that share one content stream: a small file with many
 * pages (each page object is about 150 bytes).
 */
export function buildManyPagesPdf(pages: number): Buffer {
  const objects: PdfObject[] = [
    { body: "<< /Type /Catalog /Pages 2 0 R >>" },
    { body: `<< /Type /Pages /Kids [${Array.from({ length: pages }, (_, i) => `${5 + i} 0 R`).join(" ")}] /Count ${pages} >>` },
    { body: "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>" },
    { body: "<< >>", stream: contentOf(layoutParagraphs([{ lines: ["A page."] }])) },
  ];
  for (let i = 0; i < pages; i++)
    objects.push({ body: "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents 4 0 R >>" });
  return serialise(objects);
}

/**
 * One page whose content stream is FlateDecode data inflating to `inflatedMb` MB of spaces and
 * then one text operator: the PDF object-stream bomb (a ~1000:1 ratio, so 300 MB fit in ~300 KB).
 * A reader that inflates all of it to find the text needs that much memory.
 */
export function flateBombStream(inflatedMb: number): { dict: string; stream: Buffer } {
  return {
    dict: "<< /Filter /FlateDecode >>",
    stream: zlibRepeated(Buffer.alloc(1024 * 1024, 0x20), inflatedMb, Buffer.from("BT /F1 12 Tf 72 700 Td (bomb) Tj ET\n")),
  };
}

export function buildFlateBomb(inflatedMb: number): Buffer {
  const objects: PdfObject[] = [
    { body: "<< /Type /Catalog /Pages 2 0 R >>" },
    { body: "<< /Type /Pages /Kids [4 0 R] /Count 1 >>" },
    { body: "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>" },
    { body: "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents 5 0 R >>" },
    {
      body: "<< /Filter /FlateDecode >>",
      stream: zlibRepeated(Buffer.alloc(1024 * 1024, 0x20), inflatedMb, Buffer.from("BT /F1 12 Tf 72 700 Td (bomb) Tj ET\n")),
    },
  ];
  return serialise(objects);
}

/**
 * A zlib stream of `block` repeated `times` times, then `tail`, built without ever holding the
 * inflated data: fully flushed raw deflate blocks concatenate into one valid stream (as in
 * helpers/zip.ts), behind a zlib header. The Adler-32 trailer is left zero (readers of
 * FlateDecode, pdfjs included, do not check it).
 */
function zlibRepeated(block: Buffer, times: number, tail: Buffer): Buffer {
  const one = deflateRawSync(block, { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  return Buffer.concat([Buffer.from([0x78, 0xda]), ...Array.from({ length: times }, () => one), deflateRawSync(tail), Buffer.alloc(4)]);
}

/**
 * LZWDecode data (EarlyChange 1) of the given codes followed by end-of-data, packed at the widths
 * a decoder reads them with: 9 bits, growing as its table fills (an entry per code after the first).
 */
function packLzw(codes: number[]): Buffer {
  const out: number[] = [];
  let acc = 0;
  let held = 0;
  let tableLength = 258;
  let bits = 9;
  const write = (code: number) => {
    acc = (acc << bits) | code;
    held += bits;
    while (held >= 8) {
      out.push((acc >>> (held - 8)) & 255);
      held -= 8;
    }
    acc &= (1 << held) - 1;
  };
  codes.forEach((code, i) => {
    write(code);
    if (i > 0 && tableLength < 4096) tableLength++;
    if (tableLength + 1 >= 1 << bits && bits < 12) bits++;
  });
  write(257);
  if (held > 0) out.push((acc << (8 - held)) & 255);
  return Buffer.from(out);
}

/** One page whose content stream is LZWDecode data: `text` as literal codes (no compression). */
export function buildLzwPdf(text: string): Buffer {
  const content = packLzw([...Buffer.from(`BT /F1 12 Tf 72 700 Td (${escapePdfString(text)}) Tj ET\n`, "latin1")]);
  return singleContentPdf("<< /Filter /LZWDecode >>", content);
}

/**
 * The LZW bomb: spaces coded as ever longer runs until the table is full, then its longest run
 * (3,839 spaces in 12 bits) repeated, about 2,500:1; `inflatedMb` of spaces in a few hundred KB.
 */
export function buildLzwBomb(inflatedMb: number): Buffer {
  const codes = [0x20];
  for (let code = 258; code < 4096; code++) codes.push(code);
  const repeats = Math.ceil((inflatedMb * 1024 * 1024) / 3839);
  for (let i = 0; i < repeats; i++) codes.push(4095);
  return singleContentPdf("<< /Filter /LZWDecode >>", packLzw(codes));
}

/** One page whose content stream nests `depth` graphics states (q) before its text: a CPU bomb for pdfjs. */
export function buildGraphicsStateBomb(depth: number): Buffer {
  return singleContentPdf("<< >>", Buffer.from(`${"q ".repeat(depth)}BT /F1 12 Tf 72 700 Td (nested) Tj ET\n`));
}

function singleContentPdf(dict: string, content: Buffer): Buffer {
  return serialise([
    { body: "<< /Type /Catalog /Pages 2 0 R >>" },
    { body: "<< /Type /Pages /Kids [4 0 R] /Count 1 >>" },
    { body: "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>" },
    { body: "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents 5 0 R >>" },
    { body: dict, stream: content },
  ]);
}
