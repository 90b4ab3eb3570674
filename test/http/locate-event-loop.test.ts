import { test } from "node:test";
import assert from "node:assert/strict";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { locateExcerpt } from "../../src/text/locate-excerpt.js";
import { locateString } from "../../src/strategies/strategy-module.js";
import { matchExcerpt } from "../../src/text/excerpt-match.js";
import { REQUEST_LIMITS } from "../../src/transports/http/request-limits.js";

/** About 2 MB of prose without the letter x, as a .txt upload. */
const LONG_TEXT = "The harbour light keeps ships safe along the rocky coast at night. ".repeat(31_000);

/** Polls /healthz every 20 ms while `work` runs; returns work's answer and the slowest health answer in ms. */
async function healthWhile<T>(t: TestServer, work: () => Promise<T>): Promise<{ answer: T; slowestMs: number; polls: number }> {
  let running = true;
  let slowestMs = 0;
  let polls = 0;
  const poller = (async () => {
    while (running) {
      const started = performance.now();
      const r = await fetch(`${t.url}/healthz`);
      await r.arrayBuffer();
      slowestMs = Math.max(slowestMs, performance.now() - started);
      polls++;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  try {
    return { answer: await work(), slowestMs, polls };
  } finally {
    running = false;
    await poller;
  }
}

test("an excerpt of a million characters without a space is looked for without a regular expression too large: not found, no error", () => {
  const word = "a".repeat(1_000_000);
  assert.equal(locateExcerpt("a short text", word), null);
  assert.equal(locateString("a short text", word, null, { looseWhiteSpace: true }), null);
  assert.equal(locateString("a short text", `${word} b`, null, { looseWhiteSpace: true }), null);
  assert.equal(matchExcerpt("a short text", word), null, "a generated question's excerpt too");
});

test("references and inline chunks over a 2 MB document are located off the event loop: /healthz answers meanwhile, the refusal is a 422", async () => {
  const t = await startTestServer();
  try {
    const up = await t.upload("long.txt", Buffer.from(LONG_TEXT));
    assert.equal(up.status, 201, JSON.stringify(up.body));
    // The audit's 507-byte body: 20 references {"text": "x"} (not in the text) froze every route for 3 s.
    const references = Array.from({ length: 20 }, () => ({ text: "x" }));
    const refs = await healthWhile(t, () =>
      t.request("POST", "/benchmarks", { document_id: up.body.id, strategies: ["recursive"], questions: [{ question: "q?", references }] }),
    );
    assert.equal(refs.answer.status, 422, refs.answer.text);
    assert.match(refs.answer.body.detail, /excerpt not found/);
    // Many references found only as the same words (forcing every locating step), and inline chunks, in one request.
    const manyReferences = Array.from({ length: REQUEST_LIMITS.references }, (_, i) => `SHIPS SAFE ALONG THE ROCKY COAST AT NIGHT ${i}`);
    const chunks = { mine: Array.from({ length: 2000 }, () => ({ text: "keeps ships safe along the   rocky coast" })) };
    const many = await healthWhile(t, () =>
      t.request("POST", "/benchmarks", {
        document_id: up.body.id,
        strategies: ["recursive"],
        questions: Array.from({ length: 40 }, () => ({ question: "q?", references: manyReferences })),
        chunks,
      }),
    );
    assert.equal(many.answer.status, 422, many.answer.text.slice(0, 300));
    const longWord = await healthWhile(t, () =>
      t.request("POST", "/benchmarks", {
        document_id: up.body.id,
        strategies: ["recursive"],
        questions: [{ question: "q?", references: ["y".repeat(REQUEST_LIMITS.text)] }],
      }),
    );
    assert.equal(longWord.answer.status, 422, longWord.answer.text.slice(0, 300));
    // A bound load cannot break (healthy: a few ms); the old code held every route for seconds.
    // scripts/measure-locate-event-loop.ts prints the figures.
    for (const [label, run] of Object.entries({ refs, many, longWord })) {
      assert.ok(run.slowestMs < 1500, `${label}: /healthz took ${run.slowestMs.toFixed(0)} ms while the request was located (${run.polls} polls)`);
    }
  } finally {
    await t.close();
  }
});
