import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import type { Embedder } from "../../src/embedders/embedder.js";
import { useEmbedder } from "../../src/embedders/use.js";
import { createEmbeddingJudge } from "../../src/evaluators/embedding-judge.js";
import type { JudgeInput } from "../../src/domain/judge.js";
import { parseDocument } from "../../src/parsers/parser.js";

// The faithfulness cases of judges.test.ts (a changed number, a swapped name, a negation, an
// off-topic claim) repeated on the second evaluation corpus (examples/standard/): the contexts
// are passages of its documents as the parsers extract them, so the judge meets the corpus's own
// figures, units, clause numbers and names rather than the handbook's.

let embedder: Embedder;
let document: string;
before(async () => {
  embedder = await useEmbedder.create("", { workers: 0, batchSize: 32, openai: { maxRetries: 0, timeoutSeconds: 1 }, huggingFace: { allowRemote: false } });
  const parts = await Promise.all(
    ["fenmoor-ws7-part2-assets.docx", "fenmoor-ws7-part4-guidance.html"].map((name) => parseDocument(readFileSync(`examples/standard/${name}`), name)),
  );
  document = parts.map((p) => p.text).join("\n\n");
});
after(() => embedder.close());

/** The passage of the corpus that starts with `opening` and runs to the end of its paragraph: it must be there. */
function passage(opening: string): string {
  const start = document.indexOf(opening);
  assert.ok(start >= 0, `the corpus holds "${opening}"`);
  const end = document.indexOf("\n", start);
  return document.slice(start, end < 0 ? undefined : end);
}

async function faithfulness(answer: string, context: string): Promise<number | null> {
  const input: JudgeInput = {
    question: "",
    answer,
    answered: true,
    measureFaithfulness: true,
    contexts: [context],
    retrieval: "dense",
    document,
    target: null,
  };
  return (await createEmbeddingJudge(embedder).judge(input)).faithfulness;
}

/** Each case's score printed; those that differ from the expected score, described. */
async function failedCases(cases: Array<[answer: string, context: string, expected: number, kind: string]>): Promise<string[]> {
  const failures: string[] = [];
  for (const [answer, context, expected, kind] of cases) {
    const score = await faithfulness(answer, context);
    console.log(`# ${kind}: ${score} for "${answer}"`);
    if (score !== expected) failures.push(`${kind}: ${score} (expected ${expected}) for "${answer}"`);
  }
  return failures;
}

test("faithfulness on the water standard: supported claims score 10; a changed number, a swapped name, a negation, an off-topic claim score 0", async () => {
  const sedgecombe = passage("On 14 August 2023 a routine sample from cell 2 of Sedgecombe service reservoir");
  const valves = passage("Isolation valves up to 300 mm diameter shall be resilient-seated gate valves");
  const pumps = passage("A treated water pump passes its inspection when its overall vibration velocity");
  const fenmoorCentral = passage("Fenmoor Central had 32,400 residents on 1 January 2026.");

  const cases: Array<[string, string, number, string]> = [
    ["Cell 2 of Sedgecombe service reservoir had 3 coliforms per 100 ml in a routine sample.", sedgecombe, 10, "supported"],
    ["The vibration velocity limit for a treated water pump is 3.5 mm/s RMS.", pumps, 10, "supported"],
    ["Fenmoor Central had 32,400 residents on 1 January 2026.", fenmoorCentral, 10, "supported"],
    ["Valve chambers deeper than 1.2 metres count as confined spaces under HSW-9.", valves, 10, "supported"],
    ["Cell 2 of Sedgecombe service reservoir had 8 coliforms per 100 ml in a routine sample.", sedgecombe, 0, "changed number"],
    ["The vibration velocity limit for a treated water pump is 4.5 mm/s RMS.", pumps, 0, "changed number (the raw water pumps' limit)"],
    ["Fenmoor Central had 23,400 residents on 1 January 2026.", fenmoorCentral, 0, "changed number"],
    ["Cell 2 of Foxcote service reservoir had 3 coliforms per 100 ml in a routine sample.", sedgecombe, 0, "swapped name"],
    ["Kettle Green had 32,400 residents on 1 January 2026.", fenmoorCentral, 0, "swapped name"],
    ["Valve chambers deeper than 1.2 metres do not count as confined spaces under HSW-9.", valves, 0, "negation"],
    ["A treated water pump never passes its inspection when it vibrates at every bearing.", pumps, 0, "negation"],
    ["The museum's textile gallery opens at 10:00 on Sundays and admission is free for children.", valves, 0, "off-topic"],
  ];
  assert.deepEqual(await failedCases(cases), []);
  // One of two statements unsupported: half.
  assert.equal(
    await faithfulness(
      "Fenmoor Central had 32,400 residents on 1 January 2026. Cell 2 of Foxcote service reservoir had 3 coliforms per 100 ml.",
      `${fenmoorCentral} ${sedgecombe}`,
    ),
    5,
  );
  // A passage of the corpus that does not hold the claim cannot support it, however plausible.
  assert.equal(await faithfulness("Fenmoor Central had 32,400 residents on 1 January 2026.", valves), 0);
});

