import { ProviderError, ValidationError, throwIfCancelled } from "../errors.js";
import type { Embedder, EmbedderDefinition, EmbedderSettings } from "./embedder.js";
import { normalize } from "../domain/vectors.js";

/** Where the SDK sends requests when no base URL is configured. */
export const DEFAULT_OPENAI_BASE_URL = "https://api.openai.com/v1";

/** Builds an OpenAI SDK client for any OpenAI-compatible endpoint (OpenAI, Ollama, vLLM, llama.cpp). */
export async function createOpenAiClient(settings: EmbedderSettings["openai"]) {
  const { default: OpenAI } = await import("openai");
  return new OpenAI({
    // Local servers usually ignore the key, but the SDK insists on one.
    apiKey: settings.apiKey ?? "not-set",
    baseURL: settings.baseUrl,
    // The SDK retries 408, 409, 429 and 5xx with exponential backoff and honours Retry-After.
    maxRetries: settings.maxRetries,
    timeout: settings.timeoutSeconds * 1000,
  });
}

export function describeProviderError(what: string, error: unknown): ProviderError {
  const e = error as { status?: number; message?: string };
  const status = e.status ? `HTTP ${e.status}: ` : "";
  return new ProviderError(`${what} failed: ${status}${e.message ?? String(error)}`, { cause: error });
}

export const openAiEmbedder: EmbedderDefinition = {
  name: "openai",
  description: "Any OpenAI-compatible /embeddings endpoint (openai:<model>); base URL and key from the environment.",
  async create(model, settings): Promise<Embedder> {
    if (!model) throw new ValidationError('openai embedder needs a model: "openai:<model>", e.g. openai:text-embedding-3-small');
    const client = await createOpenAiClient(settings.openai);
    return {
      name: `openai:${model}`,
      // The same model name on another server (a local one, say) is another model; vectors are normalised here.
      cacheKey: `openai:${model} unit at ${settings.openai.baseUrl ?? DEFAULT_OPENAI_BASE_URL}`,
      async embed(texts, signal) {
        const out: Float32Array[] = [];
        for (let i = 0; i < texts.length; i += settings.batchSize) {
          throwIfCancelled(signal);
          const batch = texts.slice(i, i + settings.batchSize);
          let response;
          try {
            // Plain floats: the SDK's default (base64) is not understood by every compatible server.
            response = await client.embeddings.create({ model, input: batch, encoding_format: "float" }, { signal });
          } catch (error) {
            throw describeProviderError(`embedding with openai:${model}`, error);
          }
          // A compatible server may answer anything: a reply of another shape is its error, not ours.
          const data = (response as { data?: unknown } | null)?.data;
          if (!Array.isArray(data) || !data.every((item) => item !== null && typeof item === "object")) {
            throw new ProviderError(`openai:${model} returned no embeddings (a reply without data, or with items that are not objects)`);
          }
          if (data.length !== batch.length) {
            throw new ProviderError(`openai:${model} returned ${data.length} embeddings for ${batch.length} texts`);
          }
          const sorted = [...(data as Array<{ index: number; embedding: unknown }>)].sort((a, b) => a.index - b.index);
          for (const item of sorted) {
            if (!Array.isArray(item.embedding) || !item.embedding.every((x) => typeof x === "number")) {
              throw new ProviderError(`openai:${model} returned an embedding that is not a list of numbers`);
            }
            out.push(normalize(Float32Array.from(item.embedding as number[])));
          }
        }
        return out;
      },
      async close() {},
    };
  },
};
