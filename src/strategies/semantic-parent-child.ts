import { TokenIndex } from "../text/token-index.js";
import { boundedWordPieces, packPieces, spansToDrafts } from "./packing.js";
import { checkSizeAndOverlap, resolveOptions } from "./options.js";
import { checkSemanticOptions, semanticParameters, semanticSpans } from "./semantic.js";
import type { ChunkDraft, ChunkingStrategy, StrategyDefinition, StrategyParameter } from "./strategy.js";

const parameters: StrategyParameter[] = [
  ...semanticParameters.map((p) => ({ ...p, description: `parents: ${p.description}` })),
  { name: "child_size", description: "children: tokens per child window", default: 96 },
  { name: "child_overlap", description: "children: tokens shared by neighbouring children", default: 16 },
];

export const semanticParentChildStrategy: StrategyDefinition = {
  name: "semantic_parent_child",
  description:
    "Semantic chunks are parents; small windows inside each are the children that are embedded and searched, and a matching child answers with its parent.",
  parameters,
  // The children are what is searched.
  sizing: { target: "child_size", overlap: "child_overlap" },
  embedsSentences: true,
  async create(given) {
    const options = resolveOptions("semantic_parent_child", parameters, given);
    checkSemanticOptions("semantic_parent_child", options);
    checkSizeAndOverlap("semantic_parent_child", options.child_size!, options.child_overlap!, ["child_size", "child_overlap"]);
    const strategy: ChunkingStrategy = {
      name: "semantic_parent_child",
      retrieval: "parent",
      options,
      async chunk(context) {
        const index = new TokenIndex(context.document.text);
        const drafts: ChunkDraft[] = [];
        for (const parent of await semanticSpans(context, index, options)) {
          const parentIndex = drafts.length;
          drafts.push(...spansToDrafts(index, [parent], { role: "parent" }));
          const pieces = boundedWordPieces(index, parent, options.child_size!);
          const children = packPieces(index, pieces, options.child_size!, options.child_overlap!);
          drafts.push(...spansToDrafts(index, children, { parentIndex }));
        }
        return drafts;
      },
    };
    return strategy;
  },
};
