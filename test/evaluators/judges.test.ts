import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import type { Embedder } from "../../src/embedders/embedder.js";
import { useEmbedder } from "../../src/embedders/use.js";
import { hashEmbedder } from "../../src/embedders/hash.js";
import { createEmbeddingJudge } from "../../src/evaluators/embedding-judge.js";
import { createLexicalEvidence } from "../../src/evaluators/lexical-evidence.js";
import { rankedContextRelevance, rankSentences, type RankedSentence } from "../../src/evaluators/sentence-ranking.js";
import { lowercaseWordsOf, numbersIn, unsupportedFact } from "../../src/evaluators/facts.js";
import type { JudgeInput } from "../../src/domain/judge.js";
import { answerSimilarity, factRecall } from "../../src/evaluators/similarity.js";
import { contentTerms } from "../../src/text/terms.js";

// The default offline model, in process: the judge is tested with the embeddings users get.
let embedder: Embedder;
before(async () => {
  embedder = await useEmbedder.create("", { workers: 0, batchSize: 32, openai: { maxRetries: 0, timeoutSeconds: 1 }, huggingFace: { allowRemote: false } });
});
after(() => embedder.close());

const MEMBERSHIP =
  "Today the cooperative serves 4,200 member households and 310 small businesses. The board is chaired by Anna Lind. " +
  "Members can vote at the annual general meeting.";
const TARIFFS = "The night tariff applies from 23:00 to 07:00. Prices are reviewed every January by the tariff committee. Standing charges are billed monthly.";
const WIND = "The two wind turbines on the ridge produce about 11 gigawatt-hours a year. They were commissioned in 2016 after a member vote.";
const DOCUMENT = [
  MEMBERSHIP,
  TARIFFS,
  WIND,
  "The cooperative was founded in 1952 by fishermen and farmers.",
  "Members receive a patronage dividend when the year closes with a surplus.",
].join("\n");

function input(overrides: Partial<JudgeInput>): JudgeInput {
  return {
    question: "How many member households does the cooperative serve?",
    answer: "",
    answered: true,
    measureFaithfulness: true,
    contexts: [MEMBERSHIP],
    retrieval: "dense",
    document: DOCUMENT,
    target: null,
    ...overrides,
  };
}

test("stemming: every inflection of a word meets one stem", () => {
  assert.deepEqual(contentTerms("serve serves served serving"), ["serv", "serv", "serv", "serv"]);
  assert.deepEqual(contentTerms("household households"), ["household", "household"]);
});

const LLM_STYLE_FAITHFULNESS_TEST =
  "faithfulness (offline judge, LLM-style answers): high when supported, low for a changed number, a swapped name, a negation, an off-topic claim";
test(LLM_STYLE_FAITHFULNESS_TEST, async () => {
  const judge = createEmbeddingJudge(embedder);
  const faithfulness = async (answer: string) => (await judge.judge(input({ answer }))).faithfulness;
  assert.equal(await faithfulness("The cooperative serves 4,200 member households."), 10);
  assert.equal(await faithfulness("The board is chaired by Anna Lind."), 10);
  assert.equal(await faithfulness("The cooperative serves 9,999 member households."), 0, "changed number");
  assert.equal(await faithfulness("The board is chaired by Maria Jensen."), 0, "swapped name");
  assert.equal(await faithfulness("Members cannot vote at the annual general meeting."), 0, "negation");
  assert.equal(await faithfulness("Quantum chromodynamics describes how quarks bind into protons."), 0, "off-topic");
  assert.equal(await faithfulness("The cooperative serves 4,200 member households. The board is chaired by Maria Jensen."), 5, "one of two statements");
  // A context without the claim cannot support it, however plausible.
  assert.equal((await judge.judge(input({ answer: "The cooperative serves 4,200 member households.", contexts: [TARIFFS] }))).faithfulness, 0);
  // Not measurable in this configuration: null, never a number.
  assert.equal((await judge.judge(input({ answer: "The cooperative serves 4,200 member households.", measureFaithfulness: false }))).faithfulness, null);
});

