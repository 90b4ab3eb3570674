import { test } from "node:test";
import assert from "node:assert/strict";
import { embedWithWindows, encodeLinear, loadUseModel, useWindows, USE_MAX_TOKENS } from "../../src/embedders/use-model.js";
import { parseDocument } from "../../src/parsers/parser.js";
import { handbookBytes } from "../helpers/documents.js";
import { useEmbedder } from "../../src/embedders/use.js";
import { cosine, meanVector } from "../../src/domain/vectors.js";

const settings = { batchSize: 32, openai: { maxRetries: 0, timeoutSeconds: 1 }, huggingFace: { allowRemote: false } };
const opening = "The harbour cooperative owns two wind turbines on the ridge above the town. ".repeat(8);
const ending = "Quantum chromodynamics describes how quarks and gluons bind into protons. ".repeat(8);

test("use: a text over the model's limit is the mean of its windows, not a truncation", async () => {
  const model = await loadUseModel();
  const long = opening + ending;
  const windows = useWindows(model, long);
  assert.ok(windows.length >= 2);
  for (const w of windows) assert.ok(model.tokenizer.encode(w).length <= USE_MAX_TOKENS);
  assert.equal(windows.join(" "), long.trim().split(/\s+/).join(" "), "windows cover every word");
  const [whole] = await embedWithWindows(model, [long]);
  const perWindow = await embedWithWindows(model, windows);
  assert.ok(cosine(whole!, meanVector(perWindow)) > 0.9999);
  // The ending changes the embedding: the model alone would have ignored it.
  const [openingOnly] = await embedWithWindows(model, [opening]);
  assert.ok(cosine(whole!, openingOnly!) < 0.95, `similarity ${cosine(whole!, openingOnly!)}`);
});

test("use: our linear tokenizer gives exactly the package tokenizer's ids", async () => {
  const model = await loadUseModel();
  const packageEncode = Object.getPrototypeOf(model.tokenizer).encode as (text: string) => number[];
  const { text } = await parseDocument(handbookBytes(), "harbor-light-handbook.docx");
  const texts = [
    "",
    " ",
    "Members are billed every month.",
    "Café naïve Zürich — 東京電力 😀 ｆｕｌｌ-width ﬁ ligature, tabs\tand\nbreaks  double  spaces",
    "undefined constructor __proto__ toString",
    text.slice(0, 4000),
    ...text.split("\n\n").slice(0, 40),
  ];
  for (const t of texts) assert.deepEqual(encodeLinear(model.tokenizer, t), packageEncode.call(model.tokenizer, t), JSON.stringify(t.slice(0, 40)));
});

test("use: an empty text is a zero vector, whatever it is embedded with", async () => {
  const model = await loadUseModel();
  for (const texts of [[""], ["", "Members are billed every month."], ["Members are billed every month.", ""]]) {
    const vectors = await embedWithWindows(model, texts);
    assert.equal(vectors.length, texts.length);
    texts.forEach((text, i) => {
      assert.equal(vectors[i]!.length, 512);
      assert.equal(
        vectors[i]!.some((x) => x !== 0),
        text !== "",
        JSON.stringify(texts),
      );
    });
  }
});

test("use: short texts are embedded as they are, unit length, 512 dimensions", async () => {
  const model = await loadUseModel();
  const [v] = await embedWithWindows(model, ["Members are billed every month."]);
  assert.equal(v!.length, 512);
  assert.ok(Math.abs(cosine(v!, v!) - 1) < 1e-6);
  assert.deepEqual(useWindows(model, "Members are billed every month."), ["Members are billed every month."]);
});

// Texts of many lengths, so that batches would need padding, and several of each length, so
// that equal-length texts share a batch.
const mixedLengths = Array.from({ length: 18 }, (_, i) => `Sentence number ${i % 9} talks about topic ${i % 3}${" and the harbour".repeat(i % 6)}.`);

test("use: a text's vector does not depend on the texts embedded with it", async () => {
  const model = await loadUseModel();
  const together = await embedWithWindows(model, [...mixedLengths, opening + ending]);
  for (const [i, text] of mixedLengths.entries()) {
    const [alone] = await embedWithWindows(model, [text]);
    assert.deepEqual(together[i], alone, `text ${i}, embedded alone and in a batch of other lengths`);
  }
});

test("use: the worker pool gives exactly the in-process model's vectors, in order", async () => {
  const inProcess = await useEmbedder.create("", { ...settings, workers: 0 });
  const pooled = await useEmbedder.create("", { ...settings, workers: 2 });
  const a = await inProcess.embed(mixedLengths);
  const b = await pooled.embed(mixedLengths);
  await pooled.close();
  assert.deepEqual(b, a);
});

test("use: an in-process model gives the event loop a turn between its batches (a connect timer or a request is not held up)", async () => {
  const model = await loadUseModel();
  // 70 texts of one length: three batches of the model (32, 32, 6), no I/O of their own.
  const texts = Array.from({ length: 70 }, () => "Members of the harbour cooperative pay their dues.");
  let turns = 0;
  let counting = true;
  const count = () => {
    turns++;
    if (counting) setImmediate(count);
  };
  setImmediate(count);
  await embedWithWindows(model, texts);
  counting = false;
  // Without the turns, the model's microtask-resolved batches ran back to back: no turn at all.
  assert.ok(turns >= 3, `${turns} turns of the event loop while three batches were embedded`);
});
