import { test } from "node:test";
import assert from "node:assert/strict";
import { createStrategyRegistry } from "../../src/strategies/registry.js";
import { assembleDocument } from "../../src/parsers/parser.js";
import { useEmbedder } from "../../src/embedders/use.js";
import type { StoredDocument } from "../../src/domain/types.js";

/** Three topics with no structural hint between them: one paragraph each would be too easy. */
const topics = [
  [
    "Sourdough bread starts with a starter of flour and water left to ferment.",
    "The starter is fed every day until it bubbles and smells pleasantly sour.",
    "Bakers mix the starter with flour, water and salt to make the dough.",
    "The dough rises slowly overnight in a cool kitchen.",
    "In the morning the loaf is shaped and baked in a very hot oven.",
    "A good crust crackles as the bread cools on a wire rack.",
  ],
  [
    "A satellite in low Earth orbit circles the planet about every ninety minutes.",
    "Its speed must be close to eight kilometres per second to stay in orbit.",
    "Thin traces of atmosphere slowly drag the spacecraft lower over the years.",
    "Engineers fire small thrusters to raise the orbit again.",
    "At the end of its mission the satellite is steered to burn up on re-entry.",
    "Ground stations track the satellite on every orbit it makes overhead.",
  ],
  [
    "Income tax returns must be filed with the revenue office by the end of April.",
    "Employees can deduct some work expenses from their taxable income.",
    "Self-employed people pay tax in advance in quarterly instalments.",
    "Late filing leads to a penalty and interest on the unpaid amount.",
    "Receipts should be kept for seven years in case of an audit.",
    "A tax adviser can help with complicated cases such as foreign income.",
  ],
];

test("semantic: cuts fall at the topic changes of a document built for it (use embedder)", async () => {
  const text = topics.map((t) => t.join(" ")).join(" ");
  const parsed = assembleDocument("docx", [{ kind: "paragraph", level: 0, text }], "topics.docx");
  const document: StoredDocument = { id: "doc_t", filename: "topics.docx", paragraphCount: 1, chunkCounts: {}, createdAt: "", ...parsed };
  const embedder = await useEmbedder.create("", {
    workers: 0,
    batchSize: 32,
    openai: { maxRetries: 0, timeoutSeconds: 1 },
    huggingFace: { allowRemote: false },
  });
  const strategy = await createStrategyRegistry().get("semantic").create({ min_tokens: 20, max_tokens: 400, breakpoint_percentile: 85 });
  const chunks = await strategy.chunk({ document, embed: (t) => embedder.embed(t) });
  const boundaries = topics.slice(1).map((_, i) => text.indexOf(topics[i + 1]![0]!));
  assert.deepEqual(
    chunks.slice(1).map((c) => c.start),
    boundaries,
    `chunks: ${chunks.map((c) => JSON.stringify(c.text.slice(0, 40))).join(" | ")}`,
  );
  await embedder.close();
});
