import { unusable, type BlockDraft } from "./format.js";

/**
 * Characters no readable text is made of: C0 and C1 control characters but tab and line breaks,
 * the private use area, and the replacement character. A PDF whose fonts map glyph codes to
 * nothing a reader knows gives such text ("\x1e\x19\x04 …"); so does a binary file saved as .txt.
 */
const isJunk = (c: number) => (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || (c >= 0x7f && c <= 0x9f) || (c >= 0xe000 && c <= 0xf8ff) || c === 0xfffd;
const isSpace = (c: number) => c === 0x20 || (c >= 0x09 && c <= 0x0d) || c === 0xa0 || (c >= 0x2000 && c <= 0x200a) || c === 0x3000;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
/**
 * Chinese characters and Japanese kana (letters: the prolonged sound mark ー, not the full stop 。): written without
 * spaces, each carries about what a short Latin word does, so toward min_text_characters each counts
 * as UNSPACED_CHARACTER_WEIGHT. A 7-character Chinese or Japanese sentence is a document; "p. 7" or
 * "第七页。" is not. Alphabets written without spaces (Thai, Lao, Khmer, Burmese) count a letter as
 * one, as Latin letters do.
 */
const UNSPACED_SCRIPT = /(?=\p{L})[\p{Script_Extensions=Han}\p{Script_Extensions=Hiragana}\p{Script_Extensions=Katakana}]/gu;
const UNSPACED_CHARACTER_WEIGHT = 3;
/** A page whose visible characters are at least this share junk is not text. */
const UNREADABLE_SHARE = 0.3;

/**
 * Letters in no language's pattern: a font whose table maps its glyphs to the wrong letters gives
 * letters where a reader sees words ("Wkh kduerxu slorw"). Two independent signs, both required,
 * over a page's Latin letters (accents folded) and only where there are enough of them to count:
 * the share of its letters that are among the eleven commonest in the languages written in Latin
 * letters (e a i o n s r t l u d: 70-86 % in samples of English, German, French, Finnish, Czech,
 * Croatian, Hungarian, Turkish, Vietnamese or Welsh, 60 % of Polish, 57 % of a list of gene names;
 * 42 % of letters drawn at random, as of English shifted three letters on), and the share of its
 * words of two or more letters with no vowel (a, e, i, o, u, y: at most 11 % in those languages,
 * about a third of random words, half of shifted English). Code (two-thirds of its words without a
 * vowel) passes the first; a page of another script is not judged. Measured on the samples in
 * test/parsers/unreadable-text.test.ts. Judged on PDF pages only (readableText).
 */
const SHAPE_MIN_LETTERS = 200;
const COMMON_LETTERS = new Set("eaionsrtlud");
const VOWELS = /[aeiouy]/;
const MAX_COMMON_SHARE = 0.5;
const MIN_VOWELLESS_SHARE = 0.2;

interface PageCounts {
  visible: number;
  junk: number;
  /** The page's text, kept only while it is short enough to judge its letters (see lettersOutOfPattern). */
  texts: string[];
}

/** Visible (non-space) characters and the junk among them, in one pass without copies (texts can be large). */
function count(text: string, into: PageCounts): void {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isSpace(c)) continue;
    into.visible++;
    if (isJunk(c)) into.junk++;
  }
}

/** Letters to judge per page: the shape of a few thousand letters is as clear as that of a million. */
const SHAPE_SAMPLE = 20_000;

