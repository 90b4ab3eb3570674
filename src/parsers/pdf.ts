import { isEnglishWord } from "../text/english-words.js";
import { ChunkevalError, DocumentLimitError } from "../errors.js";
import { conciseReason, unusable, type BlockDraft, type DocumentFormat } from "./format.js";
import type { ParseLimits } from "./limits.js";
import { isUtf8Text } from "./text-family.js";
import { checkStreams } from "./pdf-streams.js";
import { HEADING_SIZE_RATIO, markFurniture, pageLines, type Line, type TextItemLike } from "./pdf-layout.js";

const PDF_MAGIC = Buffer.from("%PDF-");
/** Readers accept the header anywhere in the first KB (junk before it is common). */
const HEADER_WINDOW = 1024;

/** A bullet glyph and the space after it, opening a list item's first line. */
const BULLET = /^[•◦▪‣∙●○■□➢►–]\s+/;

/** The font height most of the document's characters are set in: the body text. */
function bodySize(lines: Line[]): number {
  const weight = new Map<number, number>();
  for (const l of lines) weight.set(Math.round(l.size), (weight.get(Math.round(l.size)) ?? 0) + l.text.length);
  return [...weight.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]?.[0] ?? 0;
}

/**
 * Paragraphs from lines: a new one starts on a new page, where the vertical gap to the previous
 * line is clearly wider than the line spacing, where the font height changes, or at a bullet
 * (a bulleted paragraph is a list item). A short
 * paragraph set larger than the body text is a heading; the largest heading size is level 1, the
 * next level 2, and so on (at most 6).
 */
export function linesToBlocks(lines: Line[], body: number): BlockDraft[] {
  const joinLines = lineJoiner(lines);
  const paragraphs: Array<{ lines: Line[] }> = [];
  let prev: Line | null = null;
  for (const line of lines) {
    const last = paragraphs[paragraphs.length - 1];
    const sameSize = prev !== null && Math.abs(prev.size - line.size) <= 0.5;
    const gap = prev !== null ? prev.y - line.y : 0;
    const newItem = BULLET.test(line.text.trimStart());
    // A header, footer or page number is a block of its own, and no paragraph runs through it.
    const apart = line.furniture || prev?.furniture;
    if (!last || !prev || apart || prev.page !== line.page || !sameSize || gap <= 0 || gap > line.size * 1.6 || newItem) paragraphs.push({ lines: [line] });
    else last.lines.push(line);
    prev = line;
  }
  const isHeading = (p: { lines: Line[] }) => {
    if (p.lines[0]!.furniture) return false;
    const size = Math.round(p.lines[0]!.size);
    const length = p.lines.reduce((n, l) => n + l.text.length, 0);
    return body > 0 && size >= body * HEADING_SIZE_RATIO && p.lines.length <= 3 && length <= 200;
  };
  const headingSizes = [...new Set(paragraphs.filter(isHeading).map((p) => Math.round(p.lines[0]!.size)))].sort((a, b) => b - a);
  return paragraphs.map((p) => {
    // A soft hyphen inside a line is invisible to a reader (the joiner used those at line ends).
    const text = joinLines(p.lines.map((l) => foldAccents(foldLigatures(l.text.trim())))).replace(SOFT_HYPHENS, "");
    const page = p.lines[0]!.page;
    if (p.lines[0]!.furniture) return { kind: "furniture" as const, level: 0, text, page };
    if (isHeading(p)) return { kind: "heading" as const, level: Math.min(6, headingSizes.indexOf(Math.round(p.lines[0]!.size)) + 1), text, page };
    // A bulleted line starts a list item; the bullet glyph is layout, not text (as mammoth drops Word's).
    if (BULLET.test(text)) return { kind: "list_item" as const, level: 1, text: text.replace(BULLET, ""), page };
    return { kind: "paragraph" as const, level: 0, text, page };
  });
}

/** The typographic ligatures a PDF's fonts map single glyphs to (ﬁ, ﬂ, ﬀ, ﬃ, ﬄ, ﬅ, ﬆ): a reader copies their letters. */
const LIGATURE = /[\uFB00-\uFB06]/g;
const foldLigatures = (text: string) => text.replace(LIGATURE, (c) => c.normalize("NFKC"));

const SOFT_HYPHENS = /\u00AD/g;

/**
 * An accent TeX sets as a glyph of its own before the letter ("Universit¨at", "T´errific", "˚A"):
 * pdf.js gives the spacing accent, a reader and pdftotext the accented letter. Folded into it
 * (NFC), so "Universität" is found as typed. A tilde only before n, a or o (ñ, ã, õ: a URL's
 * "/˜name" stays), a grave only inside a word ("probl`eme": a backtick before a word is code's).
 */
