import { test } from "node:test";
import assert from "node:assert/strict";
import { openAiEmbedder } from "../../src/embedders/openai-compatible.js";
import { openAiGenerator } from "../../src/generators/openai-compatible.js";
import { ProviderError } from "../../src/errors.js";
import { startOpenAiStub } from "../helpers/openai-server.js";
import { createWorkspace } from "../helpers/workspace.js";
import { handbookBytes } from "../helpers/documents.js";
import { startTestServer } from "../helpers/server.js";

const openai = (baseUrl: string, maxRetries = 3) => ({ baseUrl, apiKey: "test-key", maxRetries, timeoutSeconds: 5 });

test("openai embedder: batches texts, sorts by index, retries 429 and 5xx", async () => {
  const stub = await startOpenAiStub({ failures: [429, 503] });
  try {
    const embedder = await openAiEmbedder.create("text-embedding-test", {
      workers: 0,
      batchSize: 2,
      openai: openai(stub.baseUrl),
      huggingFace: { allowRemote: false },
    });
    const texts = ["a", "bb", "ccc", "dddd", "eeeee"];
    const vectors = await embedder.embed(texts);
    assert.equal(vectors.length, 5);
    const ok = stub.requests.filter((_, i) => i >= 2);
    assert.equal(stub.requests.length, 5, "two failed attempts, then three batches");
    assert.deepEqual(
      ok.map((r) => r.body.input),
      [["a", "bb"], ["ccc", "dddd"], ["eeeee"]],
    );
    assert.equal(ok[0]!.body.model, "text-embedding-test");
    // Vector i depends on the length of text i: the order survived the reversed response.
    const expected = (len: number) => Array.from({ length: 8 }, (_, d) => ((len * (d + 1)) % 7) + 1);
    vectors.forEach((v, i) => {
      const e = expected(texts[i]!.length);
      const norm = Math.hypot(...e);
      e.forEach((x, d) => assert.ok(Math.abs(v[d]! - x / norm) < 1e-6));
    });
  } finally {
    await stub.close();
  }
});

test("openai embedder: gives up with a ProviderError naming the status after its retries", async () => {
  const stub = await startOpenAiStub({ failures: [500, 500, 500] });
  try {
    const embedder = await openAiEmbedder.create("m", { workers: 0, batchSize: 8, openai: openai(stub.baseUrl, 1), huggingFace: { allowRemote: false } });
    await assert.rejects(embedder.embed(["x"]), (e: unknown) => e instanceof ProviderError && /HTTP 500/.test(e.message));
    assert.equal(stub.requests.length, 2);
  } finally {
    await stub.close();
  }
});

test("openai generator: answers from the prompt, token usage from the response", async () => {
  const stub = await startOpenAiStub({ reply: (body) => `You asked: ${body.messages.at(-1).content.split("Question: ")[1].split("\n")[0]}` });
  try {
    const generator = await openAiGenerator.create("gpt-test", { openai: openai(stub.baseUrl) });
    const result = await generator.answer("What is the fault line number?", [
      { chunkId: "c1", documentId: "doc_1", score: 0.9, text: "Call 0800 555 0190.", parentId: null, start: 0, end: 19 },
    ]);
    assert.equal(result.answer, "You asked: What is the fault line number?");
    assert.deepEqual(result.usage, { promptTokens: 123, completionTokens: 45, totalTokens: 168 });
    const sent = stub.requests[0]!.body;
    assert.equal(sent.model, "gpt-test");
    assert.equal(sent.messages[0].role, "system");
    assert.match(sent.messages[1].content, /\[1\] Call 0800 555 0190\./);
  } finally {
    await stub.close();
  }
});

