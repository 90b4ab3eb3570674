import { sentenceSpans } from "../text/sentences.js";
import { wordLogProbability } from "../text/english-rarity.js";
import { contentTerms, contentWords } from "../text/terms.js";
import { ANSWER_TYPES, answerTypesAsked, type AnswerType } from "./answer-types.js";

/**
 * Lexical evidence that a context answers a question, on 0-10, for context relevance when the
 * context was retrieved by a semantic embedder (dense retrieval). Its per-sentence evidence is also
 * one of the three orders of the sentence ranking that judges keyword retrieval (sentence-ranking.ts).
 *
 * The evidence is one sentence at a time: the share of the question's content words that the
 * sentence holds, each weighted by how rare it is in the document (inverse sentence frequency),
 * halved when the question asks for a time or a quantity and the sentence holds none
 * (answer-types.ts). The context's best sentence is then measured against the document's best
 * sentence by the same evidence (10 = as good as anything the document holds). A question in
 * several parts ("how much …, and where is it kept?") is scored part by part and averaged, so a
 * context that answers one part of two gets about half.
 *
 * A name the question gives (a capitalised word past its first) that few of the document's
 * sentences hold picks out one section among look-alikes: "the Toll Bar reservoir" among the
 * reservoirs, "the Brindle Cross booster station" among the stations. A context that holds none
 * of it is about another look-alike, however well its sentences match the rest of the question,
 * so that part's score is halved. Names that many sentences hold (the product or place a whole
 * document is about) tell no section apart and are not required.
 *
 * Why this is independent of dense retrieval: the retriever ranks whole chunks by embedding
 * similarity; this judge never looks at embeddings, scores single sentences, rewards the rare
 * words of the question occurring together (not a chunk's overall topic) and the kind of answer
 * asked for being present. Its 10 is the sentence this evidence prefers, which the retriever has
 * no reason to have found. It is not independent of keyword retrieval (BM25 ranks by the same
 * rare words), nor of a lexical embedder: the embedding judge uses it only with a semantic
 * embedder's dense retrieval (see embedding-judge.ts).
 *
 * Measured against the document rather than on an absolute scale because questions written in
 * their own words share few words with any passage: the absolute share is low everywhere and says
 * more about the wording than about the context. The document's best is the judge's own
 * favourite, not the retriever's. Not used: the reference excerpts (that would be span recall).
 *
 * Being relative, that score cannot see what no sentence of the document holds: a question about
 * a subject the document never mentions ("What does the section on billing say about Song dynasty
 * porcelain?") scores 10 once its other words are retrieved. So the score is capped at 0 when the
 * question's words say the document does not hold its subject (unanswerableCap), measured in
 * information: each content word's self-information in English (english-rarity.ts: "tungsten"
 * carries four times what "point" does). A run of consecutive words that the whole document never
 * uses and that together carry more than UNKNOWN_SUBJECT_INFORMATION names a subject the document
 * does not mention ("the hibernation of dormice", "the boiling point of tungsten"); so does a
 * question more than ABSENT_INFORMATION_MAX_SHARE of whose information lies in such words.
 *
 * Why no cap for words the question has and the context or the document lacks in a row: people
 * ask in their own words. Earlier versions capped the score at 5 when the context lacked three
 * consecutive words of the question and at 0 from four, and at 0 for three consecutive words the
 * document never uses, common or rare. On questions written as a reader would ask them
 * ("Over which holiday period are releases to production blocked?" of a runbook that says
 * "year-end freeze") those caps fired on contexts that did hold the answer, for every strategy
 * alike: on the example corpus (examples/corpus, 38 questions, seven dense variants) the Spearman
 * correlation with span recall was 0.27 / 0.34 at top_k 1 / 5 with them and is 0.52 / 0.50 with
 * the caps below; the handbook's figures are unchanged and the standard corpus's went from 0.61 /
 * 0.52 to 0.60 / 0.54 (context-relevance-{handbook,standard,example-corpus}.test.ts).
 * English rarity and self-information: english-rarity.ts. The embedding judge caps its
 * keyword-retrieval score the same way.
 */

/** What is left of a sentence's evidence when the question asks for a time or quantity and the sentence holds none. */
export const MISSING_ANSWER_TYPE_FACTOR = 0.5;
/**
 * The self-information (nats) that a run of consecutive question words the document never uses may
 * carry without a cap. The template negatives' subjects carry 55 to 102 ("the rules of underwater
 * hockey", 39, is the exception); the most that a run of a hand-written answerable question of the
 * four bundled sets carries is 49 ("ordinary non-incident", where the standard says "routine").
 */