const SPACING_ACCENT = /([\u00A8\u00B4\u02C6\u02DA\u02C7\u02D8\u02DD])(\p{L})|(\u02DC)([nNaAoO])|(?<=\p{L})(`)([aeiouAEIOU])/gu;
const COMBINING: Record<string, string> = {
  "\u00A8": "\u0308",
  "\u00B4": "\u0301",
  "\u02C6": "\u0302",
  "\u02DA": "\u030A",
  "\u02C7": "\u030C",
  "\u02D8": "\u0306",
  "\u02DD": "\u030B",
  "\u02DC": "\u0303",
  "`": "\u0300",
};
const foldAccents = (text: string) =>
  text.replace(SPACING_ACCENT, (_, a1, l1, a2, l2, a3, l3) => {
    const [accent, letter] = [a1 ?? a2 ?? a3, l1 ?? l2 ?? l3];
    return `${letter}${COMBINING[accent]}`.normalize("NFC");
  });

/** A line that ends inside a word broken by a hyphen (or a soft hyphen) at the line's end: "Af-", "com\u00AD". */
const BROKEN_WORD_END = /([\p{L}]+)(-|\u00AD)$/u;
/** The letters a line ends with, when it ends inside a word (no hyphen, no punctuation after them). */
const LAST_WORD = /(?:^|[^\p{L}-])([\p{L}]+)$/u;
/** How much of a paragraph's end the line joiner reads: longer than any word. */
const END_WINDOW = 256;
/** The word a line starts with. */
const WORD_START = /^([\p{L}]+)/u;
const WORDS = /[\p{L}]+(?:-[\p{L}]+)*/gu;

/**
 * Joins a paragraph's lines as a reader copies them: with a space, except where a word was broken
 * at the line's end. A soft hyphen always goes; a hyphen goes where the document spells the joined
 * word without one elsewhere ("after" for "Af- ter"), stays where it spells it with one
 * ("well-known"), and otherwise goes before a lower-case letter (typesetting's hyphenation) and
 * stays before a capital ("non-European"). The document's words are read once, from every line.
 *
 * A soft hyphen at a line's end may leave no trace at all: pdfjs drops a glyph mapped to U+00AD
 * from the text, and its width with it, so "com\u00AD" + "pass" arrives as "com" + "pass". Two
 * such lines are joined without a space when the document spells the joined word elsewhere and
 * never writes the head as a word inside a line ("compass" somewhere, "com" only at this break);
 * any other pair keeps its space.
 */
/**
 * Whether a hyphen at a line's end ("head-" / "tail") is the word's own: the document spells the
 * hyphenated form elsewhere and never the joined one, or the tail starts with a capital
 * ("Trace-Monkey"), or, where the document says nothing, the two halves are English words and
 * the two written together are not ("third-party", "self-driving"; "com-pile" and "par-ticularly"
 * join). Otherwise the hyphen only breaks the word.
 */
function keepsHyphen(head: string, tail: string, spelt: ReadonlySet<string>): boolean {
  const joined = `${head}${tail}`.toLowerCase();
  if (spelt.has(joined)) return false;
  if (spelt.has(`${head}-${tail}`.toLowerCase()) || tail[0] !== tail[0]!.toLowerCase()) return true;
  return !isEnglishWord(joined) && isEnglishWord(head) && isEnglishWord(tail);
}

/**
 * Whether a line ending in `head` and a next line starting with `tail`, with no hyphen between
 * (pdf.js drops a soft hyphen's glyph), are one word broken: written together they are an English
 * word and the head alone, in lower case, is not ("com" / "pile"). A name or an acronym at a
 * line's end is never taken for a fragment.
 */
function fragmentOfWord(head: string, tail: string): boolean {
  return head === head.toLowerCase() && !isEnglishWord(head) && isEnglishWord(`${head}${tail}`);
}

