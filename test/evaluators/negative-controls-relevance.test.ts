// Context relevance of the offline generator's negative controls, question by question, on the
// rows a new user compares: dense (judged by lexical evidence) and keyword (judged by the
// embedder), with the semantic `use` embedder. Every template negative asks a real section about
// a subject the document never mentions, some in two words only ("the hibernation of dormice"):
// each must score low, on the handbook, on the standard corpus and on a recipe collection written
// here (a kind of text neither corpus is), except the one subject the README names as not caught
// on the recipes ("the rules of underwater hockey": common words, no more information than a
// paraphrase carries).
// A paraphrased answerable question on each is the positive control: the cap must leave it alone.
import { readdirSync, readFileSync } from "node:fs";
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { loadQuestionsFile, validateQuestions, type QuestionInput } from "../../src/evaluators/questions.js";
import type { CorpusTarget } from "../../src/services/corpus/collections.js";
import { toWire } from "../../src/transports/serialize.js";
import { handbookBytes } from "../helpers/documents.js";
import { createWorkspace, type Workspace } from "../helpers/workspace.js";

const ROWS = ["recursive@retrieval=dense", "recursive"]; // the bundled model searches by keyword by default
/** The most (0-10) a negative control may score, per question and per row. */
const NEGATIVE_CEILING = 2;
/** The template subject the README names as not caught by the offline judge, on the recipe collection, whose document it is. */
const NOT_CAUGHT = { label: "recipes", subject: /the rules of underwater hockey/ };

/** A recipe collection with section headings: not a handbook, not a technical standard. */
const RECIPES = [
  "# Grandmother's Kitchen: Twelve Family Recipes",
  "These recipes were written down over forty years in a farmhouse kitchen. Quantities serve four unless a recipe says otherwise.",
  "## Brown Soda Bread",
  "Mix 450 grams of wholemeal flour with one teaspoon of bicarbonate of soda and a pinch of salt. Stir in 400 millilitres of " +
    "buttermilk until the dough is soft and sticky.",
  "Shape it into a round, cut a deep cross on top and bake at 200 degrees for 40 minutes. The loaf is done when it sounds hollow when tapped underneath.",
  "## Leek and Potato Soup",
  "Soften three sliced leeks in butter for ten minutes without letting them brown. Add four diced potatoes and one litre of chicken " +
    "stock, then simmer for twenty minutes.",
  "Blend until smooth and season with white pepper. A spoon of cream stirred in at the end makes it richer.",
  "## Beef and Stout Stew",
  "Brown one kilogram of diced beef in batches in a heavy pot. Add two onions, three carrots and a bottle of stout, cover, and cook " +
    "slowly in the oven for three hours.",
  "The stew tastes better on the second day, once the flavours have settled overnight in the fridge.",
  "## Apple Tart",
  "Line a tin with shortcrust pastry and fill it with six sliced cooking apples tossed in sugar and cinnamon. Cover with a pastry " +
    "lid and bake for 45 minutes until golden.",
  "Serve the tart warm with custard or whipped cream.",
  "## Storing and Freezing",
  "Bread keeps for two days wrapped in a clean cloth. Soup and stew freeze well for up to three months in sealed containers; thaw " +
    "them overnight before reheating.",
].join("\n\n");

let ws: Workspace;
before(async () => {
  ws = await createWorkspace({ embedder: "use" });
});
after(() => ws.cleanup());

/** Benches the template negatives and the positive control at top_k 5 on both rows; asserts each negative low and the positive not capped. */
async function assertNegativesLow(label: string, target: CorpusTarget, positive: QuestionInput) {
  const generated = await ws.app.generateQuestions({ ...target, count: 1, negatives: 16, generator: "template" });
  const negatives = validateQuestions(label, toWire(generated.questions.filter((q) => q.answerable === false)));
  assert.ok(negatives.length >= 5, `${label}: ${negatives.length} negatives`);
  const stored = generated.metadata.collection
    ? { collection: { name: generated.metadata.collection.name } }
    : { document: { id: generated.metadata.document.id } };
  const e = await ws.app.bench({ ...stored, questions: [positive, ...negatives], questionsSource: label, strategies: ROWS, topK: 5 });
  const results = await ws.app.experimentResults(e.experimentId);
  for (const row of ROWS) {
    const [control, ...scored] = results[row]!;
    const figures = scored.map((r) => r.metrics.contextRelevance);
    const controlFigure = `positive control ${control!.metrics.contextRelevance?.toFixed(1)}`;
    console.log(`# ${label}: ${row.padEnd(28)} ${negatives.length} negatives: ${figures.map((f) => f?.toFixed(1)).join(" ")}; ${controlFigure}`);
    for (const r of scored) {
      assert.equal(r.answerable, false);
      if (label === NOT_CAUGHT.label && NOT_CAUGHT.subject.test(r.question)) continue;
      assert.ok(
        r.metrics.contextRelevance !== null && r.metrics.contextRelevance <= NEGATIVE_CEILING,
        `${label} ${row}: ${r.question}: ${r.metrics.contextRelevance}`,
      );
    }
    assert.ok(
      control!.metrics.contextRelevance! > NEGATIVE_CEILING,
      `${label} ${row}: positive control ${control!.question}: ${control!.metrics.contextRelevance}`,
    );
  }
}

const question = (label: string, wire: { question: string; references: string[] }) => validateQuestions(label, [wire])[0]!;

test("each template negative scores context relevance <= 2 on dense and keyword rows: handbook; a paraphrased answerable question is not capped", async () => {
  const positive = question("handbook", {
    question: "How many member households does the cooperative look after?",
    references: ["Today the cooperative serves 4,200 member households and 310 small businesses"],
  });
  await assertNegativesLow("handbook", { document: { filename: "handbook.docx", bytes: handbookBytes() } }, positive);
});

test("each template negative scores context relevance <= 2 on dense and keyword rows: the standard corpus (a collection)", async () => {
  const folder = "examples/standard";
  const files = readdirSync(folder).map((filename) => ({ filename, bytes: readFileSync(`${folder}/${filename}`) }));
  // Its first question (dev half): hand-written in other words than its excerpt ("shut off a river inlet" for "close").
  const [positive] = await loadQuestionsFile("questions/standard.json");
  await assertNegativesLow("standard", { collection: { name: "standard", add: files } }, positive!);
});

test("each template negative scores context relevance <= 2 on dense and keyword rows: a recipe collection written in the test", async () => {
  const positive = question("recipes", {
    question: "How long does the soda bread stay in the oven?",
    references: ["bake at 200 degrees for 40 minutes"],
  });
  await assertNegativesLow("recipes", { document: { filename: "recipes.md", bytes: Buffer.from(RECIPES) } }, positive);
});
