import { test } from "node:test";
import assert from "node:assert/strict";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { handbookBytes } from "../helpers/documents.js";
import { startOpenAiStub } from "../helpers/openai-server.js";
import { REQUEST_LIMITS } from "../../src/transports/http/request-limits.js";

/**
 * The strings, lists and open objects of a request schema that have no bound, by where they are.
 * A string is bounded by maxLength, an enum or being a binary file part (bounded by max_upload_mb).
 */
function unbounded(schema: unknown, where: string): string[] {
  if (!schema || typeof schema !== "object") return [];
  const s = schema as Record<string, unknown>;
  const found: string[] = [];
  const types = ([] as unknown[]).concat(s.type ?? []);
  if (types.includes("string") && s.maxLength === undefined && s.enum === undefined && s.format !== "binary")
    found.push(`${where}: a string without maxLength`);
  if (types.includes("array") && s.maxItems === undefined) found.push(`${where}: a list without maxItems`);
  if (s.additionalProperties && typeof s.additionalProperties === "object" && s.maxProperties === undefined)
    found.push(`${where}: an open object without maxProperties`);
  for (const [name, sub] of Object.entries((s.properties ?? {}) as Record<string, unknown>)) found.push(...unbounded(sub, `${where}.${name}`));
  if (s.items) found.push(...unbounded(s.items, `${where}[]`));
  if (s.additionalProperties && typeof s.additionalProperties === "object") found.push(...unbounded(s.additionalProperties, `${where}{}`));
  for (const key of ["anyOf", "oneOf", "allOf"])
    for (const [i, sub] of ((s[key] ?? []) as unknown[]).entries()) found.push(...unbounded(sub, `${where}<${key} ${i}>`));
  return found;
}

type Operation = { parameters?: Array<{ name: string; in: string; schema?: unknown }>; requestBody?: { content: Record<string, { schema?: unknown }> } };

test("the bound check finds what it is for (a fixture without bounds)", () => {
  assert.deepEqual(
    unbounded(
      {
        type: "object",
        properties: {
          a: { type: "string" },
          b: { type: "array", items: { type: "string", maxLength: 3 } },
          c: { type: "object", additionalProperties: { type: "string", maxLength: 1 } },
        },
      },
      "body",
    ),
    ["body.a: a string without maxLength", "body.b: a list without maxItems", "body.c: an open object without maxProperties"],
  );
  assert.deepEqual(unbounded({ type: "string", enum: ["x"] }, "q"), []);
});

test("every string, list and open object of every request (path, query, body) of both surfaces has a bound", async () => {
  const t = await startTestServer();
  try {
    const doc = (await t.request("GET", "/openapi.json")).body as { paths: Record<string, Record<string, Operation>> };
    const found: string[] = [];
    let operations = 0;
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        operations++;
        for (const p of op.parameters ?? []) found.push(...unbounded(p.schema, `${method.toUpperCase()} ${path} ${p.in} ${p.name}`));
        for (const [type, c] of Object.entries(op.requestBody?.content ?? {}))
          found.push(...unbounded(c.schema, `${method.toUpperCase()} ${path} body (${type})`));
      }
    }
    assert.ok(operations > 25, `the document lists the routes (${operations})`);
    assert.deepEqual(found, []);
  } finally {
    await t.close();
  }
});

async function withDocument(t: TestServer): Promise<string> {
  const up = await t.upload("handbook.docx", handbookBytes());
  assert.equal(up.status, 201);
  return up.body.id;
}

async function assertAnswering(t: TestServer) {
  const health = await t.request("GET", "/healthz");
  assert.equal(health.status, 200);
}

