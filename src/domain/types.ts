/**
 * Plain domain types. Code uses camelCase; the transports turn them into the spec's
 * snake_case wire shapes (SPEC §2) in one place.
 */

/**
 * A strategy's registry name: a built-in one (strategies/registry.ts, STRATEGY_NAMES) or one a
 * strategy module (`--strategy-module`) brings.
 */
export type StrategyName = string;

/** A structural unit of an extracted document, with its offsets in the extracted text. */
export interface Block {
  /**
   * `furniture`: a running header or footer or a page number repeated across a PDF's pages. It
   * stays in the text, with its offsets and page; chunking leaves it out unless
   * `keep_page_furniture` is set (strategies/page-furniture.ts).
   */
  kind: "heading" | "paragraph" | "list_item" | "table_row" | "furniture";
  /** Heading level (1-6) for headings; nesting depth for list items; 0 otherwise. */
  level: number;
  text: string;
  start: number;
  end: number;
  /** The 1-based page the block is on, for formats that have pages (PDF); absent otherwise. */
  page?: number;
}

/** A parsed document: blocks joined by blank lines make `text`, the offsets' reference. */
export interface ParsedDocument {
  /** The name of the document format that read it (parsers/registry.ts). */
  format: string;
  title: string;
  text: string;
  blocks: Block[];
  /** What the parser left out and why (unreadable pages), for the user to read; none when it kept everything. */
  warnings?: string[];
}

/** The Document of SPEC §2, exactly. */
export interface DocumentRecord {
  id: string;
  filename: string;
  paragraphCount: number;
  chunkCounts: Record<string, number>;
  createdAt: string;
}

/** A document with its extracted text and structure, what strategies work on. */
export interface StoredDocument extends DocumentRecord {
  /** The name of the document format that read it (parsers/registry.ts). */
  format: string;
  title: string;
  text: string;
  blocks: Block[];
  /** What reading the file warned of (pages left out as unreadable), when it did. */
  warnings?: string[];
}

/**
 * A chunk never is a bare string: it knows where it came from (ARCHITECTURE convention 2).
 * `start`/`end` are offsets into the document's extracted text, so text === docText.slice(start, end).
 */
export interface Chunk {
  id: string;
  position: number;
  text: string;
  start: number;
  end: number;
  tokenCount: number;
  /** Parent chunk id for children of `semantic_parent_child`; null otherwise. */
  parentId: string | null;
  /** Situating context prepended before embedding (contextual_retrieval); null otherwise. */
  context: string | null;
  /** `parent` rows are stored for the answer but not embedded or searched. */
  role: "chunk" | "parent";
}

export interface StrategyRunSummary {
  strategy: string;
  status: "completed";
  chunksProduced: number;
  tokens: { mean: number; min: number; max: number };
  seconds: number;
}

export interface StrategyFailure {
  strategy: string;
  error: string;
}

export interface ProcessResult {
  documentId: string;
  strategiesCompleted: StrategyRunSummary[];
  strategiesFailed: StrategyFailure[];
  /** What the caller should know that is not a failure (the embedding cache not updated); absent when nothing. */
  notes?: string[];
}

export interface RetrievedChunk {
  chunkId: string;
  /** The document the chunk is from (a collection's search returns chunks of several). */
  documentId: string;
  score: number;
  text: string;
  parentId: string | null;
  /** Offsets of `text` in the document's extracted text (what the answer sees). */
  start: number;
  end: number;
}

export interface LatencyBreakdown {
  embedSeconds: number;
  searchSeconds: number;
  answerSeconds: number;
  totalSeconds: number;
}

export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

export interface QueryRecord {
  queryId: string;
  documentId: string;
  strategy: string;
  question: string;
  answer: string;
  retrievedChunks: RetrievedChunk[];
  latencyBreakdown: LatencyBreakdown;
  tokenUsage: TokenUsage;
  /** Which generator answered, e.g. `extractive` or `openai:gpt-4o-mini`. */
  generator: string;
  createdAt: string;
}

/** Progress events of long service calls; the CLI draws them, the job runner stores them. */
export interface ProgressEvent {
  /**
   * The step of the run: `upload`, `plan` (a long run's estimate being made), `estimate` (its
   * figures), `index` (chunking and writing; without a strategy, the count of indexes built),
   * `embed` (a document's chunks embedded, counted), `answer`, `score` (the means, intervals and
   * comparisons after the answers, counted), `process`, `generating`, `bench`.
   */
  stage: string;
  /** The strategy or variant the event is about, when the step runs once per strategy. */
  strategy?: string;
  message: string;
  /** Units finished of `total` in this stage (and strategy): done === total ends it. */
  done?: number;
  total?: number;
}

export interface RunOptions {
  onProgress?: (event: ProgressEvent) => void;
  signal?: AbortSignal;
}

/** A named set of documents benchmarked together: each question searches all of them. */
export interface CollectionRecord {
  id: string;
  name: string;
  /**
   * In the order they were added; the file names are the names references use. `warnings`: what
   * reading the document warned of when it was uploaded (pages left out), present only then.
   */
  documents: Array<{ id: string; filename: string; warnings?: string[] }>;
  createdAt: string;
}

/**
 * How a strategy's search results are assembled, as its processing records it: `parent` answers
 * with the parents of the children found (semantic_parent_child); `dense` (every other strategy)
 * answers with the chunks found. Which search finds them is the run's (domain/default-search-mode.ts),
 * never the strategy's: `hybrid` is only read back from states stored before 29 November 2026,
 * when contextual_retrieval carried its own search mode, and means `dense` here.
 */
export type RetrievalMode = "dense" | "hybrid" | "parent";