test("fact checks name what is unsupported", () => {
  assert.equal(unsupportedFact("It serves 4200 households.", [MEMBERSHIP], MEMBERSHIP), null, "4,200 and 4200 are one number");
  assert.equal(unsupportedFact("It serves 4,300 households.", [MEMBERSHIP], MEMBERSHIP), "number 4300");
  assert.equal(unsupportedFact("The chair is Anna Berg.", [MEMBERSHIP], MEMBERSHIP), "name berg");
  assert.equal(unsupportedFact("Members do not vote.", [MEMBERSHIP], MEMBERSHIP), "negation");
  // A number that occurs in the evidence, but about something else.
  assert.equal(unsupportedFact("The cooperative serves 310 member households.", [MEMBERSHIP], MEMBERSHIP), "number 310");
  assert.equal(unsupportedFact("It serves 310 small businesses.", [MEMBERSHIP], MEMBERSHIP), null, "310 is said of the businesses");
  assert.equal(unsupportedFact("There are 4,200 households.", [MEMBERSHIP], MEMBERSHIP), null, "the noun may come a word later in the evidence");
  // Numbers written as words are numbers too.
  const DISCOUNT = "Members who pay by direct debit get a discount of two percent on every bill.";
  assert.equal(unsupportedFact("Direct debit gives a discount of twenty percent.", [DISCOUNT], DISCOUNT), "number 20");
  assert.equal(unsupportedFact("Paying by direct debit gives a 2 percent discount.", [DISCOUNT], DISCOUNT), null);
  assert.equal(unsupportedFact("The discount is two percent.", [DISCOUNT], DISCOUNT), null);
  assert.equal(unsupportedFact("One of the members pays by direct debit.", [DISCOUNT], DISCOUNT), null, "a lone 'one' is no quantity");
  assert.deepEqual([...numbersIn("three hundred and ten households, twenty-five shops, 4,200 homes")], ["310", "25", "4200"]);
  // A name that opens the sentence, told from a common word by the document's lower-case words.
  const words = lowercaseWordsOf(DOCUMENT);
  assert.equal(unsupportedFact("Maria chairs the board.", [MEMBERSHIP], MEMBERSHIP, words), "name maria");
  assert.equal(unsupportedFact("Anna chairs the board.", [MEMBERSHIP], MEMBERSHIP, words), null);
  assert.equal(
    unsupportedFact("Members can vote at the annual general meeting.", [MEMBERSHIP], MEMBERSHIP, words),
    null,
    "a common word in capitals is no name",
  );
});

test("faithfulness: a number moved to another noun of the same sentence and a name opening the sentence are caught", async () => {
  const judge = createEmbeddingJudge(embedder);
  const faithfulness = async (answer: string) => (await judge.judge(input({ answer }))).faithfulness;
  assert.equal(await faithfulness("The cooperative serves 310 member households."), 0);
  assert.equal(await faithfulness("Maria Jensen chairs the board."), 0);
  assert.equal(await faithfulness("The cooperative serves 310 small businesses."), 10);
});

test("context relevance: high when the context holds what the question needs, low when it does not, not capped by context size", async () => {
  const judge = createEmbeddingJudge(embedder);
  // Dense retrieval is judged by lexical evidence, keyword retrieval by the judge's sentence ranking (one order of three the embedder's):
  // each by what the retriever did not rank by.
  for (const retrieval of ["dense", "keyword"] as const) {
    const relevance = async (contexts: string[]) => (await judge.judge(input({ contexts, answer: "x", retrieval }))).contextRelevance!;
    const holds = await relevance([MEMBERSHIP]);
    const lacks = await relevance([TARIFFS]);
    const holdsAmongNoise = await relevance([TARIFFS, WIND, MEMBERSHIP]);
    assert.ok(holds >= 8, `${retrieval}: context with the answer: ${holds}`);
    assert.ok(lacks <= 3, `${retrieval}: context without it: ${lacks}`);
    assert.ok(holdsAmongNoise >= 8, `${retrieval}: the answer among other text still counts: ${holdsAmongNoise}`);
    assert.equal(await relevance([]), 0);
  }
});

test("context relevance under keyword retrieval: the place of the context's best sentence in the judge's own ranking of the document", async () => {
  const judge = createEmbeddingJudge(embedder);
  const relevance = async (question: string, contexts: string[]) =>
    (await judge.judge(input({ question, contexts, answer: "x", retrieval: "keyword" }))).contextRelevance!;
  const question = "How many member households does the cooperative serve?";
  assert.equal(await relevance(question, [MEMBERSHIP]), 10, "holds the judge's favourite sentence");
  // The same section without the answer sentence: its sentences rank below the answer, so the score falls with their place.
  const sameSection = await relevance(question, ["The board is chaired by Anna Lind. Members can vote at the annual general meeting."]);
  // (2.5 on 1 December 2026: its best sentence third.)
  assert.ok(sameSection <= 10 / 3, `the answer's neighbours, not the answer, not among the judge's first two: ${sameSection}`);
  assert.ok((await relevance(question, [WIND])) < sameSection, "a section about something else ranks lower still");
  // A chunk that cuts the answer sentence in half holds none of the document's sentences whole.
  assert.equal(await relevance(question, ["Today the cooperative serves 4,200 member"]), 0);
});

