/** Turns texts into vectors (port). Vectors are unit length so dot product = cosine. */
export interface Embedder {
  /** Full spec, e.g. `use`, `hash`, `openai:text-embedding-3-small`; part of cache keys and table names. */
  readonly name: string;
  /**
   * What makes this embedder's vectors what they are (model and its version, dimensions,
   * normalisation, the endpoint serving it): the embedding cache's key, so a cache folder
   * restored from another machine serves only vectors this embedder computes. Default: `name`.
   */
  readonly cacheKey?: string;
  embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]>;
  close(): Promise<void>;
}

export interface EmbedderSettings {
  workers: number;
  batchSize: number;
  openai: { baseUrl?: string; apiKey?: string; maxRetries: number; timeoutSeconds: number };
  huggingFace: { modelDir?: string; allowRemote: boolean };
}

export interface EmbedderDefinition {
  /** The part before the colon of an embedder spec. */
  name: string;
  description: string;
  /** `argument` is what follows the colon (a model id), or "" when there is none. */
  create(argument: string, settings: EmbedderSettings): Promise<Embedder>;
}
