import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HANDBOOK_PATH } from "../helpers/documents.js";
import { runCli } from "../helpers/cli.js";

test("questions validate: a clean file passes; a changed excerpt, a repeated question and copied wording fail with the passage to paste", async () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-questions-validate-"));
  const env = { CHUNKEVAL_DATA_DIR: join(dir, "data"), CHUNKEVAL_EMBEDDER: "hash", COLUMNS: "400" };
  try {
    const clean = await runCli(["questions", "validate", "questions/harbor-light-handbook.json", HANDBOOK_PATH], env);
    assert.equal(clean.code, 0, clean.stderr + clean.stdout);
    assert.match(clean.stdout, /^28 questions, 28 references: 28 found as written, 0 up to white space or typography, 0 as the same words .*, 0 not found$/m);
    assert.match(clean.stdout, /^vocabulary leak: average 52 % .*; 10 of 28 questions copy ≥ 75 %$/m);
    assert.match(clean.stdout, /^no problem found$/m);

    const bad = join(dir, "bad.json");
    writeFileSync(
      bad,
      JSON.stringify([
        { question: "How many homes does the cooperative supply?", references: ["Today the cooperative serves 4,300 member households"] },
        { question: "In which month do members choose directors?", references: ["Board elections are held every March at the annual general meeting."] },
        // A repeat up to case and white space, a space before the question mark included.
        { question: "in which month do members  choose directors ?", references: ["Board elections are held every March"] },
        { question: "When are board elections held?", references: ["Board elections are held every March"] },
        { question: "Who elects the board, and when?", references: [{ text: "Board elections are held every March", start: 0, end: 36 }] },
      ]),
    );
    const failed = await runCli(["questions", "validate", bad, HANDBOOK_PATH], env);
    assert.equal(failed.code, 1, failed.stderr);
    assert.match(failed.stdout, /^problem: item 1 \("How many homes does the cooperative supply\?"\): excerpt not found: "Today the cooperative serves 4,300/m);
    assert.match(
      failed.stdout,
      /closest passage in harbor-light-handbook\.docx \(similarity 0\.\d\d\), to paste: "Today the cooperative serves 4,200 member households"/,
    );
    assert.match(failed.stdout, /^problem: item 3 \("in which month do members {2}choose directors \?"\): the same question as item 2$/m);
    assert.match(failed.stdout, /^copies its excerpt: item 4 \("When are board elections held\?"\): 100 % of its content words are in its excerpt$/m);
    assert.doesNotMatch(failed.stdout, /copies its excerpt: item 2/, "a question in its own words is not flagged");
    assert.match(failed.stdout, /^problem: item 5 \("Who elects the board, and when\?"\): start 0 and end 36 do not hold the excerpt, which is at \d+-\d+/m);
    assert.match(failed.stdout, /^3 problem\(s\)$/m);

    const json = await runCli(["questions", "validate", bad, HANDBOOK_PATH, "--json"], env);
    assert.equal(json.code, 1);
    const check = JSON.parse(json.stdout);
    assert.deepEqual(
      check.problems.map((p: { item: number; kind: string }) => [p.item, p.kind]),
      [
        [1, "reference_not_found"],
        [3, "duplicate"],
        [5, "reference_offsets"],
      ],
    );
    assert.equal(check.smoke_test, null);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("questions validate: a reference without a document that is in two documents of a collection is a problem, as bench refuses it", async () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-questions-ambiguous-"));
  const env = { CHUNKEVAL_DATA_DIR: join(dir, "data"), CHUNKEVAL_EMBEDDER: "hash", COLUMNS: "400" };
  try {
    const docs = join(dir, "docs");
    mkdirSync(docs);
    writeFileSync(join(docs, "tea.txt"), "Tea notes\n\nSteep green tea every morning for two minutes.\n");
    writeFileSync(join(docs, "coffee.txt"), "Coffee notes\n\nDescale the machine every month with citric acid.\n");
    const questions = join(dir, "q.json");
    writeFileSync(
      questions,
      JSON.stringify([
        { question: "How often?", references: ["every"] },
        { question: "How long does green tea steep?", references: [{ document: "tea.txt", text: "for two minutes" }] },
      ]),
    );
    const check = await runCli(["questions", "validate", questions, docs], env);
    assert.equal(check.code, 1, check.stdout + check.stderr);
    assert.match(
      check.stdout,
      /^problem: item 1 \("How often\?"\): the excerpt is in 2 documents \((coffee|tea)\.txt, (coffee|tea)\.txt\): name its "document"/m,
    );
    assert.match(check.stdout, /^1 problem\(s\)$/m);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
