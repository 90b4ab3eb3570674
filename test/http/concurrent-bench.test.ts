import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { startOpenAiStub } from "../helpers/openai-server.js";
import { HANDBOOK_PATH, SITE_VISIT_PATH } from "../helpers/documents.js";
import { startTestServer, type TestServer } from "../helpers/server.js";

/** What a run is billed for: embeddings, LLM contextualisation and answer tokens, per strategy. */
async function bill(t: TestServer, experimentId: string) {
  const exported = (await t.request("GET", `/benchmarks/${experimentId}/report?format=json`)).body;
  return {
    embeddings: exported.details.embeddings,
    indexing: exported.details.indexing.map((x: any) => [x.strategy, x.embedded_tokens, x.context_tokens]),
    answerTokens: Object.values(exported.results as Record<string, any[]>)
      .flat()
      .reduce((n, r) => n + r.answer_tokens.total_tokens, 0),
  };
}

async function bench(t: TestServer, path: string, questions: unknown[]) {
  const uploaded = await t.upload(path.split("/").pop()!, readFileSync(path));
  assert.equal(uploaded.status, 201, JSON.stringify(uploaded.body));
  const run = await t.request("POST", "/benchmarks", { document_id: uploaded.body.id, strategies: ["recursive", "contextual_retrieval"], questions, top_k: 3 });
  assert.equal(run.status, 201, run.text);
  return run.body.experiment_id as string;
}

test("two benchmarks at once through the API are each billed exactly what the same run costs alone", async () => {
  // Replies quote their prompt, so the two documents share no text (a shared text would be
  // embedded by whichever run came first: the cache at work, not a billing leak).
  const reply = (body: any) => `About: ${String(body.messages.at(-1).content).slice(-80)}`;
  const stub = await startOpenAiStub({ reply, delayMs: 2 });
  const env = { CHUNKEVAL_OPENAI_BASE_URL: stub.baseUrl };
  const flags = { generator: "openai:gen-model" };
  const handbookQuestions = [{ question: "How much does a member share cost?" }, { question: "When are board elections held?" }];
  const siteQuestions = [{ question: "What did the site visit find?" }, { question: "Who attended the visit?" }];
  // Its own embedding cache: the test counts what gets embedded, which the run's warm cache would serve.
  const alone = async (path: string, questions: unknown[]) => {
    const t = await startTestServer(flags, env, { ownCache: true });
    try {
      return await bill(t, await bench(t, path, questions));
    } finally {
      await t.close();
    }
  };
  try {
    const handbookAlone = await alone(HANDBOOK_PATH, handbookQuestions);
    const siteAlone = await alone(SITE_VISIT_PATH, siteQuestions);
    assert.ok(handbookAlone.embeddings.computed > 0 && handbookAlone.indexing[1][2] > 0, "the runs embed and contextualise");
    const t = await startTestServer(flags, env, { ownCache: true });
    try {
      const [a, b] = await Promise.all([bench(t, HANDBOOK_PATH, handbookQuestions), bench(t, SITE_VISIT_PATH, siteQuestions)]);
      assert.deepEqual(await bill(t, a), handbookAlone);
      assert.deepEqual(await bill(t, b), siteAlone);
    } finally {
      await t.close();
    }
  } finally {
    await stub.close();
  }
});
