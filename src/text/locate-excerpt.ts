import type { Span } from "./spans.js";
import { WordSequence } from "./word-sequence.js";
import { looseExcerptPattern } from "./typography.js";

/**
 * Where an excerpt is in a text (references of questions, imported chunks): as written
 * (`exact`), up to white space and typographic variants (`normalised`), or as the same words in
 * the same order (`words`: approximately, whatever markup or punctuation lies between them).
 */
export type ExcerptLocation = "exact" | "normalised" | "words";

/** A letter, a hyphen and white space holding a line break or a space, then a lower-case letter: a word broken at a line end. */
/** Line-end hyphens of one excerpt tried each joined and kept (2^n variants); past this many, only all joined. */
const MAX_JOINED_HYPHENS = 4;
const LINE_END_HYPHENATION = /(\p{L})-(?:[ \t]*\r?\n[ \t]*|[ \t]+)(\p{Ll})/gu;

/** Occurrences kept for choosing the one nearest a hint. */
const MAX_OCCURRENCES = 1000;
/** Places of an excerpt's words where it is looked for up to white space and typography (normalisedOccurrence). */
const NORMALISED_TRIES = 16;

/** The occurrences (at most `limit`) of the excerpt as written. */
function exactOccurrences(text: string, excerpt: string, limit: number): Span[] {
  const out: Span[] = [];
  for (let at = text.indexOf(excerpt); at !== -1 && out.length < limit; at = text.indexOf(excerpt, at + 1)) out.push({ start: at, end: at + excerpt.length });
  return out;
}

/**
 * The occurrence of the excerpt up to white space and typography nearest `near` (else the first),
 * looked for only around `sameWords` (the places its words occur in order), nearest first: such
 * an occurrence has those words, so it lies around one of them, give or take the quotes, dashes
 * and spaces at its ends. At most NORMALISED_TRIES places are tried: where the words stand in
 * other case or markup at the nearest places they do so elsewhere too, and trying every place of
 * a common phrase made one excerpt cost a thousand scans. Null when there is none, or when its
 * pattern is too large for the engine (V8 says so when it first runs it, not when it is made).
 */
function normalisedOccurrence(text: string, excerpt: string, sameWords: Span[], near: Near | undefined): Span | null {
  const margin = 64 + 4 * excerpt.length;
  const distance = distanceFrom(near);
  try {
    const pattern = new RegExp(looseExcerptPattern(excerpt), "gu");
    for (const words of [...sameWords].sort((a, b) => distance(a) - distance(b)).slice(0, NORMALISED_TRIES)) {
      const from = Math.max(0, words.start - margin);
      const found = [...text.slice(from, Math.min(text.length, words.end + margin)).matchAll(pattern)].map((m) => ({
        start: from + m.index,
        end: from + m.index + m[0].length,
      }));
      if (found.length > 0) return nearest(found, near);
    }
  } catch {
    // "Regular expression too large": a run of hundreds of thousands of characters
  }
  return null;
}

/**
 * Where an excerpt is expected: near an offset (a reference's recorded start: either direction),
 * or `{ from }`, at or after an offset (a chunk after the one before it in a file: the first
 * occurrence from there on, else the nearest before).
 */
export type Near = number | { from: number };

/** How far an occurrence is from where it is expected: what orders candidates (without a hint, text order). */
function distanceFrom(near: Near | undefined): (s: Span) => number {
  if (near === undefined) return (s) => s.start;
  if (typeof near === "number") return (s) => Math.abs(s.start - near);
  // Any occurrence from `from` on comes before any occurrence behind it.
  return (s) => (s.start >= near.from ? s.start - near.from : Number.MAX_SAFE_INTEGER / 2 + (near.from - s.start));
}

const nearest = (spans: Span[], near: Near | undefined) => {
  const distance = distanceFrom(near);
  return spans.reduce((best, s) => (distance(s) < distance(best) ? s : best));
};

/**
 * Finds an excerpt in a text: as written first, then ignoring differences in white space and
 * typography (straight or curly quotes, dashes, "…", ligatures: src/text/typography.ts), then
 * as the same words in the same order (an excerpt copied from a Markdown or HTML source with its
 * markup, or typed with other quotes and dashes). A changed number, an added "not" or words in
 * another order are not the same words, so such an excerpt is not found. A word hyphenated at a
 * line end in the excerpt ("com- pile") is also looked for joined ("compile"), as the same words,
 * while a compound broken there ("trace- based") may stay one. With `near`, of several
 * occurrences the one starting nearest it is taken (or, with `{ from }`, the first from there on). `words` gives the text's word index, built
 * only when the first two steps fail (a caller may keep one per text).
 */
