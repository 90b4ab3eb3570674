import { pieceMatcher, pieceTokenCount } from "./bpe.js";

/**
 * The project-wide tokenizer: OpenAI's o200k_base BPE (gpt-tokenizer's default encoding).
 * Chunk sizes, token usage and cost estimates all count with it, so the numbers agree.
 */
export const TOKENIZER_NAME = "o200k_base";

const matcher = pieceMatcher();

/**
 * Loads the tokenizer's tables now (they load on the first count: lazy-require.ts). A process that
 * serves requests or holds job leases calls it before it starts, so that building them (most of a
 * second, more on a loaded machine) never falls inside a request or between a lease's renewals.
 */
export function loadTokenizer(): void {
  countTokens("warm-up");
}

/**
 * Exact o200k token count of a text: the sum of its pre-tokeniser pieces' counts. Unlike
 * gpt-tokenizer's countTokens it counts special-token text such as "<|endoftext|>" as plain
 * text instead of refusing it, and long unbroken runs in O(n log n).
 */
export function countTokens(text: string): number {
  let total = 0;
  matcher.lastIndex = 0;
  let match: RegExpExecArray | null;
  while ((match = matcher.exec(text)) !== null) total += pieceTokenCount(match[0]);
  return total;
}
