import { TokenIndex } from "../text/token-index.js";
import { boundedWordPieces, packPieces, spansToDrafts } from "./packing.js";
import { checkSizeAndOverlap, resolveOptions } from "./options.js";
import type { ChunkingStrategy, StrategyDefinition, StrategyParameter } from "./strategy.js";

const parameters: StrategyParameter[] = [
  { name: "chunk_size", description: "tokens per window", default: 256 },
  { name: "chunk_overlap", description: "tokens shared by neighbouring windows", default: 32 },
];

export const fixedSizeStrategy: StrategyDefinition = {
  name: "fixed_size",
  description: "Fixed windows of chunk_size tokens with overlap, ignoring headings and paragraphs; windows end between words, never inside one.",
  parameters,
  sizing: { target: "chunk_size", overlap: "chunk_overlap" },
  async create(given) {
    const options = resolveOptions("fixed_size", parameters, given);
    checkSizeAndOverlap("fixed_size", options.chunk_size!, options.chunk_overlap!);
    const strategy: ChunkingStrategy = {
      name: "fixed_size",
      retrieval: "dense",
      options,
      async chunk({ document }) {
        const index = new TokenIndex(document.text);
        const pieces = boundedWordPieces(index, { start: 0, end: document.text.length }, options.chunk_size!);
        return spansToDrafts(index, packPieces(index, pieces, options.chunk_size!, options.chunk_overlap!));
      },
    };
    return strategy;
  },
};
