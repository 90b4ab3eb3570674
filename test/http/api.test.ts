import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, rmSync, symlinkSync, writeFileSync, copyFileSync } from "node:fs";
import { join } from "node:path";
import { startTestServer, waitForJob } from "../helpers/server.js";
import { TEST_METADATA_STORE } from "../helpers/test-metadata-store.js";
import { handbookBytes } from "../helpers/documents.js";

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?$/;

test("every evaluation route answers with the spec's shapes and status codes", async () => {
  const t = await startTestServer();
  try {
    copyFileSync("questions/harbor-light-handbook.json", join(t.ws.dir, "questions", "handbook.json"));
    const up = await t.upload("handbook.docx", handbookBytes());
    assert.equal(up.status, 201);
    assert.deepEqual(Object.keys(up.body).sort(), ["already_stored", "chunk_counts", "created_at", "filename", "id", "paragraph_count", "warnings"]);
    assert.deepEqual(up.body.warnings, []);
    assert.equal(up.body.already_stored, false);
    assert.match(up.body.created_at, ISO);
    const id = up.body.id;

    const list = await t.request("GET", "/documents");
    assert.equal(list.status, 200);
    assert.deepEqual(Object.keys(list.body).sort(), ["items", "limit", "offset", "total"]);
    assert.deepEqual([list.body.total, list.body.offset, list.body.limit], [1, 0, 50]);

    const strategies = await t.request("GET", "/strategies");
    assert.deepEqual(
      strategies.body.strategies.map((s: any) => s.name),
      ["recursive", "fixed_size", "semantic", "contextual_retrieval", "semantic_parent_child", "structure"],
    );
    assert.ok(strategies.body.strategies.every((s: any) => typeof s.description === "string"));
    const recursive = strategies.body.strategies.find((s: any) => s.name === "recursive");
    assert.ok(
      recursive.parameters.some((p: any) => p.name === "chunk_size" && typeof p.default === "number"),
      "parameters with their defaults, as the CLI shows them",
    );

    const processed = await t.request("POST", `/documents/${id}/process`, { strategies: ["recursive", "semantic_parent_child"] });
    assert.equal(processed.status, 200);
    assert.equal(processed.body.document_id, id);
    assert.deepEqual(
      processed.body.strategies_completed.map((s: any) => [s.strategy, s.status]),
      [
        ["recursive", "completed"],
        ["semantic_parent_child", "completed"],
      ],
    );
    assert.ok(processed.body.strategies_completed.every((s: any) => Number.isInteger(s.chunks_produced)));
    assert.deepEqual(processed.body.strategies_failed, []);

    const q = await t.request("POST", "/queries", {
      document_id: id,
      strategy: "semantic_parent_child",
      question: "Which number is the 24-hour fault line?",
      top_k: 2,
    });
    assert.equal(q.status, 201);
    for (const k of ["query_id", "document_id", "strategy", "question", "answer", "retrieved_chunks", "latency_breakdown", "token_usage", "created_at"])
      assert.ok(k in q.body, k);
    assert.ok(
      q.body.retrieved_chunks.every(
        (c: any) => typeof c.chunk_id === "string" && typeof c.score === "number" && typeof c.text === "string" && typeof c.parent_id === "string",
      ),
    );
    assert.deepEqual(Object.keys(q.body.latency_breakdown).sort(), ["answer_seconds", "embed_seconds", "search_seconds", "total_seconds"]);
    assert.deepEqual(Object.keys(q.body.token_usage).sort(), ["completion_tokens", "prompt_tokens", "total_tokens"]);
    const fetched = await t.request("GET", `/queries/${q.body.query_id}`);
    assert.deepEqual(fetched.body, q.body);

    const bench = await t.request("POST", "/benchmarks", {
      document_id: id,
      strategies: ["recursive"],
      questions_file: "handbook.json",
      top_k: 3,
      dry_run: false,
    });
    assert.equal(bench.status, 201, bench.text);
    // The spec's fields, plus the verdict with its comparisons, each metric's scale and direction, the collection fields (null here),
    // the tags and each strategy's chunk health.
    assert.deepEqual([bench.body.collection, bench.body.per_document], [null, null]);
    assert.deepEqual(Object.keys(bench.body).sort(), [
      "aggregate_metrics",
      "best_strategy",
      "chunk_health",
      "collection",
      "comparisons",
      "created_at",
      "document_id",
      "estimated_cost_usd",
      "experiment_id",
      "headline",
      "inseparable_from_best",
      "metrics",
      "per_document",
      "question_set",
      "questions_count",
      "retrieval_modes",
      "strategies_used",
      "tags",
      "total_latency_seconds",
      "verdict",
      "verdict_notes",
      "verdict_status",
    ]);
    assert.deepEqual(bench.body.tags, {}, "the CLI's bench --tag labels; none through the API");
    assert.equal(bench.body.questions_count, 28);
    assert.match(bench.body.verdict, /^recursive was the only strategy benchmarked/);
    assert.deepEqual(bench.body.metrics.avg_faithfulness.scale, "0-10");
    const m = bench.body.aggregate_metrics.recursive;
    assert.equal(typeof m.avg_answer_similarity, "number");
    // The hash embedder is word overlap: its dense retrieval ranks by the offline judge's own evidence, so context relevance is not measured.
    assert.equal(m.avg_context_relevance, null);
    assert.match(m.missing.avg_context_relevance, /the hash embedder is word overlap/);
    // The extractive generator copies its answers from the context: faithfulness cannot fail, so it is not scored.
    for (const k of ["avg_faithfulness", "hallucination_rate"]) {
      assert.equal(m[k], null, k);
      assert.match(m.missing[k], /answers are copied from the retrieved context/);
    }
    for (const k of ["total_questions", "failed_questions"]) assert.ok(Number.isInteger(m[k]), k);
    const exp = await t.request("GET", `/benchmarks/${bench.body.experiment_id}`);
    assert.deepEqual(exp.body, bench.body);
    for (const view of ["managerial", "technical"]) {
      const report = await t.request("GET", `/benchmarks/${bench.body.experiment_id}/report${view === "technical" ? "?view=technical" : ""}`);
      assert.equal(report.status, 200);
      assert.match(report.headers.get("content-type")!, /^text\/html/);
      assert.match(report.text, /<svg class="chart"/);
    }
    // The same report formats and baseline as the CLI.
    const md = await t.request("GET", `/benchmarks/${bench.body.experiment_id}/report?format=md&baseline=${bench.body.experiment_id}`);
    assert.equal(md.status, 200);
    assert.match(md.headers.get("content-type")!, /^text\/markdown/);
    assert.match(md.text, /^# chunkeval experiment exp_/);
    const exported = await t.request("GET", `/benchmarks/${bench.body.experiment_id}/report?format=json&baseline=${bench.body.experiment_id}`);
    assert.equal(exported.status, 200);
    assert.equal(exported.body.results.recursive.length, 28);
    assert.equal(exported.body.baseline.deltas.recursive.avg_recall, 0);
    assert.equal(exported.body.metrics.avg_recall.direction, "higher");
    assert.equal((await t.request("GET", `/benchmarks/${bench.body.experiment_id}/report?format=pdf`)).status, 422);
    assert.equal((await t.request("GET", `/benchmarks/${bench.body.experiment_id}/report?baseline=exp_missing`)).status, 404);
    const experiments = await t.request("GET", "/experiments");
    assert.deepEqual(
      experiments.body.items.map((e: any) => Object.keys(e).sort()),
      [["created_at", "document_id", "document_name", "id", "strategies_used"]],
    );

    const inline = await t.request("POST", "/benchmarks", {
      document_id: id,
      strategies: ["recursive"],
      questions: [{ question: "How much does a member share cost?", expected_answer: "100 euros" }],
    });
    assert.equal(inline.status, 201);
    assert.equal(inline.body.questions_count, 1);

    const del = await t.request("DELETE", `/documents/${id}`);
    assert.deepEqual([del.status, del.body], [200, { deleted: true, document_id: id }]);
    assert.equal((await t.request("GET", "/documents")).body.total, 0);

    const openapi = await t.request("GET", "/openapi.json");
    assert.equal(openapi.status, 200);
    for (const path of [
      "/documents",
      "/documents/{doc_id}",
      "/documents/{doc_id}/process",
      "/strategies",
      "/queries",
      "/queries/{query_id}",
      "/benchmarks",
      "/benchmarks/{experiment_id}",
      "/benchmarks/{experiment_id}/report",
      "/experiments",
      "/jobs",
      "/jobs/{job_id}",
    ]) {
      assert.ok(path in openapi.body.paths, path);
    }
    const docs = await t.request("GET", "/docs/");
    assert.equal(docs.status, 200);
    assert.doesNotMatch(docs.text, /https?:\/\/(cdn|unpkg|cdnjs)/, "swagger UI assets are served locally");
  } finally {
    await t.close();
  }
});

test("errors are {detail, type} with the spec's status codes", async () => {
  const t = await startTestServer({ max_upload_mb: 1 });
  try {
    const id = (await t.upload("handbook.docx", handbookBytes())).body.id;
    const cases: Array<[string, string, unknown, number, string, RegExp?]> = [
      ["GET", "/queries/qry_missing", undefined, 404, "QueryError", /query not found/],
      ["GET", "/benchmarks/exp_missing", undefined, 404, "QueryError"],
      ["GET", "/benchmarks/exp_missing/report", undefined, 404, "QueryError"],
      ["DELETE", "/documents/doc_missing", undefined, 404, "QueryError", /document not found/],
      ["POST", "/documents/doc_missing/process", { strategies: ["recursive"] }, 404, "QueryError"],
      ["GET", "/jobs/job_missing", undefined, 404, "QueryError"],
      ["POST", `/documents/${id}/process`, { strategies: ["sliding"] }, 400, "ChunkingError", /unknown strategy "sliding"/],
      ["POST", "/queries", { document_id: id, strategy: "semantic", question: "Q?" }, 400, "QueryError", /has not been processed with strategy semantic/],
      ["POST", "/queries", { document_id: id, strategy: "nope", question: "Q?" }, 400, "QueryError", /unknown strategy/],
      ["POST", "/queries", { document_id: "doc_missing", strategy: "recursive", question: "Q?" }, 404, "QueryError"],
      ["POST", "/queries", { document_id: id, strategy: "recursive" }, 422, "ValidationError", /question/],
      ["POST", "/queries", { document_id: id, strategy: "recursive", question: "Q?", top_k: 0 }, 422, "ValidationError", /top_k/],
      ["POST", "/queries", "{not json", 422, "ValidationError"],
      ["POST", "/benchmarks", { document_id: id, questions_file: "missing.json" }, 400, "BenchmarkError", /not found in the questions directory/],
      ["POST", "/benchmarks", { document_id: id }, 400, "BenchmarkError", /questions_file \(or inline questions\) is required/],
      ["POST", "/benchmarks", { document_id: id, strategies: ["sliding"], questions: [{ question: "Q?" }] }, 400, "BenchmarkError", /unknown strategy/],
      ["POST", "/benchmarks", { document_id: id, questions: [{ question: "" }] }, 422, "ValidationError", /item 1/],
      ["POST", "/benchmarks", { document_id: { nested: true } }, 422, "ValidationError"],
      ["GET", "/documents?limit=0", undefined, 422, "ValidationError"],
      ["GET", "/documents?offset=-1", undefined, 422, "ValidationError"],
      ["GET", "/jobs?status=lost", undefined, 422, "ValidationError"],
      ["GET", "/no/such/route", undefined, 404, "QueryError"],
    ];
    for (const [method, path, body, status, type, detail] of cases) {
      const r = await t.request(method, path, body);
      assert.equal(r.status, status, `${method} ${path}: ${r.text}`);
      assert.deepEqual(Object.keys(r.body).sort(), ["detail", "type"], `${method} ${path}`);
      assert.equal(r.body.type, type, `${method} ${path}`);
      if (detail) assert.match(r.body.detail, detail, `${method} ${path}`);
    }
    const exp = (await t.request("POST", "/benchmarks", { document_id: id, strategies: ["recursive"], questions: [{ question: "Q?" }] })).body;
    const badView = await t.request("GET", `/benchmarks/${exp.experiment_id}/report?view=fancy`);
    assert.deepEqual([badView.status, badView.body.type], [422, "ValidationError"]);

    // Text in a legacy encoding (Latin-1): neither a binary format nor UTF-8 text.
    const notWord = await t.upload("notes.docx", Buffer.from("caf\xe9 notes", "latin1"));
    assert.deepEqual([notWord.status, notWord.body.type], [400, "ChunkingError"]);
    assert.match(notWord.body.detail, /notes\.docx: not a supported document .*not UTF-8 text\?/);
    const tooBig = await t.upload("big.docx", Buffer.alloc(2 * 1024 * 1024, 1));
    assert.deepEqual([tooBig.status, tooBig.body.type], [413, "PayloadTooLargeError"]);
    const noFile = await t.request("POST", "/documents", { file: "x" });
    assert.deepEqual([noFile.status, noFile.body.type], [422, "ValidationError"]);
    const traversal = await t.upload("../../etc/passwd.docx", handbookBytes(), {}, "?new=true");
    assert.equal(traversal.status, 201);
    assert.equal(traversal.body.filename, "passwd.docx", "upload names are never paths");
    assert.equal((await t.request("GET", "/documents")).body.total, 2, "rejected uploads stored nothing");
  } finally {
    await t.close();
  }
});

test("questions_file cannot escape the questions directory", async () => {
  const t = await startTestServer();
  try {
    const id = (await t.upload("handbook.docx", handbookBytes())).body.id;
    const outside = join(t.ws.dir, "secret.json");
    writeFileSync(outside, JSON.stringify([{ question: "leak?" }]));
    mkdirSync(join(t.ws.dir, "questions", "sub"));
    symlinkSync(outside, join(t.ws.dir, "questions", "sub", "link.json"));
    for (const path of ["../secret.json", outside, "sub/link.json", "sub/../../secret.json", "/etc/passwd"]) {
      const r = await t.request("POST", "/benchmarks", { document_id: id, strategies: ["recursive"], questions_file: path });
      assert.equal(r.status, 400, path);
      assert.equal(r.body.type, "BenchmarkError", path);
      assert.match(r.body.detail, /must be inside the questions directory/, path);
    }
    assert.equal((await t.request("GET", "/experiments")).body.total, 0);
    // A questions directory that does not exist (./questions where the server was started) is a 400 saying so, never a 500.
    rmSync(join(t.ws.dir, "questions"), { recursive: true, force: true });
    for (const background of ["", "?background=true"]) {
      const r = await t.request("POST", `/benchmarks${background}`, { document_id: id, strategies: ["recursive"], questions_file: "handbook.json" });
      assert.deepEqual([r.status, r.body.type], [400, "BenchmarkError"], JSON.stringify(r.body));
      assert.match(r.body.detail, /the questions directory does not exist: .*questions \(set questions_dir, or send the questions inline\)/);
    }
  } finally {
    await t.close();
  }
});

test("background jobs: 202, polled to completed with the synchronous payload, and to failed with an error", async () => {
  const t = await startTestServer({ max_background_jobs: 1 });
  try {
    const id = (await t.upload("handbook.docx", handbookBytes())).body.id;
    const enqueued = await t.request("POST", `/documents/${id}/process?background=true`, { strategies: ["fixed_size"] });
    assert.equal(enqueued.status, 202);
    assert.deepEqual(Object.keys(enqueued.body).sort(), ["job_id", "job_type", "poll_url", "status"]);
    assert.equal(enqueued.body.poll_url, `/jobs/${enqueued.body.job_id}`);
    assert.equal(enqueued.body.job_type, "process");
    assert.equal(enqueued.body.status, "pending");
    const done = await waitForJob(t, enqueued.body.job_id);
    assert.equal(done.status, "completed");
    assert.equal(done.about, `handbook.docx (${id})`, "a job row names its document as people know it");
    assert.equal(done.result.document_id, id);
    assert.equal(done.result.strategies_completed[0].strategy, "fixed_size");
    assert.equal("error" in done, false);
    assert.match(done.started_at, ISO);
    assert.match(done.finished_at, ISO);

    const bench = await t.request("POST", "/benchmarks?background=true", {
      document_id: id,
      strategies: ["fixed_size"],
      questions: [{ question: "How much does a member share cost?" }],
    });
    assert.deepEqual([bench.status, bench.body.job_type], [202, "benchmark"]);
    const benchDone = await waitForJob(t, bench.body.job_id);
    assert.equal(benchDone.status, "completed");
    assert.equal(benchDone.about, `handbook.docx (${id})`);
    const sync = await t.request("GET", `/benchmarks/${benchDone.result.experiment_id}`);
    assert.deepEqual(benchDone.result, sync.body, "the job's result is what the synchronous endpoint returns");

    // Refused before the 202, exactly as the synchronous request: no job is created.
    const refused = await t.request("POST", "/benchmarks?background=true", {
      document_id: id,
      strategies: ["fixed_size"],
      questions: [{ question: "Q?", references: ["not in the document at all"] }],
    });
    assert.equal(refused.status, 422);
    assert.match(refused.body.detail, /excerpt not found in the document/);

    // A job that fails: its document is deleted while it waits for the one slot.
    const blocker = await t.request("POST", `/documents/${id}/process?background=true`, {
      strategies: ["semantic", "semantic_parent_child", "contextual_retrieval"],
    });
    const other = (await t.upload("other.docx", handbookBytes(), {}, "?new=true")).body.id;
    const failing = await t.request("POST", "/benchmarks?background=true", { document_id: other, strategies: ["fixed_size"], questions: [{ question: "Q?" }] });
    assert.equal((await t.request("DELETE", `/documents/${other}`)).status, 200);
    const failed = await waitForJob(t, failing.body.job_id);
    assert.equal(failed.status, "failed");
    assert.equal(failed.error, `cancelled: document other.docx (${other}) was deleted`);
    assert.equal("result" in failed, false);
    assert.equal((await waitForJob(t, blocker.body.job_id)).status, "completed");

    const list = await t.request("GET", "/jobs");
    assert.deepEqual([list.body.total, list.body.offset, list.body.limit], [4, 0, 50]);
    assert.deepEqual(
      list.body.items.map((j: any) => j.job_id),
      [failing.body.job_id, blocker.body.job_id, bench.body.job_id, enqueued.body.job_id],
      "newest first",
    );
    assert.deepEqual(
      (await t.request("GET", "/jobs?job_type=benchmark&status=failed")).body.items.map((j: any) => j.job_id),
      [failing.body.job_id],
    );
    assert.deepEqual(
      (await t.request("GET", "/jobs?limit=1&offset=2")).body.items.map((j: any) => j.job_id),
      [bench.body.job_id],
    );
  } finally {
    await t.close();
  }
});

test("a job left pending or running by a stopped server is marked failed (SQLite) or run by the next (PostgreSQL), not lost", async () => {
  const t = await startTestServer({ max_background_jobs: 1 });
  try {
    const id = (await t.upload("handbook.docx", handbookBytes())).body.id;
    const jobs = [];
    // The first job is the slowest work there is, so the two behind it are still queued at the restart.
    for (const strategies of [["semantic", "semantic_parent_child", "contextual_retrieval"], ["fixed_size"], ["recursive"]])
      jobs.push((await t.request("POST", `/documents/${id}/process?background=true`, { strategies })).body.job_id);
    const states = await Promise.all(jobs.map((j) => t.request("GET", `/jobs/${j}`)));
    // Counted, not "the last two are pending": a PostgreSQL worker may already have finished one and taken the next.
    assert.ok(states.filter((s) => s.body.status === "running").length <= 1, "at most one job runs at once");
    await t.restart();
    if (process.env[TEST_METADATA_STORE] === "postgres") {
      // PostgreSQL's queue is shared: the stopping server gave its jobs back, and the restarted one runs them to the end.
      for (const j of jobs) {
        const start = Date.now();
        let r = (await t.request("GET", `/jobs/${j}`)).body;
        while ((r.status === "pending" || r.status === "running") && Date.now() - start < 30_000) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          r = (await t.request("GET", `/jobs/${j}`)).body;
        }
        assert.equal(r.status, "completed", r.error);
      }
      return;
    }
    for (const j of jobs) {
      const r = (await t.request("GET", `/jobs/${j}`)).body;
      assert.ok(r.status === "failed" || r.status === "completed", r.status);
      if (r.status === "failed") assert.match(r.error, /^interrupted: the server (shut down|restarted) before this job finished$/);
    }
    assert.equal((await t.request("GET", "/jobs?status=failed")).body.total >= 2, true);
  } finally {
    await t.close();
  }
});

