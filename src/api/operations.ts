/** Running chunkeval: the tokenizer's tables loaded before a long-lived process serves, and the embedding and completion cache's upkeep. */
export { loadTokenizer } from "../text/tokens.js";
export { clearCache, describeCache, pruneCache } from "../services/cache.js";
