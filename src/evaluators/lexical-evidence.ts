import { sentenceSpans } from "../text/sentences.js";
import { isRareInEnglish } from "../text/english-rarity.js";
import { contentTerms, contentWords } from "../text/terms.js";
import { ANSWER_TYPES, answerTypesAsked, type AnswerType } from "./answer-types.js";

/**
 * Lexical evidence that a context answers a question, on 0-10, for context relevance when the
 * context was retrieved by a semantic embedder (dense retrieval).
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
 * porcelain?") scores 10 once its other words are retrieved. So the score is capped by the
 * question's longest run of consecutive content words (the wording of a "how many", "when"… left
 * out) none of which the context holds: such a run is a whole phrase of the question, its subject
 * or its object, missing. One or two missing in a row are usually the question's own wording for
 * what the context says otherwise, and cost nothing; three cap the score at 5; four or more at 0.
 *
 * Words the whole document never uses are stronger evidence than words one context lacks: no
 * context of the document can hold them. Two in a row that are also rare in English (a phrase
 * naming a subject: "the tuning of a harpsichord", "the hibernation of dormice"), or three in a
 * row of any kind ("the boiling point of tungsten"), say the question is about something the
 * document does not mention, and cap the score at 0 (three already cap at 5 as missing from the
 * context). Two common words the document does not use are usually the question's own wording
 * ("towards the front", "make it necessary", "degrees Celsius" where the text says "°C"): on the
 * dev half of the standard corpus 5 of 48 answerable questions have two in a row, and capping
 * them took its Spearman with recall at top_k 5 from 0.52 to 0.47. English rarity: english-rarity.ts.
 * The embedding judge caps its keyword-retrieval score the same way (unanswerablePhraseCap).
 */

/** What is left of a sentence's evidence when the question asks for a time or quantity and the sentence holds none. */
export const MISSING_ANSWER_TYPE_FACTOR = 0.5;
/** Consecutive content words of the question the context may lack without a cap (its own wording for what the context says otherwise). */
export const FREE_MISSING_RUN = 2;
/** Consecutive content words of the question, rare in English, that the whole document may lack without a cap; one more caps the score at 0. */
export const FREE_UNKNOWN_SUBJECT_RUN = 1;
/** Consecutive content words of the question, common or rare, that the whole document may lack without a cap; one more caps the score at 0. */
export const FREE_ABSENT_FROM_DOCUMENT_RUN = 2;
/** How much of the 0-10 scale each missing word beyond FREE_MISSING_RUN in a row takes off the cap. */
const CAP_STEP_PER_MISSING_WORD = 5;
/** A part of a question with fewer content words than this joins the part before it ("…, and where?" says too little alone). */
const MIN_PART_TERMS = 2;
/** A question's name is required of the context when at most this share of the document's sentences hold it. */
export const DISTINCTIVE_NAME_MAX_SHARE = 0.02;
/** What is left of a question part's score when the context lacks one of its distinctive names. */
export const MISSING_NAME_FACTOR = 0.5;

interface EvidenceSentence {
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

/** Scores contexts against questions on one judge's documents, keeping each document's statistics. */
export function createLexicalEvidence(): (question: string, contexts: string[], document: string) => number {
  const documents = new Map<string, DocumentStatistics>();
  return (question, contexts, documentText) => {
    let document = documents.get(documentText);
    if (!document) documents.set(documentText, (document = statisticsOf(documentText)));
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
    return Math.min((10 * sum) / parts.length, unanswerablePhraseCap(question, contextTerms, document.sentenceFrequency));
  };
}

/** The longest run of consecutive content words of the question, outside its answer-type wording ("how many", "when"…), that are missing. */
function longestRun(question: string, missing: (word: { word: string; term: string }) => boolean): number {
  const asked = ANSWER_TYPES.reduce((text, type) => text.replace(new RegExp(type.asks.source, "gi"), " "), question);
  let run = 0;
  let longest = 0;
  for (const word of contentWords(asked)) {
    run = missing(word) ? run + 1 : 0;
    longest = Math.max(longest, run);
  }
  return longest;
}

/** The longest run of consecutive content words of the question, outside its answer-type wording, that the context lacks. */
export const longestMissingRun = (question: string, contextTerms: ReadonlySet<string>) => longestRun(question, ({ term }) => !contextTerms.has(term));

/** The longest run of consecutive content words of the question that the document never uses and that are rare in English: a subject it does not mention. */
export const longestUnknownSubjectRun = (question: string, documentTerms: { has(term: string): boolean }) =>
  longestRun(question, ({ word, term }) => !documentTerms.has(term) && isRareInEnglish(word));

/** The highest context relevance (0-10) a context can get when it lacks a run of the question's words: 10 up to FREE_MISSING_RUN. */
export function missingPhraseCap(question: string, contextTerms: ReadonlySet<string>): number {
  const beyond = longestMissingRun(question, contextTerms) - FREE_MISSING_RUN;
  return Math.max(0, 10 - CAP_STEP_PER_MISSING_WORD * Math.max(0, beyond));
}

/**
 * The highest context relevance (0-10) for a question given the context's terms and the whole
 * document's: 0 when the question names a subject the document never mentions (more than
 * FREE_UNKNOWN_SUBJECT_RUN consecutive words rare in English that occur nowhere in the document,
 * or more than FREE_ABSENT_FROM_DOCUMENT_RUN consecutive words of any kind), else the missing-phrase cap.
 */
export function unanswerablePhraseCap(question: string, contextTerms: ReadonlySet<string>, documentTerms: { has(term: string): boolean }): number {
  if (longestUnknownSubjectRun(question, documentTerms) > FREE_UNKNOWN_SUBJECT_RUN) return 0;
  if (longestRun(question, ({ term }) => !documentTerms.has(term)) > FREE_ABSENT_FROM_DOCUMENT_RUN) return 0;
  return missingPhraseCap(question, contextTerms);
}