test("ask with openai embedder and generator end to end, and LLM contexts cached per chunk", async () => {
  const stub = await startOpenAiStub({ reply: () => "Situating context." });
  const ws = await createWorkspace(
    { embedder: "openai:emb", generator: "openai:chat" },
    { CHUNKEVAL_OPENAI_BASE_URL: stub.baseUrl, CHUNKEVAL_OPENAI_API_KEY: "k" },
  );
  try {
    const doc = await ws.app.upload({ filename: "handbook.docx", bytes: handbookBytes() });
    const result = await ws.app.process(doc.id, ["contextual_retrieval"]);
    assert.equal(result.strategiesFailed.length, 0, JSON.stringify(result.strategiesFailed));
    const chunks = await ws.internals.context.chunks.current(doc.id, "contextual_retrieval");
    assert.ok(chunks.every((c) => c.context === "Situating context."));
    const chatCalls = () => stub.requests.filter((r) => r.path === "/v1/chat/completions").length;
    assert.equal(chatCalls(), chunks.length);
    await ws.app.process(doc.id, ["contextual_retrieval"]);
    assert.equal(chatCalls(), chunks.length, "contexts come from the completion cache the second time");
    const q = await ws.app.ask({ documentId: doc.id, strategy: "contextual_retrieval", question: "Who owns the turbines?", topK: 2 });
    assert.equal(q.answer, "Situating context.");
    assert.equal(q.generator, "openai:chat");
    assert.equal(q.tokenUsage.totalTokens, 168);
    assert.equal(q.retrievedChunks.length, 2);
  } finally {
    await ws.cleanup();
    await stub.close();
  }
});

test("hf embedder: without the opt-in package, the error gives the command that installs it; with it, an offline model is a clear error", async () => {
  const { transformersEmbedder } = await import("../../src/embedders/transformers.js");
  const moduleName = "@huggingface/transformers";
  const real = await import(moduleName).then(
    (m: { pipeline?: unknown }) => typeof m.pipeline === "function",
    () => false,
  );
  await assert.rejects(
    transformersEmbedder.create("Xenova/not-a-local-model", {
      workers: 0,
      batchSize: 8,
      openai: openai("http://127.0.0.1:9"),
      huggingFace: { allowRemote: false, modelDir: "/nonexistent" },
    }),
    (e: unknown) =>
      e instanceof ProviderError &&
      (real
        ? /cannot be loaded offline: not in \/nonexistent/.test(e.message)
        : /not install by default .*\n  cd .+ && ONNXRUNTIME_NODE_INSTALL_CUDA=skip npm install --no-save @huggingface\/transformers@3\.0\.2$/.test(e.message)),
  );
});

test("hf install command: in a clone it keeps dev dependencies, in an installed package it omits them", async () => {
  const { transformersInstallCommand } = await import("../../src/embedders/transformers.js");
  assert.equal(
    transformersInstallCommand("/home/me/chunkeval"),
    "cd /home/me/chunkeval && ONNXRUNTIME_NODE_INSTALL_CUDA=skip npm install --no-save @huggingface/transformers@3.0.2",
  );
  assert.equal(
    transformersInstallCommand("/usr/lib/node_modules/chunkeval"),
    "cd /usr/lib/node_modules/chunkeval && ONNXRUNTIME_NODE_INSTALL_CUDA=skip npm install --no-save --omit=dev @huggingface/transformers@3.0.2",
  );
});

test("a compatible server's reply without choices or data is a ProviderError (502 over HTTP), never a 500", async () => {
  for (const rawBody of [
    '{"id":"x","object":"chat.completion"}',
    "null",
    '{"choices":"none","data":{"0":1}}',
    '{"data":[{"index":0,"embedding":"no"}]}',
    '{"data":[null],"choices":[null]}',
  ]) {
    const stub = await startOpenAiStub({ rawBody });
    try {
      const generator = await openAiGenerator.create("m", { openai: openai(stub.baseUrl) });
      await assert.rejects(generator.complete!("hi"), (e: unknown) => e instanceof ProviderError && /returned no message content/.test(e.message), rawBody);
      const embedder = await openAiEmbedder.create("m", { workers: 0, batchSize: 8, openai: openai(stub.baseUrl), huggingFace: { allowRemote: false } });
      await assert.rejects(embedder.embed(["x"]), (e: unknown) => e instanceof ProviderError && /openai:m returned/.test(e.message), rawBody);
    } finally {
      await stub.close();
    }
  }
  const stub = await startOpenAiStub({ rawBody: '{"id":"x"}' });
  const t = await startTestServer({ generator: "openai:m" }, { CHUNKEVAL_OPENAI_BASE_URL: stub.baseUrl, CHUNKEVAL_OPENAI_API_KEY: "k" });
  try {
    const doc = await t.upload("handbook.docx", handbookBytes());
    assert.equal((await t.request("POST", `/documents/${doc.body.id}/process`, { strategies: ["recursive"] })).status, 200);
    const asked = await t.request("POST", "/queries", { document_id: doc.body.id, strategy: "recursive", question: "Who keeps the light?" });
    assert.equal(asked.status, 502, asked.text);
    assert.equal(asked.body.type, "ProviderError");
  } finally {
    await t.close();
    await stub.close();
  }
});
