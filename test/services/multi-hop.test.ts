import { test } from "node:test";
import assert from "node:assert/strict";
import { ValidationError } from "../../src/errors.js";
import { handbookBytes } from "../helpers/documents.js";
import { startOpenAiStub } from "../helpers/openai-server.js";
import { createWorkspace } from "../helpers/workspace.js";

/** The first sentence of the passage between `<passage X>` and `</passage X>` in a prompt. */
function firstSentence(prompt: string, name: "A" | "B"): string {
  const passage = prompt.split(`<passage ${name}>\n`)[1]!.split(`\n</passage ${name}>`)[0]!;
  return /^[^.]*\./.exec(passage.trim())![0];
}

test("multi-hop questions with an LLM: references in both passages, a reply from one passage only dropped, refused without an LLM", async () => {
  let multiHopCalls = 0;
  const stub = await startOpenAiStub({
    reply: (body) => {
      const prompt: string = body.messages.at(-1).content;
      if (prompt.includes("<passage A>")) {
        multiHopCalls++;
        const [a, b] = [firstSentence(prompt, "A"), firstSentence(prompt, "B")];
        // The first reply quotes passage A only: not a question that needs both.
        const excerpts = multiHopCalls === 1 ? [a] : [a, b];
        return JSON.stringify({
          question: `Which two rules together settle case ${multiHopCalls} of the cooperative's tariff disputes?`,
          answer: "Both.",
          excerpts,
        });
      }
      return JSON.stringify({ question: "When are board elections held?", answer: "Every March.", excerpts: ["Board elections are held every March"] });
    },
  });
  const ws = await createWorkspace(
    { generator: "openai:qgen" },
    { CHUNKEVAL_OPENAI_BASE_URL: stub.baseUrl, CHUNKEVAL_OPENAI_API_KEY: "k", CHUNKEVAL_OPENAI_MAX_RETRIES: "0" },
  );
  try {
    const file = await ws.app.generateQuestions({ document: { filename: "handbook.docx", bytes: handbookBytes() }, count: 1, multiHop: 1 });
    assert.equal(file.questions.length, 2);
    const spanning = file.questions[1]!;
    assert.match(spanning.question, /case 2/);
    const doc = await ws.app.getDocument(file.metadata.document.id);
    assert.equal(spanning.references.length, 2);
    for (const r of spanning.references) assert.equal(doc.text.slice(r.start, r.end), r.text);
    const [first, second] = spanning.references;
    assert.ok(first!.end <= second!.start || second!.end <= first!.start, "two places of the document");
    assert.deepEqual({ ...file.metadata.multiHop, prompt: null }, { requested: 1, kept: 1, prompt: null });
    assert.match(file.metadata.multiHop.prompt!, /combining information from passage A and passage B/);
    assert.deepEqual(
      file.metadata.drops.map((d) => [d.reason, d.detail]),
      [["poor_excerpt", "multi-hop: the excerpts do not come from both passages"]],
    );

    await assert.rejects(
      ws.app.generateQuestions({ document: { id: doc.id }, count: 1, multiHop: 1, generator: "template" }),
      (e: unknown) => e instanceof ValidationError && /multi-hop questions need an LLM/.test(e.message),
    );
  } finally {
    await ws.cleanup();
    await stub.close();
  }
});