function lineJoiner(lines: Line[]): (texts: string[]) => string {
  const spelt = new Set<string>();
  // Words written inside a line (followed by more of it): a line's last word may be a fragment.
  const inside = new Set<string>();
  for (const line of lines) {
    const words = [...foldLigatures(line.text).matchAll(WORDS)].map((m) => m[0].toLowerCase());
    for (const [i, word] of words.entries()) {
      spelt.add(word);
      if (i < words.length - 1) inside.add(word);
    }
  }
  return (texts) => {
    let out = texts[0] ?? "";
    for (const next of texts.slice(1)) {
      // The end of the text so far is all the end-anchored patterns read: run on the whole of a long
      // paragraph, each line would rescan it (quadratic in the paragraph's length).
      const end = out.slice(-END_WINDOW);
      // A number broken after its hyphen ("978-" / "0521872652", "3-" / "540-65193"): one token, hyphen kept.
      if (/\d-$/.test(end) && /^\d/.test(next)) {
        out += next;
        continue;
      }
      const broken = BROKEN_WORD_END.exec(end);
      const start = WORD_START.exec(next);
      if (!broken || !start) {
        const head = start && !broken ? LAST_WORD.exec(end)?.[1] : undefined;
        const tail = start?.[1];
        // Two letters at least on each side, as hyphenation leaves them (TeX's and word processors' minimums).
        const unmarkedBreak =
          head &&
          tail &&
          head.length >= 2 &&
          tail.length >= 2 &&
          tail[0] === tail[0]!.toLowerCase() &&
          !inside.has(head.toLowerCase()) &&
          (spelt.has(`${head}${tail}`.toLowerCase()) || fragmentOfWord(head, tail));
        out += unmarkedBreak ? next : ` ${next}`;
        continue;
      }
      const [, head, mark] = broken;
      const tail = start[1]!;
      // Inside a URL or an address a hyphen is the name's own ("data-umass"): TeX breaks those without adding one.
      const inAddress = /[/@]|www\./.test(/\S*$/.exec(end)![0]);
      out = out.slice(0, out.length - 1) + (mark === "-" && (inAddress || keepsHyphen(head!, tail, spelt)) ? "-" : "") + next;
    }
    return out;
  };
}

/** Reads the text layer of every page with pdfjs (legacy build, for Node 20), in the calling thread. */
async function extractPdfBlocks(bytes: Buffer, filename: string, limits: ParseLimits): Promise<BlockDraft[]> {
  // Loaded on first use: only the parsing worker ever needs pdfjs.
  const pdfjs = await import("pdfjs-dist/legacy/build/pdf.mjs");
  const task = pdfjs.getDocument({
    data: new Uint8Array(bytes),
    // VerbosityLevel.ERRORS: pdfjs's warnings (and its info lines) are not printed, so nothing
    // reaches stdout/stderr; what is wrong with a file surfaces as the error it throws.
    verbosity: 0,
    // No code generated from the file (PostScript functions), no system or embedded fonts
    // loaded: the text layer needs none of them, and nothing is fetched or drawn.
    isEvalSupported: false,
    useSystemFonts: false,
    disableFontFace: true,
    // A damaged part of a page loses its text, not the whole document.
    stopAtErrors: false,
  });
  try {
    let doc: Awaited<typeof task.promise>;
    try {
      doc = await task.promise;
    } catch (error) {
      if ((error as { name?: string }).name === "PasswordException") {
        unusable(filename, "the PDF is encrypted (password-protected); save or print it without a password and upload again", error);
      }
      unusable(filename, `corrupt .pdf file (${conciseReason(error)})`, error);
    }
    if (doc.numPages > limits.maxPdfPages) {
      throw new DocumentLimitError(`${filename}: the PDF has ${doc.numPages} pages, more than max_pdf_pages (${limits.maxPdfPages})`);
    }
    const lines: Line[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      const [width, height] = [Math.abs((page.view[2] ?? 0) - (page.view[0] ?? 0)), Math.abs((page.view[3] ?? 0) - (page.view[1] ?? 0))];
      for (const line of pageLines(content.items.filter((i) => "str" in i) as TextItemLike[], n, width, height)) lines.push(line);
      page.cleanup();
    }
    if (lines.length === 0) unusable(filename, "no text layer: run OCR first (the PDF's pages hold no text, only images or drawings)");
    const body = bodySize(lines);
    markFurniture(lines, body);
    return linesToBlocks(lines, body);
  } catch (error) {
    if (error instanceof ChunkevalError) throw error;
    unusable(filename, `corrupt .pdf file (${conciseReason(error)})`, error);
  } finally {
    await task.destroy();
  }
}

/** PDF: the text layer of each page (pdfjs-dist); every block carries its page number. */
export const pdfFormat: DocumentFormat = {
  name: "pdf",
  extension: ".pdf",
  // "%PDF-" opens the file (after whitespace), or, as readers accept, appears in its first KB
  // after binary junk; text that merely mentions "%PDF-" near its start stays text.
  detect: (bytes) => {
    const at = bytes.subarray(0, HEADER_WINDOW).indexOf(PDF_MAGIC);
    if (at === -1) return false;
    return bytes.subarray(0, at).toString("latin1").trim() === "" || !isUtf8Text(bytes.subarray(0, at));
  },
  async parse(bytes, filename, limits) {
    checkStreams(bytes, filename, limits.zip.maxUnpackedBytes);
    return extractPdfBlocks(bytes, filename, limits);
  },
};
