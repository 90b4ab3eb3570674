import { cosine } from "../domain/vectors.js";
import { ZERO_USAGE } from "../domain/metrics.js";
import type { SearchMode } from "../domain/variant-key.js";
import type { Embedder } from "../embedders/embedder.js";
import { sentenceSpans } from "../text/sentences.js";
import { contentTerms } from "../text/terms.js";
import { lowercaseWordsOf, unsupportedFact } from "./facts.js";
import type { Judge } from "../domain/judge.js";
import { createLexicalEvidence, createSentenceEvidence, unanswerableCap } from "./lexical-evidence.js";
import { rankedContextRelevance, rankSentences, type RankedSentence } from "./sentence-ranking.js";
import { answerSimilarity } from "./similarity.js";

/** A context sentence bears on a statement at or above this relatedness (0-1). */
export const RELEVANCE_THRESHOLD = 0.4;
/** An answer statement is supported at or above this relatedness to some context sentence. */
export const SUPPORT_THRESHOLD = 0.7;

/** A sentence with its content terms and vector: what the judge ranks, and compares for faithfulness. */
type Sentence = RankedSentence;

/** The distinct sentences of the texts: what the judge embeds of a document or a context. */
export function sentencesOf(texts: string[]): string[] {
  const seen = new Set<string>();
  for (const text of texts) for (const s of sentenceSpans(text)) seen.add(text.slice(s.start, s.end));
  return [...seen];
}

async function embedSentences(embedder: Embedder, texts: string[], signal?: AbortSignal): Promise<Sentence[]> {
  const vectors = await embedder.embed(texts, signal);
  return texts.map((text, i) => ({ text, terms: new Set(contentTerms(text)), vector: vectors[i]! }));
}

/** Relatedness of a to b (0-1): the larger of their embedding cosine and the share of a's content words found in b. */
function relatedness(a: Sentence, b: Sentence): number {
  let shared = 0;
  for (const t of a.terms) if (b.terms.has(t)) shared++;
  return Math.max(cosine(a.vector, b.vector), a.terms.size === 0 ? 0 : shared / a.terms.size);
}

/**
 * Embedders whose vectors are word overlap (feature hashing of words and word pairs): dense
 * retrieval with them ranks by the same evidence as the lexical judge.
 */
const LEXICAL_EMBEDDERS = new Set(["hash"]);

/**
 * Which evidence can judge context relevance independently of how the context was retrieved:
 * evidence the retriever did not rank by, so that a context does not score well merely for being
 * what the retriever preferred. `judgeEmbedder` is the judge's embedder, `retrieverEmbedder` the one
 * the context was searched with (the same unless a variant names its own: `@embedder=`). A retriever
 * ranks by embeddings when it searches densely with a semantic embedder: judged by lexical evidence
 * (lexical-evidence.ts). It ranks by word overlap when it searches by keyword (BM25), or densely
 * with a word-overlap embedder (`hash`): judged by the judge's own ranking of the document's
 * sentences, one of whose three orders is the judge's embedder (sentence-ranking.ts), when that is
 * semantic.
 * Hybrid retrieval with a semantic embedder ranks by both: no offline evidence is left that the
 * retriever did not use, so context relevance is not measured (null, with the reason).
 */
export function contextRelevanceEvidence(
  retrieval: SearchMode,
  judgeEmbedder: string,
  retrieverEmbedder: string = judgeEmbedder,
): { evidence: "lexical" | "sentence-ranking" } | { unmeasurable: string } {
  const semanticRetriever = !LEXICAL_EMBEDDERS.has(retrieverEmbedder);
  const ranksByEmbeddings = retrieval !== "keyword" && semanticRetriever;
  const ranksByWords = retrieval !== "dense" || !semanticRetriever;
  const hybrid = {
    unmeasurable:
      "hybrid retrieval ranks by both embeddings and keywords, so the offline judge has no evidence the retriever did not use " +
      "(judge with an LLM, or compare recall)",
  };
  if (ranksByEmbeddings && ranksByWords) return hybrid;
  if (ranksByEmbeddings) return { evidence: "lexical" };
  if (!LEXICAL_EMBEDDERS.has(judgeEmbedder)) return { evidence: "sentence-ranking" };
  if (retrieval === "hybrid") return hybrid;
  return {
    unmeasurable:
      `the ${judgeEmbedder} embedder is word overlap, so ${retrieval} retrieval ranks by the offline judge's own evidence ` +
      "(use a semantic embedder or an LLM judge)",
  };
}

/**
 * Faithfulness on 0-10: the share of the answer's statements (sentences) that the context
 * supports. A statement is supported when some context sentence is related to it at
 * SUPPORT_THRESHOLD and its facts hold: its numbers and names occur in the context sentences
 * related to it (stated about the same thing, for numbers), and its polarity matches the closest
 * one (see facts.ts).
 */
