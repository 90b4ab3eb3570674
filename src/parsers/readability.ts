import { unusable, type BlockDraft } from "./format.js";

/**
 * Characters no readable text is made of: C0 and C1 control characters but tab and line breaks,
 * the private use area, and the replacement character. A PDF whose fonts map glyph codes to
 * nothing a reader knows gives such text ("\x1e\x19\x04 …"); so does a binary file saved as .txt.
 */
const isJunk = (c: number) => (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || (c >= 0x7f && c <= 0x9f) || (c >= 0xe000 && c <= 0xf8ff) || c === 0xfffd;
const isSpace = (c: number) => c === 0x20 || (c >= 0x09 && c <= 0x0d) || c === 0xa0 || (c >= 0x2000 && c <= 0x200a) || c === 0x3000;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
/** A page whose visible characters are at least this share junk is not text. */
const UNREADABLE_SHARE = 0.3;

/** Visible (non-space) characters and the junk among them, in one pass without copies (texts can be large). */
function count(text: string): { visible: number; junk: number } {
  let visible = 0;
  let junk = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isSpace(c)) continue;
    visible++;
    if (isJunk(c)) junk++;
  }
  return { visible, junk };
}

/** "2-23", "4", "2-5, 9 and 11": page numbers as ranges. */
function pageRanges(pages: number[]): string {
  const runs: string[] = [];
  for (let i = 0; i < pages.length;) {
    let j = i;
    while (j + 1 < pages.length && pages[j + 1] === pages[j]! + 1) j++;
    runs.push(i === j ? `${pages[i]}` : `${pages[i]}-${pages[j]}`);
    i = j + 1;
  }
  return runs.length <= 1 ? runs.join("") : `${runs.slice(0, -1).join(", ")} and ${runs[runs.length - 1]}`;
}

/**
 * Refuses a document whose text is not readable: when most of its visible characters lie on
 * pages (or, without pages, in a text) that are glyph codes rather than letters, naming those
 * pages; and a text with no letter or digit at all (a PDF's stray marks). A few unreadable pages in a
 * readable document are kept.
 */
export function refuseUnreadableText(filename: string, format: string, drafts: BlockDraft[]): void {
  const byPage = new Map<number, { visible: number; junk: number }>();
  let total = 0;
  let hasLetter = false;
  for (const d of drafts) {
    const page = d.page ?? 0;
    const counts = byPage.get(page) ?? { visible: 0, junk: 0 };
    const { visible, junk } = count(d.text);
    counts.visible += visible;
    counts.junk += junk;
    byPage.set(page, counts);
    total += visible;
    // Counted only up to what the checks below need.
    hasLetter ||= LETTER_OR_DIGIT.test(d.text);
  }
  const unreadable = [...byPage.entries()].filter(([, c]) => c.visible > 0 && c.junk / c.visible >= UNREADABLE_SHARE);
  const unreadableChars = unreadable.reduce((n, [, c]) => n + c.visible, 0);
  if (total > 0 && unreadableChars / total >= 0.5) {
    const pages = unreadable.map(([p]) => p).filter((p) => p > 0);
    const where =
      pages.length === 0
        ? `${filename}'s text is`
        : pages.length === 1
          ? `page ${pages[0]} of ${filename} is`
          : `pages ${pageRanges(pages)} of ${filename} are`;
    const hint = format === "pdf" ? "run OCR first (its fonts map their glyphs to no readable text)" : "is it a binary file saved under a text format?";
    unusable(filename, `${where} glyph codes or control characters, not text: ${hint}`);
  }
  // A few letters stay a document (a one-line note is one); none is no text, whatever the marks.
  if (!hasLetter) unusable(filename, `the document contains no text: no letter or digit${format === "pdf" ? " (a scanned document? run OCR first)" : ""}`);
}
