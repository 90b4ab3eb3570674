/**
 * The checkable facts of a sentence: its numbers, its names and its polarity. Embedding
 * similarity and word overlap both call "serves 9,999 households" a match for "serves 4,200
 * households"; comparing the facts themselves is what catches a changed number, a swapped name
 * or a dropped "not".
 */
import { contentTerms } from "../text/terms.js";
import { boundHolds, boundOf, withoutBoundNegators, type Bound } from "./bounds.js";
import { readNumberWords } from "./number-words.js";

const CAPITALISED = /\p{Lu}[\p{L}\p{N}'’-]*/gu;
const NEGATION = /\b(?:not|no|never|none|nobody|nothing|neither|nor|cannot|without)\b|n['’]t\b/gi;
/** Capitalised words that are not names when they open a clause or title-case a heading. */
const NOT_NAMES = new Set([
  "i",
  "the",
  "a",
  "an",
  "it",
  "this",
  "that",
  "these",
  "those",
  "there",
  "they",
  "we",
  "you",
  "he",
  "she",
  "yes",
  "no",
  "if",
  "in",
  "on",
  "at",
  "for",
  "and",
  "or",
  "but",
]);

/** A number as written, without thousands separators: "4,200" and "4200" are the same number. */
const normalised = (n: string) => (/^\d{1,3}(,\d{3})+(\.\d+)?$/.test(n) ? n.replace(/,/g, "") : n);

/** The numbers of a text, in digits or in words ("twenty-five" is 25), as normalised strings. */
export function numbersIn(text: string): Set<string> {
  return new Set(tokens(text).flatMap((t) => (t.number === null ? [] : [t.number])));
}

/** Lower-cased capitalised words after the first word of the sentence (the first is capitalised anyway). */
export function namesIn(sentence: string): Set<string> {
  const out = new Set<string>();
  for (const match of sentence.matchAll(CAPITALISED)) {
    if (match.index === sentence.search(/\p{L}/u)) continue;
    const word = match[0].replace(/['’]s$/, "").toLowerCase();
    if (!NOT_NAMES.has(word)) out.add(word);
  }
  return out;
}

/** True when the sentence says "not" an odd number of times, not counting the "no" of a bound ("no more than 3.5": see bounds.ts). */
export function isNegated(sentence: string): boolean {
  return (withoutBoundNegators(sentence).match(NEGATION) ?? []).length % 2 === 1;
}

const wordsIn = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);

interface Token {
  number: string | null;
  term: string | null;
  /** For a number, the bound a phrase around it puts on it ("no more than 3.5"). */
  bound: Bound | null;
}

/** Words of a text in order: numbers (digits or words) as normalised values with their bounds, other words stemmed, stopwords marked null. */
function tokens(text: string): Token[] {
  const words = text.match(/\d+(?:[.,]\d+)*|\p{L}[\p{L}\p{N}'’-]*/gu) ?? [];
  const lower = words.map((w) => w.toLowerCase());
  const bound = (i: number, used: number) => boundOf(lower.slice(Math.max(0, i - 5), i), lower.slice(i + used, i + used + 3));
  const out: Token[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (/^\d/.test(word)) {
      out.push({ number: normalised(word), term: null, bound: bound(i, 1) });
      continue;
    }
    const spelled = readNumberWords(words, i);
    if (spelled) {
      out.push({ number: String(spelled.value), term: null, bound: bound(i, spelled.used) });
      i += spelled.used - 1;
      continue;
    }
    out.push({ number: null, term: contentTerms(word)[0] ?? null, bound: null });
  }
  return out;
}

/** The first `n` content words after position i. */
function termsAfter(words: Token[], i: number, n: number): string[] {
  const out: string[] = [];
  for (let k = i + 1; k < words.length && out.length < n; k++) if (words[k]!.term) out.push(words[k]!.term!);
  return out;
}

/**
 * Whether the evidence states `number` about the same thing the statement does, bounded the same
 * way. A number that merely occurs in a related sentence is not enough ("serves 310 households"
 * against "serves 4,200 households across 310 square kilometres"): the content word that follows
 * the number in the statement (its unit or noun) must follow it in the evidence too, within three
 * content words. A statement that ends on the number is checked for the number alone. A bound on
 * the number ("no more than 3.5") must hold against the evidence's (see bounds.ts) when
 * `checkBounds` is set.
 */
function numberSupported(number: string, statement: string, evidence: string[], checkBounds: boolean): boolean {
  const said = tokens(statement);
  const occurrences = said.flatMap((t, i) => (t.number === number ? [{ nouns: termsAfter(said, i, 1), bound: t.bound }] : []));
  return occurrences.every(({ nouns, bound }) =>
    evidence.some((sentence) => {
      const words = tokens(sentence);
      return words.some((t, i) => {
        if (t.number !== number) return false;
        if (checkBounds && !boundHolds(bound, t.bound)) return false;
        if (nouns.length === 0) return true;
        const after = termsAfter(words, i, 3);
        // A number that ends the evidence sentence ("at a price of 100") has nothing to compare.
        if (after.length === 0) return true;
        return nouns.some((noun) => after.includes(noun));
      });
    }),
  );
}

/**
 * The sentence's first word when it is probably a name: capitalised, no common opener, and never
 * written in lower case anywhere in the document (`lowercaseWords`), where a common word used
 * about the document would be ("Members elect …" meets "members"; "Maria chairs …" does not).
 */
function openingName(statement: string, lowercaseWords: ReadonlySet<string> | undefined): string | null {
  if (!lowercaseWords) return null;
  const first = /\p{Lu}[\p{L}'’-]*/u.exec(statement.trimStart());
  if (!first || first.index !== 0) return null;
  const word = first[0].replace(/['’]s$/, "").toLowerCase();
  if (NOT_NAMES.has(word) || contentTerms(word).length === 0 || word.endsWith("ly") || lowercaseWords.has(word)) return null;
  return word;
}

/** Words the text writes in lower case (what `unsupportedFact` uses to tell a sentence's opening name from a common word). */
export function lowercaseWordsOf(text: string): Set<string> {
  return new Set(text.match(/(?<![\p{L}\p{N}])\p{Ll}[\p{L}'’-]*/gu) ?? []);
}

const CLAUSE_END = /[,;:]|\s(?:and|but|or|while|whereas|unless|except|although|though)\s/gi;

/**
 * Whether the statement's polarity matches the closest context sentence's, read up to the end of
 * the clause of that sentence that shares the most content words with the statement. A long
 * sentence of a standard joins several conditions ("… is no more than 3.5 mm/s RMS, …, and its
 * shaft seal leaks no visible water"): a "no" in a later clause says nothing of the one the
 * statement repeats, while a "no" that opens the sentence ("No valve, hydrant or meter …") still
 * governs every clause after it.
 */
function polarityAgrees(statement: string, closest: string): boolean {
  const negated = isNegated(statement);
  const said = new Set(contentTerms(statement));
  const ends = [...closest.matchAll(CLAUSE_END)].map((m) => m.index!).concat(closest.length);
  let start = 0;
  let most = -1;
  let agrees = false;
  for (const end of ends) {
    const shared = contentTerms(closest.slice(start, end)).filter((t) => said.has(t)).length;
    const prefixAgrees = isNegated(closest.slice(0, end)) === negated;
    if (shared > most) [most, agrees] = [shared, prefixAgrees];
    else if (shared === most) agrees ||= prefixAgrees;
    start = end;
  }
  return agrees;
}

/**
 * What in `statement` the evidence does not support, or null when nothing: every number must be
 * stated about the same thing in the evidence (the context sentences related to the statement),
 * with the same bound, every name must occur there (an opening name too, given the document's
 * lower-case words), and the statement's polarity must match the closest context sentence's.
 */
export function unsupportedFact(statement: string, evidence: string[], closest: string, lowercaseWords?: ReadonlySet<string>): string | null {
  const numbers = [...numbersIn(statement)];
  const number = numbers.find((n) => !numberSupported(n, statement, evidence, false));
  if (number !== undefined) return `number ${number}`;
  const bounded = numbers.find((n) => !numberSupported(n, statement, evidence, true));
  if (bounded !== undefined) return `bound ${bounded}`;
  const evidenceWords = wordsIn(evidence.join(" "));
  const opening = openingName(statement, lowercaseWords);
  const name = [...namesIn(statement), ...(opening ? [opening] : [])].find((n) => ![...wordsIn(n)].every((w) => evidenceWords.has(w)));
  if (name !== undefined) return `name ${name}`;
  if (!polarityAgrees(statement, closest)) return "negation";
  return null;
}