test("a 309-byte sweep of six axes of twelve values is 422 at once (its size is counted, not built), and the server answers", async () => {
  const t = await startTestServer();
  try {
    const documentId = await withDocument(t);
    const axes = ["chunk_size", "chunk_overlap", "p2", "p3", "p4", "p5"].map((p) => `${p}=${Array.from({ length: 12 }, (_, i) => i).join(",")}`);
    const sweep = `recursive:${axes.join(":")}`;
    const started = Date.now();
    const unknownAxes = await t.request("POST", "/benchmarks", { document_id: documentId, sweep: [sweep], questions: [{ question: "q?" }] });
    assert.equal(unknownAxes.status, 422, unknownAxes.text);
    assert.match(unknownAxes.body.detail, /unknown parameter "p2"/);
    // Known parameters only: 12^2 = 144 points over the default limit; 12^6 by repeating values is not possible, so
    // the size check is shown on a grid of real axes past any limit a caller may ask for.
    const values = (from: number) => Array.from({ length: 40 }, (_, i) => from + i).join(",");
    const big = `recursive:chunk_size=${values(100)}:chunk_overlap=${values(0)}`;
    const tooBig = await t.request("POST", "/benchmarks", { document_id: documentId, sweep: [big], questions: [{ question: "q?" }] });
    assert.equal(tooBig.status, 422, tooBig.text);
    assert.match(tooBig.body.detail, /1600 variants, more than the limit of 64/);
    assert.ok(Date.now() - started < 5000, "refused without building the grid");
    await assertAnswering(t);
  } finally {
    await t.close();
  }
});

test("max_variants over HTTP cannot pass the server's http_max_variants; inside it, it still raises the default limit", async () => {
  const t = await startTestServer({ http_max_variants: 100 });
  try {
    const documentId = await withDocument(t);
    const sweep = `recursive:chunk_size=${Array.from({ length: 70 }, (_, i) => 200 + i).join(",")}`;
    const over = await t.request("POST", "/benchmarks?background=true", {
      document_id: documentId,
      sweep: [sweep],
      max_variants: 1000,
      questions: [{ question: "q?" }],
    });
    assert.equal(over.status, 422, over.text);
    assert.match(over.body.detail, /max_variants is at most 100 on this server/);
    const plain = await t.request("POST", "/benchmarks", { document_id: documentId, sweep: [sweep], questions: [{ question: "q?" }], dry_run: true });
    assert.equal(plain.status, 422, "70 variants are over the default limit of 64");
    const raised = await t.request("POST", "/benchmarks", {
      document_id: documentId,
      sweep: [sweep],
      max_variants: 80,
      questions: [{ question: "q?" }],
      dry_run: true,
    });
    assert.equal(raised.status, 201, raised.text);
  } finally {
    await t.close();
  }
});

test("lists and strings past their bounds are 422 before any work: strategies, sweeps, questions, references, chunks, a /v1 search query", async () => {
  const t = await startTestServer();
  try {
    const documentId = await withDocument(t);
    const q = [{ question: "q?" }];
    const cases: Array<[string, string, unknown]> = [
      ["strategies", "/benchmarks", { document_id: documentId, strategies: Array(REQUEST_LIMITS.listItems + 1).fill("recursive"), questions: q }],
      ["a long variant", "/benchmarks", { document_id: documentId, strategies: ["recursive@" + "x".repeat(REQUEST_LIMITS.variant)], questions: q }],
      ["sweeps", "/benchmarks", { document_id: documentId, sweep: Array(REQUEST_LIMITS.sweeps + 1).fill("recursive:chunk_size=100"), questions: q }],
      ["a long question", "/benchmarks", { document_id: documentId, questions: [{ question: "x".repeat(REQUEST_LIMITS.question + 1) }] }],
      ["references", "/benchmarks", { document_id: documentId, questions: [{ question: "q?", references: Array(REQUEST_LIMITS.references + 1).fill("x") }] }],
      ["a long reference", "/benchmarks", { document_id: documentId, questions: [{ question: "q?", references: ["x".repeat(REQUEST_LIMITS.text + 1)] }] }],
      [
        "chunk lists",
        "/benchmarks",
        {
          document_id: documentId,
          questions: q,
          chunks: Object.fromEntries(Array.from({ length: REQUEST_LIMITS.chunkLists + 1 }, (_, i) => [`c${i}`, [{ text: "x" }]])),
        },
      ],
      ["a long query", "/queries", { document_id: documentId, strategy: "recursive", question: "x".repeat(REQUEST_LIMITS.question + 1) }],
      ["a long document id", "/collections", { name: "c", document_ids: ["d".repeat(REQUEST_LIMITS.name + 1)] }],
    ];
    for (const [label, path, body] of cases) {
      const r = await t.request("POST", path, body);
      assert.equal(r.status, 422, `${label}: ${r.text.slice(0, 300)}`);
    }
    await t.ws.app.tenants.createTenant("acme");
    const auth = `Bearer ${(await t.ws.app.tenants.createApiKey("acme", ["points:read"])).secret}`;
    const search = await t.request("POST", "/v1/search", { query: "x".repeat(1024 * 1024 - 100) }, { authorization: auth });
    assert.ok([413, 422].includes(search.status), search.text.slice(0, 200));
    const shortSearch = await t.request("POST", "/v1/search", { query: "x".repeat(REQUEST_LIMITS.question + 1) }, { authorization: auth });
    assert.equal(shortSearch.status, 422, shortSearch.text.slice(0, 200));
    await assertAnswering(t);
  } finally {
    await t.close();
  }
});