function faithfulness(statements: Sentence[], context: Sentence[], lowercaseWords: ReadonlySet<string>): number | null {
  if (statements.length === 0) return null;
  const supported = statements.filter((statement) => {
    const scored = context.map((s) => ({ s, r: relatedness(statement, s) }));
    const closest = scored.reduce<{ s: Sentence; r: number } | null>((best, x) => (best === null || x.r > best.r ? x : best), null);
    if (closest === null || closest.r < SUPPORT_THRESHOLD) return false;
    const evidence = scored.filter((x) => x.r >= RELEVANCE_THRESHOLD).map((x) => x.s.text);
    return unsupportedFact(statement.text, evidence, closest.s.text, lowercaseWords) === null;
  }).length;
  return (10 * supported) / statements.length;
}

/**
 * The default judge: no network, deterministic. Context relevance by evidence the retriever did
 * not use (contextRelevanceEvidence), faithfulness as above; answer similarity: see
 * similarity.ts. The document's sentences are embedded (when the embedder judges relevance) and
 * its word statistics computed once per document, and its sentences ranked once per question,
 * kept for the judge's life (one benchmark run: it judges one document many times, each question
 * once per variant).
 */
export function createEmbeddingJudge(embedder: Embedder): Judge {
  const documents = new Map<string, Promise<Sentence[]>>();
  const lowercaseWords = new Map<string, Set<string>>();
  const documentWords = (text: string) => {
    let words = lowercaseWords.get(text);
    if (!words) lowercaseWords.set(text, (words = lowercaseWordsOf(text)));
    return words;
  };
  const contentTermSets = new Map<string, Set<string>>();
  const documentTerms = (text: string) => {
    let terms = contentTermSets.get(text);
    if (!terms) contentTermSets.set(text, (terms = new Set(contentTerms(text))));
    return terms;
  };
  const documentSentences = (text: string, signal?: AbortSignal) => {
    let made = documents.get(text);
    if (!made) {
      made = embedSentences(embedder, sentencesOf([text]), signal);
      made.catch(() => documents.delete(text));
      documents.set(text, made);
    }
    return made;
  };
  const lexicalEvidence = createLexicalEvidence();
  const sentenceEvidence = createSentenceEvidence();
  const rankings = new Map<string, Map<string, RankedSentence[]>>();
  const sentenceRanking = async (question: Sentence, document: string, signal?: AbortSignal) => {
    const byQuestion = rankings.get(document) ?? rankings.set(document, new Map()).get(document)!;
    let ranking = byQuestion.get(question.text);
    if (!ranking) {
      const evidence = sentenceEvidence(question.text, document);
      byQuestion.set(question.text, (ranking = rankSentences(question, await documentSentences(document, signal), evidence)));
    }
    return ranking;
  };
  return {
    name: "embedding",
    contextRelevanceUnmeasurable(retrieval, retrieverEmbedder) {
      const chosen = contextRelevanceEvidence(retrieval, embedder.name, retrieverEmbedder);
      return "unmeasurable" in chosen ? chosen.unmeasurable : null;
    },
    contextRelevanceJudgedBy(retrieval, retrieverEmbedder) {
      const chosen = contextRelevanceEvidence(retrieval, embedder.name, retrieverEmbedder);
      if ("unmeasurable" in chosen) return null;
      return chosen.evidence === "lexical"
        ? "lexical evidence (the question's rare words, sentence by sentence)"
        : `the judge's ranking of the document's sentences (the ${embedder.name} embedder fused with the question's rare words)`;
    },
    async judge(input, signal) {
      const chosen = contextRelevanceEvidence(input.retrieval, embedder.name, input.retrieverEmbedder);
      const rankedRelevance = "evidence" in chosen && chosen.evidence === "sentence-ranking";
      const judgingStatements = input.answered && input.measureFaithfulness;
      // The question is embedded for what reads its vector (the sentence ranking), the context only for faithfulness.
      const [question, ...context] =
        judgingStatements || rankedRelevance
          ? await embedSentences(embedder, [input.question, ...(judgingStatements ? sentencesOf(input.contexts) : [])], signal)
          : [];
      const statements = judgingStatements ? await embedSentences(embedder, sentencesOf([input.answer]), signal) : [];
      let contextRelevance: number | null = null;
      if (rankedRelevance) {
        // The same cap as the lexical evidence's: no context of a document that never mentions the question's subject answers it.
        const score = rankedContextRelevance(await sentenceRanking(question!, input.document, signal), new Set(sentencesOf(input.contexts)));
        contextRelevance = Math.min(score, unanswerableCap(input.question, documentTerms(input.document)));
      } else if ("evidence" in chosen) contextRelevance = lexicalEvidence(input.question, input.contexts, input.document);
      return {
        contextRelevance,
        faithfulness: input.measureFaithfulness ? faithfulness(statements, context, documentWords(input.document)) : null,
        answerSimilarity: input.target === null ? null : await answerSimilarity(embedder, input.answer, input.target, signal),
        usage: ZERO_USAGE,
      };
    },
  };
}