export const UNKNOWN_SUBJECT_INFORMATION = 50;
/**
 * The most self-information one word counts for: so that a single word never caps a question on
 * its own (one long, hyphenated or foreign word the document spells otherwise, "kilowatt-hour"
 * against "kilowatt hour", reaches 50 alone), while two rare words still do ("the tuning of a
 * harpsichord": 17.9 + 42.0, counted 17.9 + 35).
 */
const MAX_WORD_INFORMATION = 35;
/**
 * The share rule needs at least this many words the document never uses: in a short question one
 * word spelt otherwise is most of its information ("What is the price per kilowatt-hour?" of a text
 * that says "kilowatt hour", "How are reimbursements paid?" of one that says "claims").
 */
const MIN_ABSENT_WORDS_FOR_SHARE = 2;
/**
 * The share of a question's information (answer-type wording left out) that may lie in words the
 * whole document never uses; above it the score is capped at 0. Of the 166 hand-written questions
 * of the four bundled question sets, 3 exceed 0.6 (8 exceed 0.5).
 */
export const ABSENT_INFORMATION_MAX_SHARE = 0.6;
/** A part of a question with fewer content words than this joins the part before it ("…, and where?" says too little alone). */
const MIN_PART_TERMS = 2;
/** A question's name is required of the context when at most this share of the document's sentences hold it. */
export const DISTINCTIVE_NAME_MAX_SHARE = 0.02;
/** What is left of a question part's score when the context lacks one of its distinctive names. */
export const MISSING_NAME_FACTOR = 0.5;

export interface EvidenceSentence {
  text: string;
  terms: ReadonlySet<string>;
}

interface DocumentStatistics {
  sentences: EvidenceSentence[];
  /** In how many sentences each term occurs. */
  sentenceFrequency: Map<string, number>;
  /** The document's best evidence per question part, cached: a benchmark asks every question of every strategy. */
  bestByPart: Map<string, number>;
}

const evidenceSentences = (texts: string[]): EvidenceSentence[] =>
  texts.flatMap((text) => sentenceSpans(text).map((s) => text.slice(s.start, s.end))).map((text) => ({ text, terms: new Set(contentTerms(text)) }));

const bestOf = (sentences: EvidenceSentence[], evidence: (s: EvidenceSentence) => number) => sentences.reduce((best, s) => Math.max(best, evidence(s)), 0);

function statisticsOf(text: string): DocumentStatistics {
  const sentences = evidenceSentences([text]);
  const sentenceFrequency = new Map<string, number>();
  for (const s of sentences) for (const t of s.terms) sentenceFrequency.set(t, (sentenceFrequency.get(t) ?? 0) + 1);
  return { sentences, sentenceFrequency, bestByPart: new Map() };
}

/**
 * The parts of a question that each ask for something: split at clause punctuation and at an
 * "and" that opens a new question ("…, and who signs it off?"); a part with too few content
 * words joins the part before it.
 */
export function questionParts(question: string): string[] {
  const pieces = question
    .split(/\s*(?:[,;:]\s*(?:and|or|but)?|\band\b(?=\s+(?:how|what|when|where|who|whom|which|why|is|are|does|do|did|can|may|must|should|will))|\?)\s+/i)
    .filter((p) => contentTerms(p).length > 0);
  const parts: string[] = [];
  for (const piece of pieces) {
    if (parts.length > 0 && contentTerms(piece).length < MIN_PART_TERMS) parts[parts.length - 1] += ` ${piece}`;
    else parts.push(piece);
  }
  return parts.length > 0 ? parts : [question];
}

/** The content terms of a part's names (capitalised words past the first word) that few of the document's sentences hold. */
function distinctiveNames(part: string, document: DocumentStatistics): string[] {
  const names = contentTerms((part.match(/(?<=\S\s+)[A-Z][a-z]+/g) ?? []).join(" "));
  const most = DISTINCTIVE_NAME_MAX_SHARE * document.sentences.length;
  return [...new Set(names)].filter((t) => (document.sentenceFrequency.get(t) ?? Infinity) <= most);
}

/** One question part's evidence scorer over a document's statistics: 0-1 per sentence. */
function partEvidence(part: string, document: DocumentStatistics): ((s: EvidenceSentence) => number) | null {
  const n = document.sentences.length;
  // Words the document never uses cannot be evidence anywhere; they would only lower every score alike.
  const terms = [...new Set(contentTerms(part))].filter((t) => document.sentenceFrequency.has(t));
  if (terms.length === 0) return null;
  const weight = new Map(terms.map((t) => [t, Math.log((n + 1) / (document.sentenceFrequency.get(t)! + 0.5))]));
  const total = [...weight.values()].reduce((a, b) => a + b, 0);
  const types: AnswerType[] = answerTypesAsked(part);
  return (sentence) => {
    let found = 0;
    for (const [t, w] of weight) if (sentence.terms.has(t)) found += w;
    const share = total > 0 ? found / total : 0;
    return types.every((type) => type.holds.test(sentence.text)) ? share : share * MISSING_ANSWER_TYPE_FACTOR;
  };
}