test("a caller cannot pick a generator the operator did not allow, nor more chat calls than http_max_generation_calls", async () => {
  const t = await startTestServer({ http_max_generation_calls: 30 });
  try {
    const documentId = await withDocument(t);
    const other = await t.request("POST", "/questions/generate", { document_id: documentId, count: 2, generator: "openai:gpt-4-32k" });
    assert.equal(other.status, 422, other.text);
    assert.match(other.body.detail, /generator "openai:gpt-4-32k" is not allowed on this server \(allowed: template, extractive/);
    const calls = await t.request("POST", "/questions/generate", { document_id: documentId, count: 2, generator: "template", max_calls: 31 });
    assert.equal(calls.status, 422, calls.text);
    assert.match(calls.body.detail, /max calls is at most 30 on this server/);
    const fine = await t.request("POST", "/questions/generate", { document_id: documentId, count: 2, generator: "template", max_calls: 30 });
    assert.equal(fine.status, 201, fine.text);
  } finally {
    await t.close();
  }

  const allowed = await startTestServer(
    { http_generators: "openai:gpt-4o-mini" },
    { CHUNKEVAL_OPENAI_BASE_URL: "http://127.0.0.1:9", CHUNKEVAL_OPENAI_API_KEY: "k" },
  );
  try {
    const documentId = await withDocument(allowed);
    const listed = await allowed.request("POST", "/questions/generate", { document_id: documentId, count: 1, generator: "openai:gpt-4o-mini", max_calls: 1 });
    assert.notEqual(listed.status, 422, "an allowed generator is not refused as invalid input (the stand-in address is closed: a provider error)");
  } finally {
    await allowed.close();
  }
});

test("a benchmark or processing request stops at http_max_llm_calls chat-model calls, chunking workers' calls counted; no call past it", async () => {
  const stub = await startOpenAiStub({ reply: () => "Context of the chunk." });
  const env = { CHUNKEVAL_OPENAI_BASE_URL: stub.baseUrl, CHUNKEVAL_OPENAI_API_KEY: "k" };
  const chatCalls = () => stub.requests.filter((r) => r.path === "/v1/chat/completions").length;
  const t = await startTestServer({ generator: "openai:chat", http_max_llm_calls: 5 }, env);
  try {
    const doc = (await t.upload("handbook.docx", handbookBytes())).body.id as string;
    // contextual_retrieval asks the model for every chunk's context from its chunking worker.
    const processed = await t.request("POST", `/documents/${doc}/process`, { strategies: ["contextual_retrieval"] });
    // Processing answers 200 with each strategy's outcome: this one failed, naming the setting.
    assert.equal(processed.status, 200, processed.text);
    assert.deepEqual(processed.body.strategies_completed, []);
    assert.match(processed.body.strategies_failed[0].error, /reached http_max_llm_calls \(5 chat-model calls to openai:chat\)/);
    assert.equal(chatCalls(), 5, "exactly the budget was spent, no call past it");
    // A benchmark answers every question with the model: 20 questions cannot be answered in 5 calls.
    const questions = Array.from({ length: 20 }, (_, i) => ({ question: `What does section ${i + 1} of the handbook say?` }));
    const before = chatCalls();
    const bench = await t.request("POST", "/benchmarks", { document_id: doc, strategies: ["recursive"], questions });
    assert.equal(bench.status, 413, bench.text);
    assert.equal(bench.body.type, "LlmCallLimitError");
    assert.equal(chatCalls() - before, 5);
    // Out of calls while its indexes are built (contextual_retrieval's chunk contexts): the same 413.
    const building = await t.request("POST", "/benchmarks", { document_id: doc, strategies: ["contextual_retrieval"], questions, dry_run: true });
    assert.equal(building.status, 413, building.text);
    assert.equal(chatCalls() - before, 10);
    // Each request has its own budget, and the background job too.
    const job = await t.request("POST", `/benchmarks?background=true`, { document_id: doc, strategies: ["recursive"], questions });
    let polled = await t.request("GET", `/jobs/${job.body.job_id}`);
    for (let i = 0; i < 400 && ["pending", "running"].includes(polled.body.status); i++) {
      await new Promise((r) => setTimeout(r, 50));
      polled = await t.request("GET", `/jobs/${job.body.job_id}`);
    }
    assert.equal(polled.body.status, "failed");
    assert.match(polled.body.error, /http_max_llm_calls/);
    assert.equal(chatCalls() - before, 15);
  } finally {
    await t.close();
  }
  // The control: a budget the request fits in lets it through.
  const roomy = await startTestServer({ generator: "openai:chat", http_max_llm_calls: 5000 }, env);
  try {
    const doc = (await roomy.upload("handbook.docx", handbookBytes())).body.id as string;
    const processed = await roomy.request("POST", `/documents/${doc}/process`, { strategies: ["contextual_retrieval"] });
    assert.deepEqual(
      processed.body.strategies_completed.map((s: { strategy: string }) => s.strategy),
      ["contextual_retrieval"],
      processed.text,
    );
  } finally {
    await roomy.close();
    await stub.close();
  }
});

test("a caller cannot name an embedder the operator did not configure (benchmarks, processing, queries, chunks); the bundled ones it can", async () => {
  const t = await startTestServer();
  try {
    const documentId = await withDocument(t);
    const refused = /embedder "openai:text-embedding-3-large" cannot be named over HTTP: a request may use the server's embedder \(hash\) or the bundled ones/;
    const asked = [
      await t.request("POST", "/benchmarks?background=true", {
        document_id: documentId,
        strategies: ["recursive"],
        embedders: ["hash", "openai:text-embedding-3-large"],
        dry_run: true,
      }),
      await t.request("POST", "/benchmarks", { document_id: documentId, strategies: ["recursive@embedder=openai:text-embedding-3-large"], dry_run: true }),
      await t.request("POST", "/benchmarks", { document_id: documentId, sweep: ["recursive:embedder=hash,openai:text-embedding-3-large"], dry_run: true }),
      await t.request("POST", `/documents/${documentId}/process`, { strategies: ["recursive@embedder=openai:text-embedding-3-large"] }),
      await t.request("POST", "/queries", { document_id: documentId, strategy: "recursive@embedder=openai:text-embedding-3-large", question: "When?" }),
      await t.request("GET", `/documents/${documentId}/chunks?strategy=${encodeURIComponent("recursive@embedder=openai:text-embedding-3-large")}`),
    ];
    for (const response of asked) {
      assert.equal(response.status, 422, response.text);
      assert.match(response.body.detail, refused);
    }
    const tooMany = await t.request("POST", "/benchmarks", {
      document_id: documentId,
      strategies: ["recursive"],
      embedders: ["hash", "use", "a", "b", "c"],
      dry_run: true,
    });
    assert.equal(tooMany.status, 422, tooMany.text);
    // The configured embedder (hash) may be named: an index of its own, keyed by it.
    const processed = await t.request("POST", `/documents/${documentId}/process`, { strategies: ["recursive@embedder=hash"] });
    assert.equal(processed.status, 200, processed.text);
    assert.equal(processed.body.strategies_completed[0].strategy, "recursive@embedder=hash");
  } finally {
    await t.close();
  }
});
