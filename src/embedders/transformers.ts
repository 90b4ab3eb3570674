import { ProviderError, ValidationError, throwIfCancelled } from "../errors.js";
import type { Embedder, EmbedderDefinition } from "./embedder.js";

/**
 * Sentence-embedding ONNX models through @huggingface/transformers (hf:<model-id>), an optional
 * dependency loaded only when asked for. Models come from CHUNKEVAL_HF_MODEL_DIR (a folder of
 * <model-id>/ directories) or the Hugging Face cache and hub.
 */
export const transformersEmbedder: EmbedderDefinition = {
  name: "hf",
  description: "Hugging Face sentence-embedding models via transformers.js (hf:<model-id>), mean pooled and normalised.",
  async create(modelId, settings): Promise<Embedder> {
    if (!modelId) throw new ValidationError('hf embedder needs a model id: "hf:<model-id>", e.g. hf:Xenova/all-MiniLM-L6-v2');
    let transformers: typeof import("@huggingface/transformers");
    try {
      transformers = await import("@huggingface/transformers");
    } catch (error) {
      throw new ProviderError("hf embedders need the optional package @huggingface/transformers: npm install @huggingface/transformers", { cause: error });
    }
    const { env, pipeline } = transformers;
    if (settings.huggingFace.modelDir) env.localModelPath = settings.huggingFace.modelDir;
    env.allowRemoteModels = settings.huggingFace.allowRemote;
    let extractor: Awaited<ReturnType<typeof pipeline<"feature-extraction">>>;
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
