import { fileURLToPath } from "node:url";
import { ProviderError, ValidationError, throwIfCancelled } from "../errors.js";
import type { Embedder, EmbedderDefinition } from "./embedder.js";
import { installedVersion } from "./package-version.js";

/** The version chunkeval is tested with (the one LanceDB 0.37 names as its optional dependency). */
const TRANSFORMERS_PACKAGE = "@huggingface/transformers@3.0.2";

/**
 * The part of @huggingface/transformers used here, declared locally: the package is opt-in, so
 * type-checking and building must not need it.
 */
interface FeatureExtractor {
  (texts: string[], options: { pooling: "mean"; normalize: boolean }): Promise<{ tolist(): unknown }>;
  dispose(): Promise<void>;
}
interface TransformersModule {
  env: { localModelPath: string; allowRemoteModels: boolean };
  pipeline(task: "feature-extraction", model: string, options: { dtype: "fp32" }): Promise<FeatureExtractor>;
}
const TRANSFORMERS_MODULE = "@huggingface/transformers";

/**
 * The one command that installs @huggingface/transformers where this copy of chunkeval finds it:
 * its own folder, a clone or an installed package alike (an installed chunkeval resolves its
 * dependencies from its own node_modules, where the stand-in sits). package.json is left as it is;
 * an installed package skips the dev dependencies. onnxruntime-node would otherwise download CUDA
 * binaries at install time; chunkeval runs on the CPU.
 */
export function transformersInstallCommand(packageRoot: string): string {
  const installed = packageRoot.split(/[\\/]/).includes("node_modules");
  return `cd ${packageRoot} && ONNXRUNTIME_NODE_INSTALL_CUDA=skip npm install --no-save${installed ? " --omit=dev" : ""} ${TRANSFORMERS_PACKAGE}`;
}

/** Imports @huggingface/transformers, or fails with the command that installs it. */
async function loadTransformers(): Promise<TransformersModule> {
  const loaded = (await import(TRANSFORMERS_MODULE).catch((error: unknown) => ({ error }))) as Partial<TransformersModule> & { error?: unknown };
  // The default install puts a small stand-in under this name (package.json "overrides"): no pipeline.
  if (typeof loaded.pipeline === "function" && loaded.env) return loaded as TransformersModule;
  // This file is src/embedders/ or dist/embedders/: the package root is two folders up.
  const root = fileURLToPath(new URL("../../", import.meta.url)).replace(/[\\/]$/, "");
  throw new ProviderError(
    "hf: embedders need @huggingface/transformers, which chunkeval does not install by default (with onnxruntime it is ~330 MB). " +
      `Install it with:\n  ${transformersInstallCommand(root)}`,
    { cause: loaded.error },
  );
}

/**
 * Sentence-embedding ONNX models through @huggingface/transformers (hf:<model-id>), an opt-in
 * package (not installed by default) loaded only when asked for. Models come from
 * CHUNKEVAL_HF_MODEL_DIR (a folder of <model-id>/ directories) or the Hugging Face cache and hub.
 */
export const transformersEmbedder: EmbedderDefinition = {
  name: "hf",
  description: "Hugging Face sentence-embedding models via transformers.js (hf:<model-id>), mean pooled and normalised.",
  async create(modelId, settings): Promise<Embedder> {
    if (!modelId) throw new ValidationError('hf embedder needs a model id: "hf:<model-id>", e.g. hf:Xenova/all-MiniLM-L6-v2');
    const { env, pipeline } = await loadTransformers();
    if (settings.huggingFace.modelDir) env.localModelPath = settings.huggingFace.modelDir;
    env.allowRemoteModels = settings.huggingFace.allowRemote;
    let extractor: FeatureExtractor;
    try {
      extractor = await pipeline("feature-extraction", modelId, { dtype: "fp32" });
    } catch (error) {
      const where = settings.huggingFace.modelDir ? `not in ${settings.huggingFace.modelDir}` : "no local copy (set CHUNKEVAL_HF_MODEL_DIR)";
      const hub = settings.huggingFace.allowRemote ? "and the Hugging Face hub could not be reached" : "and remote models are disabled";
      throw new ProviderError(
        `hf:${modelId}: the model cannot be loaded offline: ${where}, ${hub} (${error instanceof Error ? error.message.split("\n")[0] : String(error)})`,
        { cause: error },
      );
    }
    return {
      name: `hf:${modelId}`,
      cacheKey: `hf:${modelId} fp32 mean-pooled unit with ${TRANSFORMERS_MODULE}@${installedVersion(TRANSFORMERS_MODULE)}`,
      async embed(texts, signal) {
        const out: Float32Array[] = [];
        for (let i = 0; i < texts.length; i += settings.batchSize) {
          throwIfCancelled(signal);
          const tensor = await extractor(texts.slice(i, i + settings.batchSize), { pooling: "mean", normalize: true });
          for (const row of tensor.tolist() as number[][]) out.push(Float32Array.from(row));
        }
        return out;
      },
      async close() {
        await extractor.dispose();
      },
    };
  },
};
