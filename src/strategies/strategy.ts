import type { RetrievalMode, StoredDocument, StrategyName } from "../domain/types.js";

/** A chunk as a strategy produces it; the process service gives it an id and stores it. */
export interface ChunkDraft {
  text: string;
  start: number;
  end: number;
  tokenCount: number;
  role: "chunk" | "parent";
  /** Index (in the same draft list) of this chunk's parent, or null. */
  parentIndex: number | null;
  context: string | null;
}

/** A language model a strategy may call (contextual retrieval), with caching done by the caller. */
export interface ChunkingLlm {
  name: string;
  complete(prompt: string, signal?: AbortSignal): Promise<string>;
}

/** The most searchable chunks one document may yield with one strategy, and the setting that says so (checks: chunk-ceiling.ts). */
export interface ChunkCeiling {
  limit: number;
  setting: string;
}

/** What a strategy may use besides the document: the (cached) embedder and, if configured, an LLM. */
export interface ChunkingContext {
  document: StoredDocument;
  embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]>;
  llm?: ChunkingLlm;
  signal?: AbortSignal;
  /**
   * The most searchable chunks the document may yield (max_chunks_per_document, INGESTION_MAX_CHUNKS).
   * The chunking worker checks every strategy's result against it before sending it back; a
   * strategy with a costly step after cutting (contextual_retrieval's LLM calls) checks before it.
   */
  maxChunks?: ChunkCeiling;
  /** Chunk a PDF's page furniture with its text (`keep_page_furniture`); by default it is left out (page-furniture.ts). */
  keepPageFurniture?: boolean;
}

export type { RetrievalMode };

export interface ChunkingStrategy {
  readonly name: StrategyName;
  readonly retrieval: RetrievalMode;
  /** Options in effect after defaults, recorded with the chunks. */
  readonly options: Readonly<Record<string, number>>;
  /** The file of a strategy module (strategy-module.ts): a chunking worker imports it to recreate the strategy. */
  readonly module?: string;
  /**
   * Chunks made elsewhere (imported-chunks.ts): those of this document, sent to the chunking
   * worker, which locates them in the text (off the calling thread: 20,000 of them over a long
   * document is seconds of work) and measures them; no file is read there.
   */
  importedChunks?(document: StoredDocument): ImportedChunkSet;
  chunk(context: ChunkingContext): Promise<ChunkDraft[]>;
}

/** Imported chunks as the chunking worker gets them (imported-chunks.ts's ChunksImport). */
export interface ImportedChunkSet {
  name: string;
  source: string;
  chunks: Array<{ document?: string; text: string; start?: number; end?: number }>;
  places?: string[];
}

export interface StrategyParameter {
  name: string;
  description: string;
  default: number;
}

/**
 * The size a strategy's searchable chunks aim at, as the strategy declares it: the parameter holding
 * it in tokens (a parent-child strategy's children, which are what is searched), and the one holding
 * the tokens neighbours share, if any.
 */
export interface StrategySizing {
  target: string;
  overlap?: string;
}

export interface StrategyDefinition {
  name: StrategyName;
  description: string;
  parameters: StrategyParameter[];
  /**
   * What the strategy says of itself, so that nothing guesses it from its name or its options' names
   * (the cost model, chunk health). `sizing`: absent when its chunks aim at no size in tokens.
   */
  sizing?: StrategySizing;
  /** Chunking asks the configured chat model (per section), when one is configured: contextual_retrieval. */
  callsLlm?: boolean;
  /** Chunking embeds every sentence of the document before its chunks: the semantic strategies. */
  embedsSentences?: boolean;
  /** Validates options (unknown keys, ranges) and builds the strategy. */
  create(options?: Record<string, unknown>): Promise<ChunkingStrategy>;
}

/** The size in tokens a strategy's searchable chunks aim at under these options, and their overlap; null when it declares none. */
export function targetSize(
  definition: Pick<StrategyDefinition, "sizing">,
  options: Readonly<Record<string, number>>,
): { size: number; overlap: number } | null {
  const size = definition.sizing ? options[definition.sizing.target] : undefined;
  if (size === undefined) return null;
  const overlap = definition.sizing?.overlap ? (options[definition.sizing.overlap] ?? 0) : 0;
  return { size, overlap: Math.min(overlap, size - 1) };
}
