import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { countTokens as gptCountTokens } from "gpt-tokenizer";
import o200k from "gpt-tokenizer/bpeRanks/o200k_base";
import { pieceMatcher, pieceTokenCount, vocabularyFromRanks } from "../../src/text/bpe.js";
import { readVocabularyFile, writeVocabularyFile } from "../../src/text/bpe-vocabulary-file.js";

// gpt-tokenizer is the reference: every count here must equal its count of the same piece.

test("every piece of the bundled documents' text and questions counts as gpt-tokenizer counts it", () => {
  const texts = [
    ...readdirSync("examples/standard").map((name) => readFileSync(join("examples/standard", name)).toString("latin1")),
    ...readdirSync("questions").map((name) => readFileSync(join("questions", name), "utf8")),
    "Zürich, 東京電力, naïve café — “quoted” 😀 ½ ﬁnance",
  ];
  const pieces = new Set(texts.flatMap((text) => [...text.matchAll(pieceMatcher())].map((m) => m[0])));
  assert.ok(pieces.size > 3000, `${pieces.size} distinct pieces`);
  for (const piece of pieces) assert.equal(pieceTokenCount(piece), gptCountTokens(piece, { disallowedSpecial: new Set() }), JSON.stringify(piece));
});

test("a piece that is itself a token counts one, as tiktoken's shortcut counts it, for every token of the vocabulary that is text", () => {
  let checked = 0;
  for (const token of o200k as Array<string | number[]>) {
    if (typeof token !== "string" || token.length === 0 || token.includes("\ufffd")) continue;
    // Only whole pieces: a token the pre-tokeniser would split is never counted as one piece.
    const pieces = [...token.matchAll(pieceMatcher())].map((m) => m[0]);
    if (pieces.length !== 1 || pieces[0] !== token) continue;
    assert.equal(pieceTokenCount(token), 1, JSON.stringify(token));
    checked++;
  }
  assert.ok(checked > 150_000, `${checked} tokens checked`);
});

test("the vocabulary's kept copy reads back as written, and a damaged or cut copy is refused so it is built again", () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-vocabulary-"));
  try {
    const built = vocabularyFromRanks(o200k as Array<string | number[]>);
    const path = join(dir, "v.bin");
    writeVocabularyFile(path, built);
    const read = readVocabularyFile(path)!;
    assert.ok(read, "the copy reads back");
    for (const key of ["bytes", "offset", "pairLeft", "pairRight", "pairRank"] as const) assert.deepEqual(read[key], built[key], key);
    assert.deepEqual(readdirSync(dir), ["v.bin"], "no temporary file left");

    const bytes = readFileSync(path);
    const damaged = Buffer.from(bytes);
    damaged[damaged.length - 10]! ^= 0xff;
    writeFileSync(path, damaged);
    assert.equal(readVocabularyFile(path), undefined, "one byte changed: refused by its checksum");
    writeFileSync(path, bytes.subarray(0, bytes.length - 4));
    assert.equal(readVocabularyFile(path), undefined, "cut short: refused");
    writeFileSync(path, "not a vocabulary");
    assert.equal(readVocabularyFile(path), undefined, "another file: refused");
    assert.equal(readVocabularyFile(join(dir, "missing.bin")), undefined, "missing: none");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