test("with CHUNKEVAL_API_KEY set, every evaluation route requires it", async () => {
  const t = await startTestServer({}, { CHUNKEVAL_API_KEY: "s3cret" });
  try {
    for (const [method, path] of [
      ["GET", "/documents"],
      ["GET", "/strategies"],
      ["POST", "/queries"],
      ["GET", "/jobs"],
      ["GET", "/experiments"],
    ]) {
      const r = await t.request(method!, path!, method === "POST" ? {} : undefined);
      assert.deepEqual([r.status, r.body.type], [401, "AuthenticationError"], `${method} ${path}`);
    }
    assert.equal((await t.request("GET", "/documents", undefined, { authorization: "Bearer wrong" })).status, 401);
    assert.equal((await t.request("GET", "/documents", undefined, { authorization: "Bearer s3cret" })).status, 200);
    assert.equal((await t.upload("h.docx", handbookBytes(), { authorization: "Bearer s3cret" })).status, 201);
  } finally {
    await t.close();
  }
});

test("50 concurrent requests are all answered correctly", async () => {
  const t = await startTestServer();
  try {
    const id = (await t.upload("handbook.docx", handbookBytes())).body.id;
    await t.request("POST", `/documents/${id}/process`, { strategies: ["recursive"] });
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        i % 2 === 0
          ? t.request("POST", "/queries", { document_id: id, strategy: "recursive", question: `What is the price of one member share? (${i})`, top_k: 2 })
          : t.request("GET", "/documents"),
      ),
    );
    responses.forEach((r, i) => {
      if (i % 2 === 0) {
        assert.equal(r.status, 201);
        assert.equal(r.body.question, `What is the price of one member share? (${i})`);
        assert.match(r.body.answer, /100 euros/);
      } else {
        assert.equal(r.status, 200);
        assert.equal(r.body.items[0].id, id);
      }
    });
  } finally {
    await t.close();
  }
});

