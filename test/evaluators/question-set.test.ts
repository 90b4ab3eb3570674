import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { validateQuestions } from "../../src/evaluators/questions.js";
import { loadQuestionsOrigin, profileQuestionSet, questionLeak, vocabularyLeak } from "../../src/evaluators/question-set.js";
import { smokeTestReason } from "../../src/domain/question-set.js";

test("vocabulary leak: the share of a question's content words (stemmed) found in its excerpt", () => {
  const excerpt = "Board elections are held every March at the annual general meeting.";
  // board, elect(ions), held: all three copied.
  assert.equal(questionLeak("When are board elections held?", [excerpt]), 1);
  // vote, director, chosen, month: none copied.
  assert.equal(questionLeak("In which month are directors chosen by vote?", [excerpt]), 0);
  // annual, meeting copied; quorum, need not.
  assert.equal(questionLeak("What quorum does the annual meeting need?", [excerpt]), 2 / 4);
  assert.equal(questionLeak("What is it?", [excerpt]), null, "no content word to compare");
  assert.equal(questionLeak("When are board elections held?", []), null, "no excerpt to compare with");

  const questions = validateQuestions("q.json", [
    { question: "When are board elections held?", references: [excerpt] },
    { question: "In which month are directors chosen by vote?", references: [excerpt] },
    { question: "What quorum does the annual meeting need?", references: [excerpt] },
    { question: "Who chairs the board?" },
  ]);
  assert.deepEqual(vocabularyLeak(questions), { average: 0.5, threshold: 0.75, above: 1, measured: 3 });
});

test("question set profile: provenance from the file's metadata, else the template wording, else taken as hand-written", async () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-qset-"));
  try {
    const items = [{ question: 'What does the section "2. Governance" say about board and meeting?', references: ["Board elections are held every March."] }];
    const generated = join(dir, "llm.json");
    writeFileSync(generated, JSON.stringify({ metadata: { kind: "llm", model: "gpt-4o-mini", generator: "openai:gpt-4o-mini" }, questions: items }));
    const plain = join(dir, "plain.json");
    writeFileSync(plain, JSON.stringify(items));
    const questions = validateQuestions("q.json", items);

    const llm = profileQuestionSet(questions, await loadQuestionsOrigin(generated));
    assert.deepEqual([llm.provenance, llm.model, llm.provenanceFrom], ["llm", "gpt-4o-mini", "metadata"]);
    const byWording = profileQuestionSet(questions, await loadQuestionsOrigin(plain));
    assert.deepEqual([byWording.provenance, byWording.provenanceFrom], ["template", "wording"], "every question in the template generator's form");
    assert.match(smokeTestReason(byWording)!, /template questions/);

    // Mostly template-shaped with one question written by hand: still template; fewer than half: hand-written.
    const handWritten = { question: "In which month are directors chosen by vote?", references: ["Board elections are held every March."] };
    const mostly = profileQuestionSet(validateQuestions("q.json", [items[0]!, items[0]!, handWritten]), null);
    assert.deepEqual([mostly.provenance, mostly.provenanceFrom], ["template", "wording"], "two of three questions in the template form");
    assert.match(smokeTestReason(mostly)!, /template questions/);
    const half = profileQuestionSet(validateQuestions("q.json", [items[0]!, handWritten]), null);
    assert.equal(half.provenance, "template", "half is enough");
    const few = profileQuestionSet(validateQuestions("q.json", [items[0]!, handWritten, handWritten]), null);
    assert.deepEqual([few.provenance, few.provenanceFrom], ["hand-written", "none"], "one of three is not most");

    const written = profileQuestionSet(
      validateQuestions("q.json", [{ question: "In which month are directors chosen by vote?", references: ["Board elections are held every March."] }]),
      null,
    );
    assert.deepEqual([written.provenance, written.provenanceFrom], ["hand-written", "none"]);
    assert.equal(smokeTestReason(written), null);
    assert.equal(await loadQuestionsOrigin(join(dir, "missing.json")), null, "an unreadable file records no generator (its loader reports the error)");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
