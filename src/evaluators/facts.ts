/**
 * The checkable facts of a sentence: its numbers, its names and its polarity. Embedding
 * similarity and word overlap both call "serves 9,999 households" a match for "serves 4,200
 * households"; comparing the facts themselves is what catches a changed number, a swapped name
 * or a dropped "not".
 */

const NUMBER = /\d+(?:[.,]\d+)*/g;
const CAPITALISED = /\p{Lu}[\p{L}\p{N}'’-]*/gu;
const NEGATION = /\b(?:not|no|never|none|nobody|nothing|neither|nor|cannot|without)\b|n['’]t\b/gi;
/** Capitalised words that are not names when they open a clause or title-case a heading. */
const NOT_NAMES = new Set(["i", "the", "a", "an", "it", "this", "that", "these", "those", "there", "they", "we", "you", "he", "she", "yes", "no", "if", "in", "on", "at", "for", "and", "or", "but"]);

/** Numbers as written, without thousands separators: "4,200" and "4200" are the same number. */
export function numbersIn(text: string): Set<string> {
  return new Set((text.match(NUMBER) ?? []).map((n) => (/^\d{1,3}(,\d{3})+(\.\d+)?$/.test(n) ? n.replace(/,/g, "") : n)));
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

/** True when the sentence says "not" an odd number of times. */
export function isNegated(sentence: string): boolean {
  return (sentence.match(NEGATION) ?? []).length % 2 === 1;
}

const wordsIn = (text: string) => new Set((text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []));

/**
 * What in `statement` the evidence does not support, or null when nothing: every number and name
 * must occur in the evidence (the context sentences related to the statement), and the
 * statement's polarity must match the closest context sentence's.
 */
export function unsupportedFact(statement: string, evidence: string[], closest: string): string | null {
  const evidenceText = evidence.join(" ");
  const evidenceNumbers = numbersIn(evidenceText);
  const number = [...numbersIn(statement)].find((n) => !evidenceNumbers.has(n));
  if (number !== undefined) return `number ${number}`;
  const evidenceWords = wordsIn(evidenceText);
  const name = [...namesIn(statement)].find((n) => ![...wordsIn(n)].every((w) => evidenceWords.has(w)));
  if (name !== undefined) return `name ${name}`;
  if (isNegated(statement) !== isNegated(closest)) return "negation";
  return null;
}
