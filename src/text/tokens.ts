import { countTokens as countBpeTokens } from "gpt-tokenizer";

/**
 * The project-wide tokenizer: OpenAI's o200k_base BPE (gpt-tokenizer's default encoding).
 * Chunk sizes, token usage and cost estimates all count with it, so the numbers agree.
 */
export const TOKENIZER_NAME = "o200k_base";

export function countTokens(text: string): number {
  return text.length === 0 ? 0 : countBpeTokens(text);
}

/** A memoising counter for the many short pieces chunkers count over and over. */
export function createPieceCounter(): (piece: string) => number {
  const memo = new Map<string, number>();
  return (piece) => {
    let n = memo.get(piece);
    if (n === undefined) {
      n = countTokens(piece);
      memo.set(piece, n);
    }
    return n;
  };
}