test("POST /documents: bytes already stored answer 200 with the stored document; new=true stores another (201)", async () => {
  const t = await startTestServer();
  try {
    const first = await t.upload("handbook.docx", handbookBytes());
    assert.deepEqual([first.status, first.body.already_stored], [201, false]);
    const again = await t.upload("renamed.docx", handbookBytes());
    assert.equal(again.status, 200);
    assert.deepEqual([again.body.id, again.body.filename, again.body.already_stored], [first.body.id, "handbook.docx", true]);
    const forced = await t.upload("copy.docx", handbookBytes(), {}, "?new=true");
    assert.equal(forced.status, 201);
    assert.notEqual(forced.body.id, first.body.id);
    assert.deepEqual([forced.body.filename, forced.body.already_stored], ["copy.docx", false]);
    const badFlag = await t.upload("copy.docx", handbookBytes(), {}, "?new=maybe");
    assert.deepEqual([badFlag.status, badFlag.body.type], [422, "ValidationError"]);
    assert.equal((await t.request("GET", "/documents")).body.total, 2);
    const openapi = await t.request("GET", "/openapi.json");
    const route = openapi.body.paths["/documents"].post;
    assert.match(route.description, /already_stored: true/);
    assert.ok(route.parameters.some((p: { name: string; in: string }) => p.name === "new" && p.in === "query"));
  } finally {
    await t.close();
  }
});