test("sentence ranking: reciprocal-rank fusion of the embedder's order and two orders by the question's words", () => {
  const sentence = (text: string, terms: string[], vector: number[]): RankedSentence => ({ text, terms: new Set(terms), vector: Float32Array.from(vector) });
  const byWords = sentence("A.", ["tariff", "night"], [0, 1]);
  const between = sentence("B.", ["tariff"], [0.6, 0.8]);
  const byEmbedder = sentence("C.", [], [1, 0]);
  const question = { terms: new Set(["tariff", "night"]), vector: Float32Array.from([1, 0]) };
  // The embedder puts C first, both word orders put A first (the evidence given here is the share of terms held): A wins two orders of three.
  const evidence = (s: RankedSentence) => s.terms.size / 2;
  const ranking = rankSentences(question, [byWords, between, byEmbedder], evidence);
  assert.deepEqual(
    ranking.map((s) => s.text),
    ["A.", "B.", "C."],
  );
  assert.equal(rankedContextRelevance(ranking, new Set(["A.", "B."])), 10);
  assert.equal(rankedContextRelevance(ranking, new Set(["B.", "and more"])), 5);
  assert.equal(rankedContextRelevance(ranking, new Set(["C."])), 10 / 3);
  assert.equal(rankedContextRelevance(ranking, new Set(["nothing held"])), 0);
  assert.equal(rankedContextRelevance(ranking, new Set()), 0);
  assert.equal(rankedContextRelevance([], new Set(["A."])), 0, "a document without sentences");
  // With the words silent, the embedder alone orders them.
  const silent = rankSentences({ terms: new Set(), vector: question.vector }, [byWords, between, byEmbedder], () => 0);
  assert.deepEqual(
    silent.map((s) => s.text),
    ["C.", "B.", "A."],
  );
});

test("context relevance: a question about a subject the document never mentions scores low with dense and keyword retrieval alike", async () => {
  const judge = createEmbeddingJudge(embedder);
  // The tariff section, asked about something it never mentions: its own words are all retrieved, "Song dynasty porcelain" nowhere.
  const question = "What do the tariff section's prices say about the glazes of Song dynasty porcelain?";
  for (const retrieval of ["dense", "keyword"] as const) {
    const negative = (await judge.judge(input({ question, contexts: [TARIFFS], answer: "x", retrieval }))).contextRelevance!;
    const answerable = (await judge.judge(input({ question: "When are the tariff prices reviewed?", contexts: [TARIFFS], answer: "x", retrieval })))
      .contextRelevance!;
    assert.equal(negative, 0, `${retrieval}: a whole phrase of the question missing`);
    assert.ok(answerable >= 8, `${retrieval}: the same context for a question it answers: ${answerable}`);
  }
});

test("context relevance (offline judge): null with the reason where no evidence is independent of the retrieval", async () => {
  const judge = createEmbeddingJudge(embedder);
  assert.equal((await judge.judge(input({ retrieval: "hybrid" }))).contextRelevance, null);
  assert.match(judge.contextRelevanceUnmeasurable("hybrid")!, /hybrid retrieval ranks by both embeddings and keywords/);
  assert.equal(judge.contextRelevanceUnmeasurable("dense"), null);
  assert.equal(judge.contextRelevanceUnmeasurable("keyword"), null);
  // The hash embedder is word overlap: its dense retrieval ranks by the lexical judge's own evidence.
  const hashJudge = createEmbeddingJudge(
    await hashEmbedder.create("", { workers: 0, batchSize: 32, openai: { maxRetries: 0, timeoutSeconds: 1 }, huggingFace: { allowRemote: false } }),
  );
  for (const retrieval of ["dense", "keyword", "hybrid"] as const) {
    assert.equal((await hashJudge.judge(input({ retrieval }))).contextRelevance, null, retrieval);
    assert.ok(hashJudge.contextRelevanceUnmeasurable(retrieval), retrieval);
  }
  // Faithfulness and answer similarity are still measured.
  const verdict = await judge.judge(
    input({ retrieval: "hybrid", answer: "The cooperative serves 4,200 member households.", target: "4,200 member households" }),
  );
  assert.equal(verdict.faithfulness, 10);
  assert.ok(verdict.answerSimilarity! >= 8);
});