/** Each document's statistics, computed once for one judge's life. */
function documentStatistics(): (text: string) => DocumentStatistics {
  const documents = new Map<string, DocumentStatistics>();
  return (text) => {
    let document = documents.get(text);
    if (!document) documents.set(text, (document = statisticsOf(text)));
    return document;
  };
}

/** Scores contexts against questions on one judge's documents, keeping each document's statistics. */
export function createLexicalEvidence(): (question: string, contexts: string[], document: string) => number {
  const statistics = documentStatistics();
  return (question, contexts, documentText) => {
    const document = statistics(documentText);
    const context = evidenceSentences(contexts);
    const contextTerms = new Set(context.flatMap((s) => [...s.terms]));
    const parts = questionParts(question);
    let sum = 0;
    for (const part of parts) {
      const evidence = partEvidence(part, document);
      if (evidence === null) continue;
      let best = document.bestByPart.get(part);
      if (best === undefined) document.bestByPart.set(part, (best = bestOf(document.sentences, evidence)));
      const inContext = bestOf(context, evidence);
      const namesHeld = distinctiveNames(part, document).every((t) => contextTerms.has(t));
      sum += best <= 0 ? 0 : Math.min(1, inContext / best) * (namesHeld ? 1 : MISSING_NAME_FACTOR);
    }
    return Math.min((10 * sum) / parts.length, unanswerableCap(question, document.sentenceFrequency));
  };
}

/**
 * One sentence's evidence for a whole question (0-1: the mean over its parts), by the question's
 * document's statistics: for ranking a document's sentences (sentence-ranking.ts). Distinctive
 * names are not required here: they say what a context lacks, not how one sentence ranks.
 */
export function createSentenceEvidence(): (question: string, document: string) => (sentence: EvidenceSentence) => number {
  const statistics = documentStatistics();
  return (question, documentText) => {
    const document = statistics(documentText);
    const scorers = questionParts(question)
      .map((part) => partEvidence(part, document))
      .filter((scorer) => scorer !== null);
    return (sentence) => (scorers.length === 0 ? 0 : scorers.reduce((sum, scorer) => sum + scorer(sentence), 0) / scorers.length);
  };
}

/** The question's content words outside its answer-type wording ("how many", "when"…), in order. */
function askedWords(question: string): Array<{ word: string; term: string }> {
  return contentWords(ANSWER_TYPES.reduce((text, type) => text.replace(new RegExp(type.asks.source, "gi"), " "), question));
}

/**
 * How much of the question's information (self-information in English, at most
 * MAX_WORD_INFORMATION a word, answer-type wording left out) lies in words the document never uses:
 * the most that one run of consecutive such words carries (nats), and their share of the whole
 * (0-1; 0 with fewer than MIN_ABSENT_WORDS_FOR_SHARE such words).
 */
export function absentInformation(question: string, documentTerms: { has(term: string): boolean }): { run: number; share: number } {
  const words = askedWords(question);
  let run = 0;
  let mostInRun = 0;
  let absent = 0;
  let absentWords = 0;
  let total = 0;
  for (const { word, term } of words) {
    const information = Math.min(MAX_WORD_INFORMATION, -wordLogProbability(word));
    total += information;
    if (documentTerms.has(term)) run = 0;
    else {
      run += information;
      absent += information;
      absentWords++;
      mostInRun = Math.max(mostInRun, run);
    }
  }
  return { run: mostInRun, share: absentWords >= MIN_ABSENT_WORDS_FOR_SHARE ? absent / total : 0 };
}

/**
 * The highest context relevance (0-10) for a question of a document with these terms: 0 when the
 * question names a subject the document never mentions (consecutive words that occur nowhere in the
 * document carry more than UNKNOWN_SUBJECT_INFORMATION, or more than ABSENT_INFORMATION_MAX_SHARE of
 * its information lies in such words), else 10.
 */
export function unanswerableCap(question: string, documentTerms: { has(term: string): boolean }): number {
  const absent = absentInformation(question, documentTerms);
  return absent.run > UNKNOWN_SUBJECT_INFORMATION || absent.share > ABSENT_INFORMATION_MAX_SHARE ? 0 : 10;
}