export function locateExcerpt(
  text: string,
  excerpt: string,
  near?: Near,
  words: () => WordSequence = () => new WordSequence(text),
): (Span & { method: ExcerptLocation }) | null {
  // Accents as combining marks ("a\u0308", as pdftotext writes a PDF's "ä") composed, as extracted text has them.
  const composed = excerpt.normalize("NFC");
  const found = locateAsGiven(text, composed, near, words) ?? (composed === excerpt ? null : locateAsGiven(text, excerpt, near, words));
  if (found) return found;
  // Copied from a text that keeps line-end hyphenation ("com- pile", pdftotext's "com-\npile"),
  // where the document joins the word: the excerpt with such words joined, found as its words. A
  // compound broken at a line end ("trace-\nbased") stays a compound in the document, so each
  // hyphen is tried joined and kept: every way for up to MAX_JOINED_HYPHENS of them, else all joined.
  const hyphens = [...excerpt.matchAll(LINE_END_HYPHENATION)];
  if (hyphens.length === 0) return null;
  const ways = hyphens.length <= MAX_JOINED_HYPHENS ? 2 ** hyphens.length : 2;
  for (let way = ways - 1; way >= 1; way--) {
    // Bit i of `way` joins hyphen i (way 1 of 2 joins them all when there are too many to try each).
    const join = (i: number) => (ways === 2 ? true : ((way >> i) & 1) === 1);
    let variant = "";
    let at = 0;
    hyphens.forEach((m, i) => {
      variant += excerpt.slice(at, m.index) + (join(i) ? `${m[1]}${m[2]}` : m[0]);
      at = m.index + m[0].length;
    });
    const again = locateAsGiven(text, variant + excerpt.slice(at), near, words);
    if (again) return { ...again, method: "words" };
  }
  return null;
}

function locateAsGiven(text: string, excerpt: string, near: Near | undefined, words: () => WordSequence): (Span & { method: ExcerptLocation }) | null {
  const exact = exactOccurrences(text, excerpt, near === undefined ? 1 : MAX_OCCURRENCES);
  if (exact.length > 0) return { ...nearest(exact, near), method: "exact" };
  // What differs only in white space and typography has the same words in the same order: the
  // word index (built once per text) says where they are, and the pattern is tried only there, so
  // an excerpt costs look-ups in the index, not a pass of a pattern over the whole text.
  // Without a place to be near, the first occurrence is the one: a few places are enough.
  const sameWords = words().find(excerpt, near === undefined ? NORMALISED_TRIES : MAX_OCCURRENCES);
  if (sameWords.length === 0) return null;
  const loose = normalisedOccurrence(text, excerpt, sameWords, near);
  if (loose) return { ...loose, method: "normalised" };
  return { ...nearest(sameWords, near), method: "words" };
}

/**
 * A document's text as chunking reads it, and, where its page furniture (a PDF's running headers,
 * footers and page numbers) was blanked in it, the stored text with the furniture: the same
 * length, so an offset means the same character in both.
 */
export interface LocatableText {
  text: string;
  textWithFurniture?: string;
}

/**
 * locateExcerpt over the text as chunking reads it, then over the stored text with its page
 * furniture: a passage copied across a page break from a reader has no running header in its
 * middle (the first finds it), while a chunk or excerpt made from pdftotext's output, which keeps
 * the headers and page numbers, has them (the second finds it). `words` is the first text's word
 * index.
 */
export function locateInDocument(
  document: LocatableText,
  excerpt: string,
  near?: Near,
  words?: () => WordSequence,
): (Span & { method: ExcerptLocation }) | null {
  return (
    locateExcerpt(document.text, excerpt, near, words) ??
    (document.textWithFurniture === undefined ? null : locateExcerpt(document.textWithFurniture, excerpt, near))
  );
}

/** Whether the document's text between two offsets is the excerpt, up to white space (in either of its texts). */
export function holdsAt(document: LocatableText, start: number, end: number, excerpt: string): boolean {
  const normalise = (s: string) => s.replace(/\s+/g, " ").trim();
  const wanted = normalise(excerpt);
  return [document.text, document.textWithFurniture].some((text) => text !== undefined && end <= text.length && normalise(text.slice(start, end)) === wanted);
}
