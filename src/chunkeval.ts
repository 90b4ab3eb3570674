import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { ChunkevalConfig } from "./config/schema.js";
import { CachedEmbedder, hashText } from "./embedders/cache.js";
import type { Embedder } from "./embedders/embedder.js";
import { createEmbedder, createEmbedderRegistry } from "./embedders/registry.js";
import type { Generator } from "./generators/generator.js";
import { createGenerator, createGeneratorRegistry } from "./generators/registry.js";
import type { ServiceContext } from "./services/context.js";
import { askQuestion, getQuery, type AskInput } from "./services/ask.js";
import { deleteDocument, listDocuments, requireDocument, uploadDocument, type UploadInput } from "./services/documents.js";
import { processDocument, type ProcessOptions } from "./services/process.js";
import type { ChunkingLlm } from "./strategies/strategy.js";
import { createStrategyRegistry } from "./strategies/registry.js";
import { openDatabase } from "./stores/sqlite/database.js";
import { ChunksRepo } from "./stores/sqlite/chunks-repo.js";
import { DocumentsRepo } from "./stores/sqlite/documents-repo.js";
import { QueriesRepo } from "./stores/sqlite/queries-repo.js";
import { CompletionCacheRepo, EmbeddingCacheRepo } from "./stores/sqlite/cache-repos.js";
import { LanceVectorStore } from "./stores/vectors/lancedb.js";
import type { VectorStore } from "./stores/vectors/vector-store.js";

/** Memoises an async factory so concurrent first calls share one instance. */
function once<T>(factory: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => (made ??= factory().catch((error) => {
    made = undefined;
    throw error;
  }));
}

/**
 * The composition root: builds concrete adapters from the configuration and hands the
 * services one context. Transports (CLI, HTTP) and library users call the returned object.
 */
export async function createChunkeval(config: Readonly<ChunkevalConfig>) {
  mkdirSync(config.dataDir, { recursive: true });
  const db = openDatabase(join(config.dataDir, "chunkeval.sqlite"));
  const chunks = new ChunksRepo(db);
  const embeddingCache = new EmbeddingCacheRepo(db);
  const completionCache = new CompletionCacheRepo(db);
  const embedderRegistry = createEmbedderRegistry();
  const generatorRegistry = createGeneratorRegistry();
  const providerSettings = {
    workers: config.embedderWorkers,
    batchSize: config.embedBatchSize,
    openai: config.openai,
    huggingFace: config.huggingFace,
  };

  const embedders = new Map<string, Promise<CachedEmbedder>>();
  const openedVectors: VectorStore[] = [];
  const openedEmbedders: Embedder[] = [];

  const vectors = once(async () => {
    const store = await LanceVectorStore.open(join(config.dataDir, "lancedb"));
    openedVectors.push(store);
    // Recovery rule of stores/README.md: vectors no current generation points to are removed.
    await store.sweep(chunks.currentGenerations());
    return store;
  });

  const generator = once<Generator>(() => createGenerator(generatorRegistry, config.generator, { openai: config.openai }));

  const llm = once<ChunkingLlm | undefined>(async () => {
    const g = await generator();
    if (!g.isLlm || !g.complete) return undefined;
    const complete = g.complete;
    return {
      name: g.name,
      async complete(prompt, signal) {
        const hash = hashText(prompt);
        const cached = completionCache.get(g.name, hash);
        if (cached) return cached.completion;
        const result = await complete(prompt, signal);
        completionCache.put(g.name, hash, {
          completion: result.text,
          promptTokens: result.usage.promptTokens,
          completionTokens: result.usage.completionTokens,
        });
        return result.text;
      },
    };
  });

  const context: ServiceContext = {
    config,
    documents: new DocumentsRepo(db),
    chunks,
    queries: new QueriesRepo(db),
    strategies: createStrategyRegistry(),
    filesDir: join(config.dataDir, "files"),
    vectors,
    embedder(spec = config.embedder) {
      let made = embedders.get(spec);
      if (!made) {
        made = createEmbedder(embedderRegistry, spec, providerSettings).then((inner) => {
          openedEmbedders.push(inner);
          return new CachedEmbedder(inner, embeddingCache, config.embedBatchSize);
        });
        made.catch(() => embedders.delete(spec));
        embedders.set(spec, made);
      }
      return made;
    },
    generator,
    llm,
  };

  return {
    config,
    context,
    upload: (input: UploadInput) => uploadDocument(context, input),
    listDocuments: (page: { offset: number; limit: number }) => listDocuments(context, page),
    getDocument: (id: string) => requireDocument(context, id),
    deleteDocument: (id: string) => deleteDocument(context, id),
    process: (documentId: string, strategies: string | string[], options?: ProcessOptions) =>
      processDocument(context, documentId, strategies, options),
    ask: (input: AskInput) => askQuestion(context, input),
    getQuery: (id: string) => getQuery(context, id),
    strategies: () => context.strategies.describe(),
    /** Releases worker threads, LanceDB handles and the database. */
    async close() {
      await Promise.all(openedEmbedders.map((e) => e.close().catch(() => undefined)));
      await Promise.all(openedVectors.map((v) => v.close().catch(() => undefined)));
      db.close();
    },
  };
}

export type Chunkeval = Awaited<ReturnType<typeof createChunkeval>>;
