import { test } from "node:test";
import assert from "node:assert/strict";
import {
  createLexicalEvidence,
  longestMissingRun,
  longestUnknownSubjectRun,
  missingPhraseCap,
  unanswerablePhraseCap,
} from "../../src/evaluators/lexical-evidence.js";
import { contentTerms } from "../../src/text/terms.js";

const DOCUMENT = [
  "Billing and tariffs.",
  "Members are billed every month for the energy they use.",
  "The standard tariff costs 24 cents per kilowatt-hour.",
  "Members who pay by direct debit get a discount of two percent.",
  "Outages and safety.",
  "Report a fallen power line by calling the emergency number.",
].join(" ");
const BILLING = "Members are billed every month for the energy they use. The standard tariff costs 24 cents per kilowatt-hour.";

test("context relevance (lexical evidence): a question about a subject the document never mentions is capped, whatever its other words match", () => {
  const relevance = createLexicalEvidence();
  // Its section's words are all retrieved; "Song dynasty porcelain" (and "glazes") are nowhere: four missing in a row.
  const negative = 'What does the section "Billing and Tariffs" say about the glazes of Song dynasty porcelain?';
  assert.equal(longestMissingRun(negative, new Set(contentTerms(BILLING))), 5);
  assert.equal(relevance(negative, [BILLING], DOCUMENT), 0);
  // Without the foreign subject the same question scores high: the cap, not the section's words, made the difference.
  assert.ok(relevance('What does the section "Billing and Tariffs" say about the tariff?', [BILLING], DOCUMENT) >= 5);
  // Three in a row: capped at 5.
  assert.ok(relevance("How much does the standard tariff cost for vanilla orchid greenhouses?", [BILLING], DOCUMENT) <= 5);
});

test("context relevance (lexical evidence): a question in its own words (one or two words the context lacks in a row) is not capped", () => {
  const relevance = createLexicalEvidence();
  // "price" and "electricity" are the question's words for "costs" and "energy": two missing, apart; "how much" is the answer type.
  const question = "How much is the price of electricity on the standard tariff?";
  assert.ok(longestMissingRun(question, new Set(contentTerms(BILLING))) <= 2);
  assert.equal(relevance(question, [BILLING], DOCUMENT), 10);
});

test("context relevance (lexical evidence): two words in a row, rare in English, that the whole document never uses cap the score at 0", () => {
  const relevance = createLexicalEvidence();
  const context = new Set(contentTerms(BILLING));
  const document = new Set(contentTerms(DOCUMENT));
  // "hibernation" and "dormice" are nowhere in the document: a two-word subject, which the context's own cap (from three) lets through at 5 or more.
  const negative = 'What does the section "Billing and Tariffs" say about the hibernation of dormice?';
  assert.equal(longestUnknownSubjectRun(negative, document), 2);
  assert.ok(missingPhraseCap(negative, context) >= 5);
  assert.equal(unanswerablePhraseCap(negative, context, document), 0);
  assert.equal(relevance(negative, [BILLING], DOCUMENT), 0);
  // Two words the context lacks but the document uses elsewhere ("fallen power" is in the outages section): no cap from the document.
  assert.equal(unanswerablePhraseCap("Which fallen power tariff applies?", context, document), 10);
});

test("context relevance (lexical evidence): a paraphrased answerable question (common words the document never uses) is not capped", () => {
  const relevance = createLexicalEvidence();
  const document = new Set(contentTerms(DOCUMENT));
  // "price" and "electricity" are not the document's words ("costs", "energy"), two in a row, but common English: the question's own wording.
  const question = "How much is the price of electricity on the standard tariff?";
  assert.equal(longestMissingRun(question, document), 2);
  assert.equal(longestUnknownSubjectRun(question, document), 0);
  assert.equal(relevance(question, [BILLING], DOCUMENT), 10);
  // "salary" for "pay": one word, apart.
  const debit = "Members who pay by direct debit get a discount of two percent.";
  assert.ok(relevance("What discount do members get when their salary pays the bill by direct debit?", [debit], DOCUMENT) >= 5);
});
