import { test } from "node:test";
import assert from "node:assert/strict";
import { contextJudgeNote } from "../../src/domain/context-judge-note.js";
import type { SearchMode } from "../../src/domain/variant-key.js";

const offline = (mode: SearchMode) => (mode === "dense" ? "lexical evidence" : mode === "keyword" ? "the use embedder's relatedness" : null);

test("context judge note: rows of different retrieval modes name each mode's judge and say to compare within a mode", () => {
  const note = contextJudgeNote(
    {
      recursive: { retrieval: "dense" },
      structure: { retrieval: "dense" },
      "recursive@retrieval=keyword": { retrieval: "keyword" },
      contextual_retrieval: { retrieval: "hybrid" },
    },
    offline,
  );
  assert.equal(
    note,
    "Context relevance is scored by different evidence per retrieval mode: dense rows (recursive and structure) by lexical evidence; " +
      "keyword rows (recursive@retrieval=keyword) by the use embedder's relatedness; hybrid rows (contextual_retrieval) are not scored. " +
      "Compare context relevance within a retrieval mode, not across modes.",
  );
});

test("context judge note: none when every row is judged the same way (one mode, or a judge that reads every context alike)", () => {
  assert.equal(contextJudgeNote({ recursive: { retrieval: "dense" }, structure: { retrieval: "dense" } }, offline), null);
  assert.equal(
    contextJudgeNote({ recursive: { retrieval: "dense" }, "recursive@retrieval=keyword": { retrieval: "keyword" } }, () => "the model's grade"),
    null,
  );
});