/** True when a page's Latin letters follow no language's pattern (see SHAPE_MIN_LETTERS). */
export function lettersOutOfPattern(text: string): boolean {
  const folded = text.slice(0, SHAPE_SAMPLE).normalize("NFD").toLowerCase();
  const words = folded.match(/[a-z]+/g) ?? [];
  let letters = 0;
  let common = 0;
  let longWords = 0;
  let vowelless = 0;
  for (const word of words) {
    letters += word.length;
    for (const letter of word) if (COMMON_LETTERS.has(letter)) common++;
    if (word.length < 2) continue;
    longWords++;
    if (!VOWELS.test(word)) vowelless++;
  }
  // Another script's page (its letters are not [a-z] once accents are folded) is not judged.
  const allLetters = folded.match(/\p{L}/gu)?.length ?? 0;
  if (letters < SHAPE_MIN_LETTERS || letters < allLetters / 2 || longWords === 0) return false;
  return common / letters < MAX_COMMON_SHARE && vowelless / longWords >= MIN_VOWELLESS_SHARE;
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

/** What a readable document keeps: its readable blocks, and a warning for each thing left out. */
export interface ReadableText {
  drafts: BlockDraft[];
  warnings: string[];
}

/**
 * The document's readable text. Refuses it when most of its visible characters lie on pages (or,
 * without pages, in a text) that are not text, naming those pages: glyph codes (control,
 * private-use or replacement characters) or letters in no language's pattern; and when its text is
 * fewer than `minCharacters` visible characters (`min_text_characters`: no letter or digit, or a handful; a Chinese or
 * Japanese character counts for three). A few unreadable
 * pages in a readable document are left out, with a warning that names them.
 */
export function readableText(filename: string, format: string, drafts: BlockDraft[], minCharacters: number): ReadableText {
  const byPage = new Map<number, PageCounts>();
  let total = 0;
  // Letters mapped wrong come from a PDF's font tables; in a text format the same letter shapes are
  // a key, a certificate or base64 data inside a readable document (a SECURITY.md's PGP block).
  const judgeLetters = format === "pdf";
  for (const d of drafts) {
    const page = d.page ?? 0;
    let counts = byPage.get(page);
    if (!counts) byPage.set(page, (counts = { visible: 0, junk: 0, texts: [] }));
    const before = counts.visible;
    count(d.text, counts);
    total += counts.visible - before;
    if (judgeLetters && before < SHAPE_SAMPLE) counts.texts.push(d.text);
  }
  const unreadable = new Set(
    [...byPage.entries()]
      .filter(([, c]) => c.visible > 0 && (c.junk / c.visible >= UNREADABLE_SHARE || (judgeLetters && lettersOutOfPattern(c.texts.join("\n")))))
      .map(([p]) => p),
  );
  const unreadableChars = [...unreadable].reduce((n, p) => n + byPage.get(p)!.visible, 0);
  const pages = [...unreadable].filter((p) => p > 0).sort((a, b) => a - b);
  const where = pages.length === 1 ? `page ${pages[0]} of ${filename} is` : `pages ${pageRanges(pages)} of ${filename} are`;
  if (unreadable.size > 0 && (unreadableChars / total >= 0.5 || pages.length === 0)) {
    const hint = format === "pdf" ? "run OCR first (its fonts map their glyphs to no readable text)" : "is it a binary file saved under a text format?";
    unusable(filename, `${pages.length === 0 ? `${filename}'s text is` : where} glyph codes or control characters, not text: ${hint}`);
  }
  const scanned = format === "pdf" ? " (a scanned document? run OCR first)" : "";
  // A handful of characters is no document either; none is no text, whatever the marks.
  if (!drafts.some((d) => LETTER_OR_DIGIT.test(d.text))) unusable(filename, `the document contains no text: no letter or digit${scanned}`);
  const text = total < minCharacters ? drafts.map((d) => d.text.replace(/\s+/g, " ").trim()).join(" ") : "";
  const unspaced = text.match(UNSPACED_SCRIPT)?.length ?? 0;
  const counted = total + (UNSPACED_CHARACTER_WEIGHT - 1) * unspaced;
  if (counted < minCharacters) {
    const weighted = unspaced > 0 ? `, ${counted} as Chinese and Japanese characters count ${UNSPACED_CHARACTER_WEIGHT} each` : "";
    unusable(
      filename,
      `the document contains almost no text (${total} characters${weighted}: ${JSON.stringify(text)}; min_text_characters is ${minCharacters}): ` +
        `too little to chunk${scanned}`,
    );
  }
  if (unreadable.size === 0) return { drafts, warnings: [] };
  return {
    drafts: drafts.filter((d) => !unreadable.has(d.page ?? 0)),
    warnings: [`${where} glyph codes or control characters, not text: left out of the document (run OCR first for ${pages.length === 1 ? "it" : "them"})`],
  };
}