// The standard states most limits as bounds ("no more than 3.5 mm/s RMS", "at least 95 percent").
// Until 25 November 2026 the offline judge read "no more than" in an answer as a negation and
// scored such a faithful answer 0; the "no" of a bound on a number is now read as a bound with a
// direction (bounds.ts), so the answer is supported when it bounds the figure the way the context
// does, in whatever words, and unsupported when it turns the bound round or changes the figure.
const BOUNDS_TEST =
  "faithfulness on the water standard: a bound quoted as the context states it is supported; a turned bound, a changed limit or a real negation is not";
test(BOUNDS_TEST, async () => {
  const pumps = passage("A treated water pump passes its inspection when its overall vibration velocity");
  const derogations = passage("A derogation is granted for at most 24 months");
  const coating = passage("Steel water tower tanks shall be protected inside by a coating");
  const cases: Array<[string, string, number, string]> = [
    ["A treated water pump must vibrate no more than 3.5 mm/s RMS at every bearing to pass.", pumps, 10, "bound as stated"],
    ["A treated water pump passes when its vibration velocity at every bearing is no more than 3.5 mm/s RMS.", pumps, 10, "bound as stated"],
    ["To pass, a treated water pump must deliver at least 95 percent of its commissioning flow at the duty head.", pumps, 10, "bound as stated"],
    ["A treated water pump passes when its vibration velocity at every bearing is at most 3.5 mm/s RMS.", pumps, 10, "bound in other words"],
    ["A treated water pump needs a motor insulation resistance of not less than 100 megohms at 1,000 volts DC.", pumps, 10, "bound in other words"],
    ["A derogation is granted for no more than 24 months.", derogations, 10, "bound in other words"],
    ["No requirement can be waived for more than 36 months in all.", derogations, 10, "a real negation, as the context says"],
    ["The coating thickness is measured at not fewer than 20 points.", coating, 10, "bound in other words"],
    ["A treated water pump passes when its vibration velocity at every bearing is no less than 3.5 mm/s RMS.", pumps, 0, "turned bound"],
    ["A treated water pump passes when its vibration velocity at every bearing is more than 3.5 mm/s RMS.", pumps, 0, "turned bound"],
    ["To pass, a treated water pump must deliver at most 95 percent of its commissioning flow at the duty head.", pumps, 0, "turned bound"],
    ["A derogation is granted for at least 24 months.", derogations, 0, "turned bound"],
    ["The coating thickness is measured at no more than 20 points.", coating, 0, "turned bound"],
    ["A treated water pump passes when its vibration velocity at every bearing is no more than 4.5 mm/s RMS.", pumps, 0, "changed limit"],
    ["A derogation is granted for no more than 36 months.", derogations, 0, "changed limit (a figure of another clause)"],
    ["A requirement can be waived for more than 36 months in all.", derogations, 0, "negation dropped"],
    ["A treated water pump does not pass its inspection when its vibration velocity is no more than 3.5 mm/s RMS.", pumps, 0, "negation added"],
  ];
  assert.deepEqual(await failedCases(cases), []);
});
