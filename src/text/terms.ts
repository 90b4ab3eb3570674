// Porter's stemmer, so every inflection meets one stem ("serve", "serves", "served" -> "serv").
// A hand-written suffix list did not: it left "serve" whole but cut "serves" to "serv".
import { stemmer } from "stemmer";

/** Words too common to say anything about relevance, for lexical matching and BM25. */
const STOPWORDS = new Set(
  (
    "a an and are as at be been but by can could did do does for from had has have how i if in into is it its " +
    "may might more most no not of on or our over shall should so such than that the their them then there these " +
    "they this those to under up was we were what when where which while who whom why will with would you your " +
    "about after all also any between both each few he her him his me my other out own same she some very"
  ).split(" "),
);

/** Lower-cased content words of a text, in order (stopwords and punctuation dropped), each with its stemmed term. */
export function contentWords(text: string): Array<{ word: string; term: string }> {
  const words = text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'-]*/gu) ?? [];
  const out: Array<{ word: string; term: string }> = [];
  for (const w of words) {
    const word = w.replace(/'s$/, "");
    if (!STOPWORDS.has(word)) out.push({ word, term: stemmer(word) });
  }
  return out;
}

/** Lower-cased, stemmed content words of a text, in order (stopwords and punctuation dropped). */
export function contentTerms(text: string): string[] {
  return contentWords(text).map((w) => w.term);
}
