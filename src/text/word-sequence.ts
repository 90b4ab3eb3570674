import type { Span } from "./spans.js";
import { lastAtOrBefore } from "./sorted.js";

/**
 * A text as its sequence of words (runs of letters, marks and digits, compatibility-folded and lower
 * case), with each word's offsets in the text: what stays of a passage whatever markup,
 * punctuation, quotes, dashes, ligatures or white space surround its words.
 */
export class WordSequence {
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  /** The words joined by a separator no word contains, framed by it: a word-aligned indexOf target. */
  private readonly joined: string;
  /** Where each word starts in `joined`, for mapping a match back to its word. */
  private readonly joinedAt: number[] = [];

  constructor(text: string) {
    const keys: string[] = [];
    let at = 1;
    for (const m of text.matchAll(WORD)) {
      const key = fold(m[0]);
      this.starts.push(m.index);
      this.ends.push(m.index + m[0].length);
      this.joinedAt.push(at);
      keys.push(key);
      at += key.length + 1;
    }
    this.joined = SEPARATOR + keys.join(SEPARATOR) + SEPARATOR;
  }

  /**
   * Every place (a bounded number) where the excerpt's words occur in this text in order and
   * adjacent, as spans from the first word's start to the last word's end. Linear in the text.
   */
  find(excerpt: string, limit = 1000): Span[] {
    const words = [...stripLinkTargets(excerpt).matchAll(WORD)].map((m) => fold(m[0]));
    if (words.length === 0) return [];
    const needle = SEPARATOR + words.join(SEPARATOR) + SEPARATOR;
    const out: Span[] = [];
    for (let at = this.joined.indexOf(needle); at !== -1 && out.length < limit; at = this.joined.indexOf(needle, at + 1)) {
      const first = this.wordAt(at + 1);
      out.push({ start: this.starts[first]!, end: this.ends[first + words.length - 1]! });
    }
    return out;
  }

  private wordAt(joinedOffset: number): number {
    return lastAtOrBefore(this.joinedAt, joinedOffset);
  }
}

// Marks belong to their word: a decomposed "é" or a Devanagari vowel sign is part of it.
const WORD = /[\p{L}\p{M}\p{N}]+/gu;
const SEPARATOR = "\u0001";
/**
 * A word's matching key: compatibility-folded (the ligature "ﬁ" is "fi", a full-width "Ａ" is "A")
 * and lower case, except its superscript and subscript characters, which NFKC would fold into the
 * digits or letters next to them (10² into 102, H₂O into h2o), so that a reference could match another number.
 */
const fold = (word: string) =>
  (SUPERSCRIPT_OR_SUBSCRIPT.test(word) ? word.replace(NOT_SUPERSCRIPT_OR_SUBSCRIPT, (run) => run.normalize("NFKC")) : word.normalize("NFKC")).toLowerCase();
/** The characters Unicode decomposes as <super> or <sub> forms (¹²³, ª º, modifier letters, the Superscripts and Subscripts block...). */
const SUPERSCRIPTS_AND_SUBSCRIPTS =
  "\u00AA\u00B2\u00B3\u00B9\u00BA\u02B0-\u02B8\u02E0-\u02E4\u1D2C-\u1D6A\u1D78\u1D9B-\u1DBF\u2070-\u209C" +
  "\u2C7C\u2C7D\u2D6F\uA69C\uA69D\uA770\uA7F8\uA7F9\uAB5C-\uAB5F\uAB69";
const SUPERSCRIPT_OR_SUBSCRIPT = new RegExp(`[${SUPERSCRIPTS_AND_SUBSCRIPTS}]`, "u");
const NOT_SUPERSCRIPT_OR_SUBSCRIPT = new RegExp(`[^${SUPERSCRIPTS_AND_SUBSCRIPTS}]+`, "gu");

/**
 * The targets of Markdown links and images (`[text](url)` keeps `[text]`) and HTML tags: parsers
 * keep a link's text, never its URL or tag, so an excerpt copied from the source would otherwise
 * carry words the extracted text does not have.
 */
function stripLinkTargets(excerpt: string): string {
  return excerpt.replace(/\]\([^)]*\)/g, "]").replace(/<[^>]*>/g, " ");
}
