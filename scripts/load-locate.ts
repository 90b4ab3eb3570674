/**
 * How long the server stops answering while it locates a request's references and inline chunks
 * (issue: a 507-byte body froze every route for 3 s). Starts `chunkeval serve` on 127.0.0.1 (hash
 * embedder) over a temporary data directory, uploads a 2 MB text, then sends, one at a time:
 * the audit's 20 references {"text": "x"}; the worst request the limits allow (a body just under
 * max_json_body_kb full of references found only as the same words, so every locating step runs,
 * and inline chunks); one reference of 100,000 characters without a space. Meanwhile it asks
 * /healthz every 20 ms and prints, per request: its status and time, and /healthz's median and
 * slowest answer. Bounded: three requests, each under the locating deadline.
 *
 *   npm run load:locate
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServe } from "./load-helpers.js";

const dir = mkdtempSync(join(tmpdir(), "chunkeval-load-locate-"));
const env = { ...process.env, CHUNKEVAL_DATA_DIR: join(dir, "data"), CHUNKEVAL_EMBEDDER: "hash" };
const { url, stop } = await startServe(env);

try {
  const text = "The harbour light keeps ships safe along the rocky coast at night. ".repeat(31_000);
  const form = new FormData();
  form.append("file", new Blob([text]), "long.txt");
  const doc = (await (await fetch(`${url}/documents`, { method: "POST", body: form })).json()) as { id: string };

  const bodies: Array<[string, unknown]> = [];
  bodies.push([
    "20 references 'x' (507 bytes)",
    { document_id: doc.id, strategies: ["recursive"], questions: [{ question: "q?", references: Array(20).fill({ text: "x" }) }] },
  ]);
  // As many references as fit in just under 1 MB, each found only as the same words (other case), the last one nowhere.
  const words = "the harbour light keeps ships safe along the rocky coast at night".toUpperCase().split(" ");
  const reference = (i: number) => Array.from({ length: 4 + (i % 5) }, (_, k) => words[(i + k) % words.length]).join(" ");
  const questions: Array<{ question: string; references: string[] }> = [];
  let size = 0;
  for (let i = 0; size < 900_000 && questions.length < 2000; i++) {
    const refs = Array.from({ length: 50 }, (_, r) => reference(i * 50 + r));
    questions.push({ question: `q${i}?`, references: refs });
    size += JSON.stringify(refs).length + 20;
  }
  questions.at(-1)!.references[49] = "a sentence that is nowhere in the text";
  const chunks = { mine: Array.from({ length: 1000 }, () => ({ text: "keeps ships safe along the   rocky coast" })) };
  bodies.push(["worst allowed: ~0.9 MB of references + 1,000 chunks", { document_id: doc.id, strategies: ["recursive"], questions, chunks }]);
  bodies.push([
    "one 100,000-character word",
    { document_id: doc.id, strategies: ["recursive"], questions: [{ question: "q?", references: ["y".repeat(100_000)] }] },
  ]);

  console.log(`server ${url}; document of ${(text.length / 1e6).toFixed(1)} MB`);
  for (const [label, body] of bodies) {
    const json = JSON.stringify(body);
    let running = true;
    const health: number[] = [];
    const poller = (async () => {
      while (running) {
        const t = performance.now();
        await (await fetch(`${url}/healthz`)).arrayBuffer();
        health.push(performance.now() - t);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const started = performance.now();
    const response = await fetch(`${url}/benchmarks`, { method: "POST", headers: { "content-type": "application/json" }, body: json });
    const answer = (await response.text()).slice(0, 120);
    const took = performance.now() - started;
    running = false;
    await poller;
    health.sort((a, b) => a - b);
    console.log(
      `${label.padEnd(52)} ${(json.length / 1024).toFixed(0).padStart(5)} KB  ${response.status}  ${took.toFixed(0).padStart(6)} ms;` +
        `  /healthz median ${health[Math.floor(health.length / 2)]!.toFixed(1)} ms, slowest ${health.at(-1)!.toFixed(1)} ms (${health.length} asked)  ${answer}`,
    );
  }
} finally {
  await stop();
  rmSync(dir, { recursive: true, force: true });
}
