import { addUsage, ZERO_USAGE } from "../../domain/metrics.js";
import type { StoredDocument, TokenUsage } from "../../domain/types.js";
import type { Embedder } from "../../embedders/embedder.js";
import type { CompleteFn } from "../../generators/cached-completer.js";
import type { Span } from "../../text/spans.js";

/** What a step that asks the model passage by passage for `count` more questions is given. */
export interface PassageAsking {
  doc: StoredDocument;
  /** Passages of the document in the order to ask them. */
  passages: Span[];
  count: number;
  maxCalls: number;
  malformedRetries: number;
  duplicateSimilarity: number;
  /** Vectors of the questions already kept: a question too close to one of them is dropped as a duplicate. */
  keptVectors: Float32Array[];
  complete: CompleteFn;
  embedder: Embedder;
  signal?: AbortSignal;
}

/** What a generation step's chat calls came to, summed into the questions file's counts. */
export interface CallTally {
  calls: number;
  cachedReplies: number;
  malformedReplies: number;
  usage: TokenUsage;
}

export const emptyTally = (): CallTally => ({ calls: 0, cachedReplies: 0, malformedReplies: 0, usage: ZERO_USAGE });

/**
 * Asks the model once, and again up to `retries` times while the reply cannot be parsed and the
 * tally stays under `maxCalls`. A malformed reply is not cached (accept), so asking again really
 * asks the model again. The parsed reply, or null.
 */
export async function askWithRetries<T>(
  complete: CompleteFn,
  prompt: string,
  parse: (text: string) => T | null,
  tally: CallTally,
  limits: { retries: number; maxCalls: number; signal?: AbortSignal },
): Promise<T | null> {
  let reply: T | null = null;
  for (let attempt = 0; attempt <= limits.retries && tally.calls < limits.maxCalls && reply === null; attempt++) {
    const completion = await complete(prompt, limits.signal, (text) => parse(text) !== null);
    tally.calls++;
    if (completion.cached) tally.cachedReplies++;
    tally.usage = addUsage(tally.usage, completion.usage);
    reply = parse(completion.text);
    if (reply === null) tally.malformedReplies++;
  }
  return reply;
}
