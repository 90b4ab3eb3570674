import { availableParallelism } from "node:os";

/** Every default in one place (docs/configuration.md "Configuration" lists them). */
export const DEFAULTS = {
  dataDir: ".chunkeval",
  embedder: "use",
  /** Worker threads for the default embedder: both cores of a 2-core machine, at most 2 more. */
  embedderWorkers: Math.min(4, Math.max(1, availableParallelism())),
  embedBatchSize: 64,
  generator: "extractive",
  judge: "embedding",
  /** Faithfulness (0-10) under which an answered question counts as a hallucination. */
  hallucinationThreshold: 5,
  topK: 5,
  maxTopK: 100,
  openaiMaxRetries: 3,
  openaiTimeoutSeconds: 60,
  hfAllowRemote: true,
  questionsDir: "questions",
  maxUploadMb: 25,
  /** A .docx package: its unpacked size, one entry's compression ratio, its entries. */
  maxUnpackedMb: 100,
  maxCompressionRatio: 100,
  maxZipEntries: 1000,
  /**
   * A PDF's pages (read from its page tree before any page is), and an HTML file's elements and
   * nesting depth (counted while streaming, so a bomb stops at the limit, not at the deadline).
   * 2,000 pages is a long book; 200,000 elements is several MB of ordinary markup; 256 levels is
   * far deeper than any real page (browsers' own parsers cap nesting at 512).
   */
  maxPdfPages: 2000,
  /**
   * A document of fewer visible characters is refused as almost empty: a page number or stray marks
   * is nothing to chunk (pdf.js's own test corpus holds 240 PDFs whose text layer is under 20).
   */
  minTextCharacters: 20,
  maxHtmlElements: 200_000,
  maxHtmlDepth: 256,
  /** The parsing worker: its deadline and its heap (a 50,000-paragraph .docx needs about 320 MB). */
  parseTimeoutSeconds: 60,
  parseMemoryMb: 512,
  /** Chunking one document with one strategy: linear in its text (tens of MB/s), so minutes mean something is wrong. */
  chunkTimeoutSeconds: 120,
  /** Running headers, footers and page numbers of PDFs are left out of chunks (strategies/page-furniture.ts). */
  keepPageFurniture: false,
  /** Largest JSON request body. */
  maxJsonBodyKb: 1024,
  /** Longest upload file name kept; longer names are cut. */
  maxFilenameLength: 255,
  maxBackgroundJobs: 1,
  /**
   * What one HTTP request may make the server spend: variants of a benchmark (four times the
   * CLI's default limit: a request may raise max_variants up to here, not past it), and chat calls
   * of a question generation (500 questions at the default 3 calls each).
   */
  httpMaxVariants: 256,
  httpMaxGenerationCalls: 1500,
  /**
   * Chat-model calls one benchmark or processing request over HTTP may make: 64 variants × 20
   * questions answered and judged by a language model (3 calls each), with room for
   * contextual_retrieval's chunk contexts.
   */
  httpMaxLlmCalls: 5000,
  /**
   * Load budgets of a server: four uploads of the largest size in flight (ten concurrent 20 MB
   * uploads took a server from 0.9 to 1.7 GB); four synchronous jobs (on two cores more only wait
   * for each other); a hundred background jobs waiting.
   */
  maxInflightUploadMb: 100,
  maxSyncJobs: 4,
  maxQueuedJobs: 100,
  /** A 2,000-page book cut into 128-token chunks is about 8,000; a 120 KB file cut every character was 23,710. */
  maxChunksPerDocument: 20_000,
  /** One pool per process: four replicas and four workers at 10 stay under PostgreSQL's default max_connections (100). */
  postgresPoolSize: 10,
  host: "127.0.0.1",
  port: 8000,
  ingestionStrategy: "recursive",
  ingestionMaxConcurrency: 4,
  ingestionTimeoutSeconds: 120,
  ingestionMaxChunks: 2000,
  ingestionEmbedConcurrency: 2,
  /** Question generation (docs/examples.md "Generated questions"): the most questions one request may ask for, */
  maxGeneratedQuestions: 500,
  /** the chat calls budgeted per requested question, retries of a malformed reply, */
  questionCallsPerQuestion: 3,
  malformedReplyRetries: 1,
  /** the least similarity at which a generated excerpt counts as found in the document, */
  minExcerptSimilarity: 0.85,
  /** and the embedding cosine at which a generated question duplicates a kept one. */
  duplicateQuestionSimilarity: 0.9,
  /** LanceDB folder under the data directory when `vector_store_uri` is not set. */
  vectorStoreFolder: "lancedb",
  /** The embedding and completion cache's folder under the data directory, unless cache_dir says otherwise. */
  cacheFolder: "cache",
  /** Table versions younger than this survive cleanup: another process may still be reading them. */
  vectorVersionRetentionSeconds: 300,
  /** Vector-store upkeep (indexes, compaction, cleanup) runs this long after a write. */
  vectorMaintenanceDelayMs: 5000,
  /** Rows of a tenant's /v1 points table past which an ANN index replaces exact search. */
  vectorIndexMinRows: 10000,
  /** Evaluation tables (and collection searches) past this many rows use an ANN index; smaller scopes stay exact. */
  evaluationVectorIndexMinRows: 20000,
  /** Sweeps (docs/benchmarks.md "Variants and sweeps"): a bench of more variants than this is refused unless --max-variants raises it; */
  maxSweepVariants: 64,
  /** above any of these, a terminal asks before running (and without a terminal, --yes is needed). */
  confirmSweepVariants: 12,
  confirmSweepUsd: 1,
  confirmSweepSeconds: 600,
  /** A bench expected to take longer than this says its estimate (time, cost, what they hold) before it starts. */
  announceEstimateSeconds: 60,
  listLimit: 50,
  maxListLimit: 500,
  /** Largest list offset accepted (a store cannot bind an arbitrary number). */
  maxListOffset: 1_000_000_000,
} as const;
