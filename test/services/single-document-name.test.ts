import { test } from "node:test";
import assert from "node:assert/strict";
import { createWorkspace } from "../helpers/workspace.js";

test("a single-document bench knows the file by the name given, though its bytes were stored before under another", async () => {
  const ws = await createWorkspace();
  try {
    const bytes = Buffer.from("Coffee notes\n\nBrew at 93 degrees for four minutes.\n\nGrind the beans coarse for a press.\n");
    await ws.app.upload({ filename: "notes-old.txt", bytes });
    const e = await ws.app.bench({
      document: { filename: "coffee.txt", bytes },
      questions: [{ question: "At how many degrees do we brew?", expectedAnswer: null, references: [{ document: "coffee.txt", text: "Brew at 93 degrees" }] }],
      questionsSource: "inline",
      strategies: ["recursive"],
      topK: 1,
    });
    assert.equal(e.aggregateMetrics.recursive!.hitRate, 1);
    // A name that is neither is still refused.
    await assert.rejects(
      ws.app.bench({
        document: { filename: "coffee.txt", bytes },
        questions: [{ question: "?", expectedAnswer: null, references: [{ document: "tea.txt", text: "Brew at 93 degrees" }] }],
        questionsSource: "inline",
        strategies: ["recursive"],
        topK: 1,
      }),
      /no document "tea\.txt" here \(documents: coffee\.txt\)/,
    );
  } finally {
    await ws.cleanup();
  }
});
