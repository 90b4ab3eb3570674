import { normalize } from "../domain/vectors.js";
import { contentTerms } from "../text/terms.js";
import type { Embedder, EmbedderDefinition } from "./embedder.js";

export const HASH_DIMENSION = 512;

/** FNV-1a, 32-bit: small, fast and stable across platforms. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * Feature hashing of stemmed content words and word pairs, with sublinear term frequency and
 * a hash-derived sign (so collisions cancel out on average). No model: deterministic, instant,
 * and a lexical baseline to compare semantic embedders with.
 */
export function hashEmbed(text: string): Float32Array {
  const v = new Float32Array(HASH_DIMENSION);
  const terms = contentTerms(text);
  const features = [...terms, ...terms.slice(1).map((t, i) => `${terms[i]} ${t}`)];
  const tf = new Map<string, number>();
  for (const f of features) tf.set(f, (tf.get(f) ?? 0) + 1);
  for (const [feature, n] of tf) {
    const h = fnv1a(feature);
    v[h % HASH_DIMENSION]! += (h & 0x80000000 ? -1 : 1) * (1 + Math.log(n));
  }
  return normalize(v);
}

export const hashEmbedder: EmbedderDefinition = {
  name: "hash",
  description: "Deterministic feature hashing of words and word pairs (512 dimensions); no model, for tests and a lexical baseline.",
  async create(): Promise<Embedder> {
    return {
      name: "hash",
      // Bump the version when hashEmbed changes what it computes: cached vectors of the old one must not be served.
      cacheKey: "hash v1 512 dimensions unit",
      async embed(texts) {
        return texts.map(hashEmbed);
      },
      async close() {},
    };
  },
};
