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
  /** Each word's key length, to tell whether an offset inside a key is the same offset inside the word. */
  private readonly keyLengths: number[] = [];

  constructor(text: string) {
    const keys: string[] = [];
    let at = 1;
    for (const m of text.matchAll(WORD)) {
      const key = fold(m[0]);
      this.starts.push(m.index);
      this.ends.push(m.index + m[0].length);
      this.joinedAt.push(at);
      keys.push(key);
      this.keyLengths.push(key.length);
      at += key.length + 1;
    }
    this.joined = SEPARATOR + keys.join(SEPARATOR) + SEPARATOR;
  }

  /**
   * Every place (a bounded number) where the excerpt's words occur in this text in order and
   * adjacent, as spans from the first word's start to the last word's end. Linear in the text.
   *
   * Whole words first. Where there are none, an excerpt that begins or ends inside a word (a
   * reference cut at a fixed length: "…infection of humans and swin") is looked for with its first
   * word as the end of a word and its last as the start of one, and the span covers just those
   * parts when folding kept the word's length (else the whole word). Only an excerpt of at least
   * MIN_WORDS_WITH_CUT_EDGES words is tried so: two cut words alone would match almost anywhere.
   */
  find(excerpt: string, limit = 1000): Span[] {
    const stripped = stripLinkTargets(excerpt);
    const words = [...stripped.matchAll(WORD)].map((m) => fold(m[0]));
    if (words.length === 0) return [];
    const whole = this.occurrences(SEPARATOR + words.join(SEPARATOR) + SEPARATOR, 1, 1, limit);
    if (whole.length > 0 || words.length < MIN_WORDS_WITH_CUT_EDGES) return whole;
    const cutStart = STARTS_WITH_WORD.test(stripped);
    const cutEnd = ENDS_WITH_WORD.test(stripped);
    if (!cutStart && !cutEnd) return whole;
    const needle = (cutStart ? "" : SEPARATOR) + words.join(SEPARATOR) + (cutEnd ? "" : SEPARATOR);
    return this.occurrences(needle, cutStart ? 0 : 1, cutEnd ? 0 : 1, limit);
  }

  /** Spans of the needle's occurrences in `joined`, without the separators it starts and ends with (`lead`, `trail`: 0 or 1). */
  private occurrences(needle: string, lead: number, trail: number, limit: number): Span[] {
    const out: Span[] = [];
    for (let at = this.joined.indexOf(needle); at !== -1 && out.length < limit; at = this.joined.indexOf(needle, at + 1)) {
      const from = at + lead;
      const to = at + needle.length - trail;
      const first = this.wordAt(from);
      const last = this.wordAt(to - 1);
      out.push({ start: this.offsetIn(first, from - this.joinedAt[first]!, 0), end: this.offsetIn(last, to - this.joinedAt[last]!, 1) });
    }
    return out;
  }

  /** The text offset `into` characters into word `i`'s key; the word's start (side 0) or end (side 1) when folding changed its length. */
  private offsetIn(i: number, into: number, side: 0 | 1): number {
    const start = this.starts[i]!;
    const end = this.ends[i]!;
    if (end - start !== this.keyLengths[i]) return side === 0 ? start : end;
    return start + into;
  }

  private wordAt(joinedOffset: number): number {
    return lastAtOrBefore(this.joinedAt, joinedOffset);
  }
}

// Marks belong to their word: a decomposed "é" or a Devanagari vowel sign is part of it.
const WORD = /[\p{L}\p{M}\p{N}]+/gu;
const SEPARATOR = "\u0001";
/** An excerpt that starts or ends with a word character (WORD's class) may be cut inside that word. */
const STARTS_WITH_WORD = /^[\p{L}\p{M}\p{N}]/u;
const ENDS_WITH_WORD = /[\p{L}\p{M}\p{N}]$/u;
/** The fewest words an excerpt cut inside its first or last word is looked for with. */
const MIN_WORDS_WITH_CUT_EDGES = 4;
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
  return excerpt.replace(/\]\([^)]*\)/g, "]").replace(/<\/?[A-Za-z][^<>]*>/g, " ");
}
