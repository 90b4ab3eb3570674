import { test } from "node:test";
import assert from "node:assert/strict";
import { keywordSearch } from "../../src/retrieval/bm25.js";
import { contentTerms } from "../../src/text/terms.js";

const chunks = [
  { id: "a", text: "The harbour pilot boards ships at the outer buoy.", context: null },
  { id: "b", text: "Pilots are required for ships over 80 metres; the pilot boat leaves from the north quay.", context: null },
  { id: "c", text: "Membership costs 40 euros a year, paid at the office.", context: null },
  { id: "d", text: "The office opens at nine.", context: "From the handbook, section Pilotage" },
];

/** BM25 written out over every chunk, as the formula reads (k1 1.2, b 0.75, idf with +1). */
function reference(question: string) {
  const docs = chunks.map((c) => contentTerms(c.context ? `${c.context}\n\n${c.text}` : c.text));
  const avg = docs.reduce((n, d) => n + d.length, 0) / docs.length;
  return docs
    .map((terms, i) => {
      let score = 0;
      for (const t of new Set(contentTerms(question))) {
        const f = terms.filter((x) => x === t).length;
        if (f === 0) continue;
        const df = docs.filter((d) => d.includes(t)).length;
        const idf = Math.log(1 + (docs.length - df + 0.5) / (df + 0.5));
        score += (idf * f * 2.2) / (f + 1.2 * (0.25 + (0.75 * terms.length) / avg));
      }
      return { chunkId: chunks[i]!.id, score };
    })
    .filter((h) => h.score > 0)
    .sort((x, y) => y.score - x.score || x.chunkId.localeCompare(y.chunkId));
}

test("keyword search scores each chunk by BM25 over the chunks' stemmed content terms, context included", async () => {
  for (const question of ["Who boards the ships?", "When does the office open?", "pilotage", "How much is membership?", "nothing matches zebra"]) {
    const hits = await keywordSearch(`gen-${question}`, async () => chunks, question, 10);
    const expected = reference(question);
    assert.deepEqual(
      hits.map((h) => h.chunkId),
      expected.map((h) => h.chunkId),
      question,
    );
    hits.forEach((h, i) => assert.ok(Math.abs(h.score - expected[i]!.score) < 1e-12, question));
  }
  // The context line is indexed: "pilotage" is only in d's context.
  assert.deepEqual(
    (await keywordSearch("gen-ctx", async () => chunks, "pilotage", 10)).map((h) => h.chunkId),
    ["d"],
  );
  // No shared term: nothing at all, not every chunk at score 0.
  assert.deepEqual(await keywordSearch("gen-none", async () => chunks, "zebra", 10), []);
});

test("a limit returns the best chunks in order, the same as the first of a longer list", async () => {
  const many = Array.from({ length: 300 }, (_, i) => ({
    id: `c${String(i).padStart(3, "0")}`,
    text: `ship ${"pilot ".repeat(i % 7)} quay ${i % 3 ? "buoy" : ""}`,
    context: null,
  }));
  const all = await keywordSearch("gen-many", async () => many, "pilot buoy ship", 1000);
  assert.equal(all.length, 300);
  for (const limit of [1, 5, 20]) assert.deepEqual(await keywordSearch("gen-many", async () => many, "pilot buoy ship", limit), all.slice(0, limit));
});