test("context relevance (offline judge): judged by what the retriever's own embedder did not rank by (a variant's @embedder=)", async () => {
  const judge = createEmbeddingJudge(embedder); // the use embedder: semantic
  // Dense search with the word-overlap embedder ranks by words: the judge's embedder judges it (lexical evidence would be its own ranking).
  assert.equal(judge.contextRelevanceUnmeasurable("dense", "hash"), null);
  assert.equal(
    judge.contextRelevanceJudgedBy("dense", "hash"),
    "the judge's ranking of the document's sentences (the use embedder fused with the question's rare words)",
  );
  assert.equal(judge.contextRelevanceJudgedBy("dense"), "lexical evidence (the question's rare words, sentence by sentence)");
  // Hybrid search with it ranks by words twice: still judged by the embedder; with a semantic embedder, by nothing left.
  assert.equal(
    judge.contextRelevanceJudgedBy("hybrid", "hash"),
    "the judge's ranking of the document's sentences (the use embedder fused with the question's rare words)",
  );
  assert.equal(judge.contextRelevanceJudgedBy("hybrid", "openai:text-embedding-3-small"), null);
  assert.equal(judge.contextRelevanceJudgedBy("dense", "openai:text-embedding-3-small"), "lexical evidence (the question's rare words, sentence by sentence)");
  const byWords = await judge.judge(input({ retrieval: "dense", retrieverEmbedder: "hash" }));
  const byEmbeddings = await judge.judge(input({ retrieval: "dense" }));
  assert.equal(typeof byWords.contextRelevance, "number");
  assert.equal(typeof byEmbeddings.contextRelevance, "number");
  // A word-overlap judge has nothing independent of a search that ranked by words.
  const hashJudge = createEmbeddingJudge(
    await hashEmbedder.create("", { workers: 0, batchSize: 32, openai: { maxRetries: 0, timeoutSeconds: 1 }, huggingFace: { allowRemote: false } }),
  );
  assert.equal(hashJudge.contextRelevanceUnmeasurable("dense", "use"), null, "dense search with use ranks by embeddings: lexical evidence judges it");
  assert.match(hashJudge.contextRelevanceUnmeasurable("keyword", "use")!, /the hash embedder is word overlap, so keyword retrieval ranks by/);
});

test("context relevance (lexical evidence): the rare words of the question together in one sentence, and the kind of answer it asks for", () => {
  const relevance = createLexicalEvidence();
  const question = "When does the night tariff apply?";
  // The question's words spread over sentences that do not answer it score below the sentence that does.
  const scattered = "The night shift ends early. The tariff committee meets in spring. Standing charges apply to every member.";
  assert.equal(relevance(question, [TARIFFS], DOCUMENT), 10);
  assert.ok(relevance(question, [scattered], `${DOCUMENT}\n${scattered}`) < 7, "words scattered over sentences");
  // "When" asks for a time: a sentence with the words but no time counts for half.
  const timeless = "The night tariff applies to members with a smart meter.";
  assert.equal(relevance(question, [timeless], `${DOCUMENT}\n${timeless}`), 5);
  // A question in two parts, the context answering one of them.
  const twoParts = "How many member households does the cooperative serve, and when does the night tariff apply?";
  assert.equal(relevance(twoParts, [MEMBERSHIP, TARIFFS], DOCUMENT), 10);
  assert.ok(Math.abs(relevance(twoParts, [MEMBERSHIP], DOCUMENT) - 5) < 1, `one part of two: ${relevance(twoParts, [MEMBERSHIP], DOCUMENT)}`);
  assert.equal(relevance("Who designed the lighthouse lens?", [MEMBERSHIP], DOCUMENT), 0, "no word of the question in the document");
});

test("answer similarity rewards the expected facts whatever the length, and punishes a changed or missing fact", async () => {
  const target = "4,200 member households (and 310 small businesses).";
  const score = (answer: string) => answerSimilarity(embedder, answer, target);
  const shortRight = await score("The cooperative serves 4,200 member households and 310 small businesses.");
  const longRight = await score(`The cooperative was founded in 1952. ${MEMBERSHIP} It owns two wind turbines on the ridge.`);
  const changed = await score("The cooperative serves 9,999 member households and 310 small businesses.");
  const vague = await score("It serves many households in the region.");
  const offTopic = await score("The night tariff applies from 23:00 to 07:00.");
  assert.ok(shortRight >= 8, `short and right: ${shortRight}`);
  assert.ok(Math.abs(longRight - shortRight) < 1, `verbosity neither helps nor hurts: ${longRight} vs ${shortRight}`);
  assert.ok(longRight > changed + 1, `a changed number costs: ${longRight} vs ${changed}`);
  assert.ok(longRight > vague + 2, `missing facts cost: ${longRight} vs ${vague}`);
  assert.ok(offTopic < 3, `off-topic: ${offTopic}`);
  const long = `${TARIFFS} ${WIND} The cooperative was founded in 1952 by fishermen and farmers. It serves many households.`;
  assert.ok((await score(long)) < 4, `a long answer without the facts: ${await score(long)}`);
  assert.equal(factRecall(target, "nothing to see"), 0);
  assert.equal(factRecall(target, "4,200 member households and 310 small businesses"), 1);
});

test("answer similarity: an answer that says the opposite scores low, however many words it shares", async () => {
  const target = "Members can vote at the annual general meeting.";
  const same = await answerSimilarity(embedder, "Every member can vote at the annual general meeting.", target);
  const opposite = await answerSimilarity(embedder, "Members cannot vote at the annual general meeting.", target);
  assert.ok(same >= 7, `agreeing: ${same}`);
  assert.ok(opposite <= 2, `contradicting: ${opposite}`);
});
