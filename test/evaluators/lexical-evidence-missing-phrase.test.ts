import { test } from "node:test";
import assert from "node:assert/strict";
import { createLexicalEvidence, longestMissingRun } from "../../src/evaluators/lexical-evidence.js";
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
