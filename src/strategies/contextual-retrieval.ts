import type { Block, StoredDocument } from "../domain/types.js";
import { sentenceSpans } from "../text/sentences.js";
import { contentTerms } from "../text/terms.js";
import { checkSizeAndOverlap, resolveOptions } from "./options.js";
import { spansToDrafts } from "./packing.js";
import { checkChunkCeiling } from "./chunk-ceiling.js";
import { recursiveParameters, recursiveSpans } from "./recursive.js";
import { TokenIndex } from "../text/token-index.js";
import type { ChunkingStrategy, StrategyDefinition } from "./strategy.js";

/** The situating prompt of Anthropic's contextual retrieval, sent once per chunk when an LLM is set. */
export function contextPrompt(documentText: string, chunkText: string): string {
  return [
    "<document>",
    documentText,
    "</document>",
    "Here is a chunk of the document above that we want to situate within the whole document:",
    "<chunk>",
    chunkText,
    "</chunk>",
    "Give a short, succinct context that situates this chunk within the overall document, to improve search retrieval of the chunk. " +
      "Answer only with the context and nothing else.",
  ].join("\n");
}

/** Headings in force at an offset, outermost first. */
function headingPath(blocks: Block[], offset: number): Block[] {
  const path: Block[] = [];
  for (const block of blocks) {
    if (block.start > offset) break;
    if (block.kind !== "heading") continue;
    while (path.length > 0 && path[path.length - 1]!.level >= block.level) path.pop();
    path.push(block);
  }
  return path;
}

/**
 * The sentence that best represents a section: the one whose content words are the most
 * frequent in the section (average section frequency per distinct word), first on ties.
 */
export function keySentence(text: string, sectionStart: number, sectionEnd: number): string | null {
  const sentences = sentenceSpans(text, { start: sectionStart, end: sectionEnd });
  const frequency = new Map<string, number>();
  for (const term of contentTerms(text.slice(sectionStart, sectionEnd))) frequency.set(term, (frequency.get(term) ?? 0) + 1);
  let best: string | null = null;
  let bestScore = -1;
  for (const s of sentences) {
    const sentence = text.slice(s.start, s.end);
    const terms = new Set(contentTerms(sentence));
    if (terms.size < 4) continue; // headings and fragments say too little
    let sum = 0;
    for (const t of terms) sum += frequency.get(t) ?? 0;
    const score = sum / terms.size;
    if (score > bestScore) {
      bestScore = score;
      best = sentence;
    }
  }
  return best;
}

/**
 * Builds chunks' contexts from the document alone: title, heading path, the section's key
 * sentence. Every chunk of a section gets the same context, so it is computed once per section:
 * finding the key sentence reads the whole section, and doing that per chunk would make a long
 * section quadratic.
 */
export function documentContexts(document: StoredDocument): (start: number) => string {
  const bySection = new Map<number, string>();
  return (start) => {
    const path = headingPath(document.blocks, start);
    const innermost = path[path.length - 1];
    const sectionStart = innermost?.start ?? 0;
    let context = bySection.get(innermost?.start ?? -1);
    if (context !== undefined) return context;
    const nextHeading = document.blocks.find((b) => b.kind === "heading" && b.start > sectionStart && (!innermost || b.level <= innermost.level));
    const sectionEnd = nextHeading?.start ?? document.text.length;
    const parts = [`From "${document.title}"`];
    const titles = path.map((h) => h.text).filter((t) => t !== document.title);
    if (titles.length > 0) parts[0] += `, section "${titles.join(" > ")}"`;
    const key = keySentence(document.text, sectionStart, sectionEnd);
    if (key) parts.push(`The section says: ${key}`);
    context = parts.join(". ").replace(/\.\./g, ".");
    bySection.set(innermost?.start ?? -1, context);
    return context;
  };
}

export const contextualRetrievalStrategy: StrategyDefinition = {
  name: "contextual_retrieval",
  description:
    "Recursive chunks, each prefixed with a short context situating it in the document (LLM-written when one is configured) " +
    "before embedding and keyword indexing; searched like every other strategy (docs/benchmarks.md: Retrieval).",
  parameters: recursiveParameters,
  sizing: { target: "chunk_size", overlap: "chunk_overlap" },
  callsLlm: true,
  async create(given) {
    const options = resolveOptions("contextual_retrieval", recursiveParameters, given);
    checkSizeAndOverlap("contextual_retrieval", options.chunk_size!, options.chunk_overlap!);
    const strategy: ChunkingStrategy = {
      name: "contextual_retrieval",
      retrieval: "dense",
      options,
      async chunk({ document, llm, signal, maxChunks }) {
        const index = new TokenIndex(document.text);
        const drafts = spansToDrafts(index, recursiveSpans(index, options.chunk_size!, options.chunk_overlap!));
        // Refused before the first of its chat-model calls, not after asking one per chunk.
        checkChunkCeiling(drafts.length, "contextual_retrieval", maxChunks);
        const contextAt = documentContexts(document);
        for (const draft of drafts) {
          draft.context = llm ? (await llm.complete(contextPrompt(document.text, draft.text), signal)).trim() : contextAt(draft.start);
        }
        return drafts;
      },
    };
    return strategy;
  },
};
