import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

/**
 * Whether a word is an English word, by a list of about 275,000 (the `an-array-of-english-words`
 * package, lower case, inflected forms included, no proper nouns). It tells a line-end hyphen of
 * a compound ("third-party": both halves are words, the two written together are not) from one
 * that hyphenates a word ("com-pile": "compile" is one), where the document itself says nothing
 * (src/parsers/pdf.ts). Read on first use, off the package's JSON file (3 MB, about 0.1 s).
 */
let words: Set<string> | null = null;

export function isEnglishWord(word: string): boolean {
  if (!words) {
    const file = createRequire(import.meta.url).resolve("an-array-of-english-words/index.json");
    words = new Set(JSON.parse(readFileSync(file, "utf8")) as string[]);
  }
  return words.has(word.toLowerCase());
}
