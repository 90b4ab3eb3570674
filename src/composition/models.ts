// The models of one composition: embedders (one per spec, cached, their vectors in the embedding
// cache), the answer generator, chat completers (their replies in the completion cache), the chunking
// LLM and judges. Each is made on first use, so a command that needs none loads none.
import type { ChunkevalConfig } from "../config/schema.js";
import type { CompletionCache, EmbeddingCache } from "../domain/ports/caches.js";
import type { Judge } from "../domain/judge.js";
import { CachedEmbedder } from "../embedders/cache.js";
import type { Embedder } from "../embedders/embedder.js";
import { createEmbedder, createEmbedderRegistry } from "../embedders/registry.js";
import { createJudge, createJudgeRegistry } from "../evaluators/registry.js";
import { cachedCompleter, type CompleteFn } from "../generators/cached-completer.js";
import type { Generator } from "../generators/generator.js";
import { createGenerator, createGeneratorRegistry } from "../generators/registry.js";
import { once } from "../services/once.js";
import type { ChunkingLlm } from "../strategies/strategy.js";

/** A model per spec, made once; a failed attempt is forgotten so the next call tries again. */
function perSpec<T>(make: (spec: string) => Promise<T>): (spec: string) => Promise<T> {
  const made = new Map<string, Promise<T>>();
  return (spec) => {
    let model = made.get(spec);
    if (!model) {
      model = make(spec);
      model.catch(() => made.delete(spec));
      made.set(spec, model);
    }
    return model;
  };
}

export function composeModels(config: Readonly<ChunkevalConfig>, caches: { embeddings: EmbeddingCache; completions: CompletionCache }) {
  const embedderRegistry = createEmbedderRegistry();
  const generatorRegistry = createGeneratorRegistry();
  const judgeRegistry = createJudgeRegistry();
  const providerSettings = {
    workers: config.embedderWorkers,
    batchSize: config.embedBatchSize,
    openai: config.openai,
    huggingFace: config.huggingFace,
  };
  const opened: Embedder[] = [];

  const cachedEmbedder = perSpec(async (spec) => {
    const inner = await createEmbedder(embedderRegistry, spec, providerSettings);
    opened.push(inner);
    return new CachedEmbedder(inner, caches.embeddings, config.embedBatchSize);
  });
  const embedder = (spec = config.embedder): Promise<CachedEmbedder> => cachedEmbedder(spec);
  const generator = once<Generator>(() => createGenerator(generatorRegistry, config.generator, { openai: config.openai }));
  const completer = perSpec<CompleteFn>(async (spec) =>
    cachedCompleter(await createGenerator(generatorRegistry, spec, { openai: config.openai }), caches.completions),
  );
  const llm = once<ChunkingLlm | undefined>(async () => {
    const g = await generator();
    if (!g.isLlm) return undefined;
    const complete = await completer(config.generator);
    return { name: g.name, complete: async (prompt, signal) => (await complete(prompt, signal)).text };
  });
  const judge = (spec = config.judge): Promise<Judge> => createJudge(judgeRegistry, spec, { embedder: () => embedder(), completer });

  return {
    embedder,
    generator,
    completer,
    llm,
    judge,
    /** Releases the embedders' worker threads. */
    close: async () => void (await Promise.all(opened.map((e) => e.close().catch(() => undefined)))),
  };
}
