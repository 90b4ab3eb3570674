import { test } from "node:test";
import assert from "node:assert/strict";
import {
  absentInformation,
  ABSENT_INFORMATION_MAX_SHARE,
  createLexicalEvidence,
  unanswerableCap,
  UNKNOWN_SUBJECT_INFORMATION,
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
const documentTerms = new Set(contentTerms(DOCUMENT));

test("context relevance (lexical evidence): a question about a subject the document never mentions is capped at 0, whatever its other words match", () => {
  const relevance = createLexicalEvidence();
  // Its section's words are all retrieved; "glazes", "dynasty" and "porcelain" (rare in English) are nowhere in the document.
  const negative = 'What does the section "Billing and Tariffs" say about the glazes of Song dynasty porcelain?';
  assert.equal(relevance(negative, [BILLING], DOCUMENT), 0);
  // Without the foreign subject the same question scores high: the cap, not the section's words, made the difference.
  assert.ok(relevance('What does the section "Billing and Tariffs" say about the tariff?', [BILLING], DOCUMENT) >= 5);
  assert.equal(relevance("How much does the standard tariff cost for vanilla orchid greenhouses?", [BILLING], DOCUMENT), 0);
});

test("context relevance (lexical evidence): a phrase the whole document never uses, carrying much information, caps the score at 0", () => {
  const relevance = createLexicalEvidence();
  const negative = "What does the standard tariff for members billed every month say about the hibernation of dormice?";
  assert.ok(absentInformation(negative, documentTerms).run > UNKNOWN_SUBJECT_INFORMATION);
  // Under ABSENT_INFORMATION_MAX_SHARE of the question's information: the phrase alone caps it.
  assert.ok(absentInformation(negative, documentTerms).share < ABSENT_INFORMATION_MAX_SHARE);
  assert.equal(unanswerableCap(negative, documentTerms), 0);
  assert.equal(relevance(negative, [BILLING], DOCUMENT), 0);
  // Words the document uses, wherever it uses them ("fallen power" is in the outages section): no cap.
  assert.equal(unanswerableCap("Which fallen power tariff applies?", documentTerms), 10);
});

test("context relevance (lexical evidence): most of a question's information in words the document never uses caps it at 0, with no telling phrase", () => {
  const relevance = createLexicalEvidence();
  // "gardening", "season", "expectations": no phrase of them carries much, together they are most of the question.
  const negative = "What are the billing gardening season expectations?";
  assert.ok(absentInformation(negative, documentTerms).run <= UNKNOWN_SUBJECT_INFORMATION, "no phrase caps it");
  assert.ok(absentInformation(negative, documentTerms).share > ABSENT_INFORMATION_MAX_SHARE);
  assert.equal(relevance(negative, [BILLING], DOCUMENT), 0);
  // A question in the document's words: none of its information is absent.
  assert.equal(absentInformation("How much does the standard tariff cost per kilowatt-hour?", documentTerms).share, 0);
  // One word the document spells otherwise never caps alone, however long, nor in a short question where it is most of the information.
  const spelledApart = new Set(contentTerms("The price is 24 cents per kilowatt hour. Claims are paid within ten days."));
  assert.equal(unanswerableCap("What is the price per kilowatt-hour?", spelledApart), 10);
  assert.equal(unanswerableCap("How are reimbursements paid?", spelledApart), 10);
  assert.equal(unanswerableCap("Which tariff is billed per kilowatt-hour-equivalent?", new Set(contentTerms("tariff billed kilowatt hours"))), 10);
});

test("context relevance (lexical evidence): a question in its own words is not capped, however many words in a row the context or document lacks", () => {
  const relevance = createLexicalEvidence();
  // "price", "electricity": the question's words for "costs" and "energy"; "how much" is the answer type.
  assert.equal(relevance("How much is the price of electricity on the standard tariff?", [BILLING], DOCUMENT), 10);
  // "settle", "monthly", "accounts": three words in a row that the document never uses, common enough to be the
  // question's own wording for "pay" (earlier versions capped such a run at 0); the context holds the answer.
  const debit = "Members who pay by direct debit get a discount of two percent.";
  const question = "What discount do members get when they settle monthly accounts by direct debit?";
  assert.deepEqual(
    contentTerms("settle monthly accounts").filter((t) => documentTerms.has(t)),
    [],
    "the three words are not the document's",
  );
  assert.equal(unanswerableCap(question, documentTerms), 10);
  assert.equal(relevance(question, [debit], DOCUMENT), 10);
  // Four words in a row that this context lacks but the document holds ("standard tariff billed every month": earlier
  // versions capped the score at 0); its best sentence answers the question's discount part.
  assert.ok(relevance("Which members get a discount on the standard tariff billed every month?", [debit], DOCUMENT) >= 5);
  // "salary" for "pay": one word, apart.
  assert.ok(relevance("What discount do members get when their salary pays the bill by direct debit?", [debit], DOCUMENT) >= 5);
});
