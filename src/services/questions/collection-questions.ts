// A collection's questions: each document's share of the count, generated from it alone, and
// the documents that yielded none recorded with the reason.
import { addUsage, ZERO_USAGE } from "../../domain/metrics.js";
import { nowTimestamp } from "../../domain/ids.js";
import type { CollectionRecord, StoredDocument } from "../../domain/types.js";
import { BenchmarkError, throwIfCancelled } from "../../errors.js";
import { costOf } from "../../generators/pricing.js";
import type { ServiceContext } from "../context.js";
import { withLeak, type LeakPolicy } from "./question-leak.js";
import { generateForDocument } from "./document-questions.js";
import type { DropReason, GenerateQuestionsInput, GeneratedQuestionsFile, QuestionGenerationMetadata } from "./generated-questions.js";

/**
 * How many of `count` questions each document gets: in proportion to its length (largest
 * remainders), at least one each while `count` allows; with fewer questions than documents,
 * one each for the longest.
 */
export function questionQuotas(lengths: number[], count: number): number[] {
  const quotas = lengths.map(() => 0);
  const byLength = lengths.map((length, i) => ({ length, i })).sort((a, b) => b.length - a.length || a.i - b.i);
  if (count <= lengths.length) {
    for (const { i } of byLength.slice(0, count)) quotas[i] = 1;
    return quotas;
  }
  // Largest remainders over the lengths, then every document given one, taken from the largest share.
  const total = lengths.reduce((a, b) => a + b, 0) || 1;
  const shares = lengths.map((length) => (count * length) / total);
  shares.forEach((share, i) => (quotas[i] = Math.floor(share)));
  const left = count - quotas.reduce((a, b) => a + b, 0);
  const byRemainder = shares.map((share, i) => ({ r: share - Math.floor(share), i })).sort((a, b) => b.r - a.r || a.i - b.i);
  for (const { i } of byRemainder.slice(0, left)) quotas[i]!++;
  for (const [i, quota] of quotas.entries()) {
    if (quota > 0) continue;
    const largest = quotas.reduce((best, q, j) => (q > quotas[best]! ? j : best), 0);
    quotas[largest]!--;
    quotas[i] = 1;
  }
  return quotas;
}

/**
 * Questions for a collection: each document's share of `count` is generated from it alone, and
 * every reference names its document. A document that yields none is recorded as skipped with
 * the reason; the call budget is shared out like the questions.
 */
export async function generateForCollection(
  ctx: ServiceContext,
  collection: CollectionRecord,
  documents: StoredDocument[],
  spec: string,
  input: GenerateQuestionsInput,
  policy: LeakPolicy,
): Promise<GeneratedQuestionsFile> {
  const quotas = questionQuotas(
    documents.map((d) => d.text.length),
    input.count,
  );
  const negativeQuotas = questionQuotas(
    documents.map((d) => d.text.length),
    input.negatives ?? 0,
  );
  const multiHopQuotas = questionQuotas(
    documents.map((d) => d.text.length),
    input.multiHop ?? 0,
  );
  const files: Array<{ doc: StoredDocument; file: GeneratedQuestionsFile | null; skipped: string | null }> = [];
  for (const [i, doc] of documents.entries()) {
    throwIfCancelled(input.signal);
    if (quotas[i] === 0) {
      files.push({ doc, file: null, skipped: null });
      continue;
    }
    input.onProgress?.({ stage: "generating", message: `${doc.filename}: ${quotas[i]} question(s)`, done: i, total: documents.length });
    const share = (quotas[i]! + negativeQuotas[i]! + multiHopQuotas[i]!) / (input.count + (input.negatives ?? 0) + (input.multiHop ?? 0));
    const maxCalls = input.maxCalls === undefined ? undefined : Math.max(1, Math.round(input.maxCalls * share));
    try {
      const [negatives, multiHop] = [negativeQuotas[i]!, multiHopQuotas[i]!];
      const file = await generateForDocument(ctx, doc, spec, { ...input, count: quotas[i]!, negatives, multiHop, maxCalls }, policy);
      files.push({ doc, file, skipped: null });
    } catch (error) {
      if (!(error instanceof BenchmarkError)) throw error;
      files.push({ doc, file: null, skipped: error.message });
    }
  }
  const made = files.filter((f) => f.file !== null).map((f) => ({ doc: f.doc, file: f.file! }));
  if (made.length === 0) throw new BenchmarkError(`no document of ${collection.name} yielded a question: ${files.map((f) => f.skipped).filter(Boolean)[0]}`);
  const merged = made.flatMap(({ doc, file }) =>
    file.questions.map((q) => ({ ...q, references: q.references.map((r) => ({ document: doc.filename, ...r })) })),
  );
  const paraphrases = made.flatMap(({ file }) => file.metadata.leak.paraphrases);
  const { questions, leak } = withLeak(merged, policy, paraphrases, made[0]!.file.metadata.leak.paraphrasePrompt);
  const positives = questions.filter((q) => q.answerable !== false).length;
  const first = made[0]!.file.metadata;
  const sum = (pick: (m: QuestionGenerationMetadata) => number) => made.reduce((n, { file }) => n + pick(file.metadata), 0);
  const dropped = { poor_excerpt: 0, duplicate: 0, malformed: 0, copies_excerpt: 0 };
  for (const { file } of made) for (const reason of Object.keys(dropped) as DropReason[]) dropped[reason] += file.metadata.counts.dropped[reason];
  const tokenUsage = made.reduce((u, { file }) => addUsage(u, file.metadata.tokenUsage), ZERO_USAGE);
  return {
    metadata: {
      ...first,
      document: { id: collection.id, filename: collection.name, title: collection.name },
      collection: {
        id: collection.id,
        name: collection.name,
        documents: files.map(({ doc, file, skipped }) => ({ id: doc.id, filename: doc.filename, questions: file?.questions.length ?? 0, skipped })),
      },
      budget: first.budget && input.maxCalls !== undefined ? { ...first.budget, maxCalls: input.maxCalls } : first.budget,
      counts: {
        requested: input.count,
        kept: positives,
        calls: sum((m) => m.counts.calls),
        cachedReplies: sum((m) => m.counts.cachedReplies),
        malformedReplies: sum((m) => m.counts.malformedReplies),
        passagesAvailable: sum((m) => m.counts.passagesAvailable),
        passagesUsed: sum((m) => m.counts.passagesUsed),
        dropped,
      },
      drops: made.flatMap(({ doc, file }) => file.metadata.drops.map((d) => ({ ...d, detail: `${doc.filename}: ${d.detail}` }))),
      tokenUsage,
      costUsd: costOf(spec, tokenUsage),
      createdAt: nowTimestamp(),
      leak,
      negatives: { requested: input.negatives ?? 0, kept: questions.length - positives, prompt: first.negatives.prompt },
      multiHop: { requested: input.multiHop ?? 0, kept: sum((m) => m.multiHop.kept), prompt: first.multiHop.prompt },
    },
    questions,
  };
}
