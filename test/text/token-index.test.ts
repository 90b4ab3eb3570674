import { test } from "node:test";
import assert from "node:assert/strict";
import { countTokens as gptCountTokens } from "gpt-tokenizer";
import { bpeBoundaries, bpeCount, tokenCountFloor } from "../../src/text/bpe.js";
import { PrefixCounter, TokenIndex } from "../../src/text/token-index.js";
import { countTokens } from "../../src/text/tokens.js";
import { longWord, prose, random, syntheticTexts } from "../helpers/synthetic-texts.js";

// gpt-tokenizer is the reference: every count here must equal its count of the same string.

test("our BPE counts single pieces exactly as gpt-tokenizer does", () => {
  const pieces = [
    ...[1, 2, 3, 50, 199, 200, 201, 1000, 3000].flatMap((n) => [longWord(n, "letters", n), longWord(n, "same")]),
    "x".repeat(777),
    " " + longWord(900, "letters", 4),
    "Zürich".repeat(60).toLowerCase(),
    "東京電力".repeat(80),
    "😀".repeat(150),
    "-=".repeat(400),
  ];
  for (const piece of pieces) assert.equal(bpeCount(Buffer.from(piece, "utf8")), gptCountTokens(piece), piece.slice(0, 30));
});

test("countTokens equals gpt-tokenizer's count on every stress text", () => {
  for (const [name, text] of Object.entries(syntheticTexts())) assert.equal(countTokens(text), gptCountTokens(text), name);
});

test("countTokens counts special-token text as plain text instead of throwing", () => {
  assert.equal(countTokens("a <|endoftext|> b"), gptCountTokens("a <|endoftext|> b", { disallowedSpecial: new Set() }));
});

test("a tokenised text counts any slice exactly as counting the slice alone", () => {
  const next = random(42);
  for (const [name, text] of Object.entries({ ...syntheticTexts(), "mixed prose": prose(20_000, 99) })) {
    const index = new TokenIndex(text);
    assert.equal(index.total, gptCountTokens(text), name);
    for (let i = 0; i < 400; i++) {
      let start = Math.floor(next() * text.length);
      // Often from the white space before a word, as packers count word pieces.
      if (next() < 0.4) {
        while (start > 0 && !/\s/.test(text[start - 1]!)) start--;
        while (start > 0 && /\s/.test(text[start - 1]!)) start--;
      }
      // Mostly chunk-sized slices, some long ones; ends often on or next to white space.
      const length = Math.floor(next() < 0.8 ? next() * 1500 : next() * text.length);
      let end = Math.min(text.length, start + length);
      if (next() < 0.3) while (end < text.length && !/\s/.test(text[end]!)) end++;
      if (next() < 0.2 && end < text.length) end++;
      const slice = text.slice(start, end);
      assert.equal(index.count(start, end), gptCountTokens(slice), `${name} [${start}, ${end}): ${JSON.stringify(slice.slice(-20))}`);
    }
  }
});

test("a long word is counted only when a slice spans it, and then exactly", () => {
  const words = [longWord(4000, "letters", 21), longWord(1000, "base64", 22), longWord(2500, "same")];
  const text = `Intro text here. ${words[0]} middle words. ${words[1]} and ${words[2]} the end.`;
  const index = new TokenIndex(text);
  const slices: Array<[number, number]> = [
    [text.indexOf("middle"), text.indexOf("the end")], // spans the second and third words
    [0, text.length], // spans all three
    [3, text.indexOf("middle") + 3], // spans the first
    [text.indexOf(words[1]!) + 10, text.indexOf(" and")], // inside the second only
  ];
  for (const [start, end] of slices) assert.equal(index.count(start, end), gptCountTokens(text.slice(start, end)), `[${start}, ${end})`);
  assert.equal(index.total, gptCountTokens(text));
});

test("prefixes of one long piece are counted exactly from earlier merges", () => {
  for (const word of [longWord(3000, "letters", 8), longWord(2000, "same"), "x" + longWord(1500, "base64", 3)]) {
    const index = new TokenIndex(`lead ${word} tail`);
    const counter = new PrefixCounter(index, 5);
    // Longest first, as a bisection asks, so later prefixes can reuse the first merges.
    for (const end of [2500, 1200, 1199, 600, 601, 300, 150, 151, 40].map((n) => 5 + Math.min(n, word.length))) {
      assert.equal(counter.count(end), gptCountTokens(index.text.slice(5, end)), `${word.slice(0, 10)} ..${end}`);
    }
  }
  const boundaries = bpeBoundaries(Buffer.from("hello world", "latin1"));
  assert.equal(boundaries[0], 0);
  assert.equal(boundaries[11], gptCountTokens("hello world"));
});

test("the token-count floor never exceeds the real count", () => {
  for (const word of [longWord(5000, "letters", 12), longWord(3000, "same"), longWord(3000, "url", 5), "Zürich".repeat(100)]) {
    const floor = tokenCountFloor(word, { start: 0, end: word.length });
    for (const [start, end] of [
      [0, word.length],
      [10, 500],
      [1, 2],
      [100, 1100],
      [377, 599],
    ] as const) {
      assert.ok(floor(start, end, Infinity) <= gptCountTokens(word.slice(start, end)), `${word.slice(0, 10)} [${start}, ${end})`);
    }
  }
});
