import { test } from "node:test";
import assert from "node:assert/strict";
import { handbookBytes } from "../helpers/documents.js";
import { startOpenAiStub } from "../helpers/openai-server.js";
import { startTestServer, waitForJob } from "../helpers/server.js";

test("POST /questions/generate: a background job whose questions POST /benchmarks takes inline; bad input is 422", async () => {
  const stub = await startOpenAiStub({
    reply: (body) => {
      // One question per passage: the excerpt is the passage's first sentence, so every question differs.
      // Such a question copies its excerpt: its rewording reply is malformed, and keep_leaky keeps it, flagged.
      if (!body.messages.at(-1).content.includes("<passage>")) return "no rewording";
      const passage: string = body.messages.at(-1).content.split("<passage>\n")[1];
      const sentence = passage.split(/(?<=\.)\s/)[0]!;
      return JSON.stringify({ question: `What does the handbook say in "${sentence.slice(0, 40)}"?`, answer: sentence, excerpts: [sentence] });
    },
  });
  const t = await startTestServer({ generator: "openai:qgen" }, { CHUNKEVAL_OPENAI_BASE_URL: stub.baseUrl, CHUNKEVAL_OPENAI_API_KEY: "k" });
  try {
    const id = (await t.upload("handbook.docx", handbookBytes())).body.id;
    const enqueued = await t.request("POST", "/questions/generate?background=true", {
      document_id: id,
      count: 3,
      duplicate_similarity: 0.99,
      keep_leaky: true,
    });
    assert.deepEqual([enqueued.status, enqueued.body.job_type], [202, "question_generation"]);
    const job = await waitForJob(t, enqueued.body.job_id);
    assert.equal(job.status, "completed", job.error);
    assert.equal(job.result.metadata.kind, "llm");
    assert.equal(job.result.metadata.counts.kept, 3);
    // Each question carries its leak; one copying ≥ 75 % of its excerpt's words is kept under keep_leaky, flagged.
    for (const q of job.result.questions) {
      assert.deepEqual(
        Object.keys(q)
          .filter((k) => k !== "flag")
          .sort(),
        ["expected_answer", "leak", "question", "references"],
      );
      assert.equal(q.flag === "copies its excerpt", q.leak >= 0.75, `${q.question}: leak ${q.leak}, flag ${q.flag}`);
    }
    const flagged = job.result.questions.filter((q: { flag?: string }) => q.flag).length;
    assert.ok(flagged >= 1, "a copying question kept, flagged");
    assert.equal(job.result.metadata.leak.above, flagged);
    assert.deepEqual(Object.keys(job.result.questions[0].references[0]).sort(), ["end", "start", "text"]);

    const bench = await t.request("POST", "/benchmarks", { document_id: id, strategies: ["fixed_size"], questions: job.result.questions, dry_run: true });
    assert.equal(bench.status, 201, bench.text);
    assert.equal(bench.body.questions_count, 3);

    const sync = await t.request("POST", "/questions/generate", { document_id: id, count: 2, generator: "template" });
    assert.equal(sync.status, 201);
    assert.equal(sync.body.metadata.kind, "template");

    for (const body of [{ document_id: id, count: 0 }, { document_id: id, generator: "extractive" }, { document_id: id, surprise: 1 }, { count: 2 }]) {
      const r = await t.request("POST", "/questions/generate", body);
      assert.equal(r.status, 422, JSON.stringify(body));
      assert.equal(r.body.type, "ValidationError");
    }
    assert.equal((await t.request("POST", "/questions/generate", { document_id: "doc_missing" })).status, 404);
  } finally {
    await t.close();
    await stub.close();
  }
});

test("background question generation: deleting its document cancels the job with a clear reason; a missing document is 404 before any job", async () => {
  const stub = await startOpenAiStub({ delayMs: 300, reply: () => "not JSON" }); // slow and useless: the job is still running at the delete
  const t = await startTestServer({ generator: "openai:qgen" }, { CHUNKEVAL_OPENAI_BASE_URL: stub.baseUrl, CHUNKEVAL_OPENAI_API_KEY: "k" });
  try {
    const missing = await t.request("POST", "/questions/generate?background=true", { document_id: "doc_missing", count: 3 });
    assert.equal(missing.status, 404);
    assert.equal((await t.request("GET", "/jobs?job_type=question_generation")).body.total, 0, "no job for a refused request");
    const id = (await t.upload("handbook.docx", handbookBytes())).body.id;
    const enqueued = await t.request("POST", "/questions/generate?background=true", { document_id: id, count: 20 });
    assert.equal(enqueued.status, 202);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal((await t.request("DELETE", `/documents/${id}`)).status, 200);
    const job = await waitForJob(t, enqueued.body.job_id, 200);
    assert.deepEqual([job.status, job.error], ["failed", `cancelled: document handbook.docx (${id}) was deleted`]);
  } finally {
    await t.close();
    await stub.close();
  }
});

test("POST /questions/check, as `questions validate`: a reference found, moved, missing (with its closest passage), a duplicate, a template set", async () => {
  const t = await startTestServer();
  try {
    const id = (await t.upload("handbook.docx", handbookBytes())).body.id;
    const text: string = (await t.request("GET", `/documents/${id}`)).body.text;
    const excerpt = "Board elections are held every March at the annual general meeting.";
    const start = text.indexOf(excerpt);
    assert.ok(start > 0);
    const good = { question: "When does the cooperative choose its directors?", references: [{ text: excerpt, start, end: start + excerpt.length }] };
    const clean = await t.request("POST", "/questions/check", { document_id: id, questions: [good] });
    assert.equal(clean.status, 200, clean.text);
    assert.deepEqual([clean.body.questions, clean.body.references, clean.body.located.exact, clean.body.problems, clean.body.smoke_test], [1, 1, 1, [], null]);

    const moved = { question: "Who elects the board?", references: [{ text: excerpt, start: start + 1, end: start + 1 + excerpt.length }] };
    const missing = { question: "What colour is the lighthouse?", references: [{ text: "Board elections are held every April at the yearly meeting." }] };
    const checked = await t.request("POST", "/questions/check", { document_id: id, questions: [good, moved, missing, { ...good, references: [] }] });
    assert.equal(checked.status, 200, checked.text);
    const kinds = checked.body.problems.map((p: { item: number; kind: string }) => `${p.item} ${p.kind}`);
    assert.deepEqual(kinds, ["2 reference_offsets", "3 reference_not_found", "4 duplicate"]);
    const closest = checked.body.problems[1].closest;
    assert.equal(closest.document, "handbook.docx");
    assert.ok(closest.text.includes("Board elections are held every March"), closest.text);

    // Generated by the template: a benchmark on it would be a smoke test, and the check says so.
    const template = await t.request("POST", "/questions/check", { document_id: id, questions: [good], origin: { kind: "template" } });
    assert.match(template.body.smoke_test, /template/);

    for (const [body, status] of [
      [{ questions: [good] }, 422],
      [{ document_id: id, collection_id: "c", questions: [good] }, 422],
      [{ document_id: "doc_missing", questions: [good] }, 404],
      [{ document_id: id }, 400], // as POST /benchmarks answers it
      [{ document_id: id, questions: [good], origin: { kind: "someone" } }, 422],
    ] as const) {
      const r = await t.request("POST", "/questions/check", body);
      assert.equal(r.status, status, `${JSON.stringify(body)}: ${r.text}`);
    }
  } finally {
    await t.close();
  }
});
