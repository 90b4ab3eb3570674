/**
 * Load figures for the REST API: starts `chunkeval serve` on 127.0.0.1 (default stack unless
 * --embedder is given) over a temporary data directory, uploads and processes the large
 * example, then for 1, 8 and 32 concurrent clients sends a bounded number of POST /queries
 * and GET /documents requests and prints p50, p99 and requests per second.
 *
 *   npm run load:http [-- --embedder hash] [-- --requests 200]
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { startServe, measure } from "./load-helpers.js";

const { values } = parseArgs({ options: { embedder: { type: "string" }, requests: { type: "string", default: "200" } } });
const perLevel = Math.min(2000, Math.max(10, Number(values.requests)));
const dir = mkdtempSync(join(tmpdir(), "chunkeval-load-"));
const env = { ...process.env, CHUNKEVAL_DATA_DIR: join(dir, "data"), ...(values.embedder ? { CHUNKEVAL_EMBEDDER: values.embedder } : {}) };
const { url, stop } = await startServe(env);

const form = new FormData();
form.append("file", new Blob([readFileSync(new URL("../examples/harbor-light-handbook.docx", import.meta.url))]), "harbor-light-handbook.docx");
const doc = (await (await fetch(`${url}/documents`, { method: "POST", body: form })).json()) as { id: string };
await fetch(`${url}/documents/${doc.id}/process`, {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ strategies: ["recursive"] }),
});
const questions = (JSON.parse(readFileSync(new URL("../questions/harbor-light-handbook.json", import.meta.url), "utf8")) as Array<{ question: string }>).map(
  (q) => q.question,
);

async function report(label: string, concurrency: number, send: (i: number) => Promise<Response>): Promise<void> {
  const m = await measure(perLevel, concurrency, send);
  console.log(
    `${label.padEnd(16)} c=${String(concurrency).padStart(2)}  p50 ${m.p50.toFixed(1).padStart(7)} ms  p99 ${m.p99.toFixed(1).padStart(7)} ms  ${m.rps.toFixed(1).padStart(7)} req/s  (${perLevel} requests, ${m.failures} failed)`,
  );
}

console.log(`server ${url}; embedder ${values.embedder ?? "use (default)"}; document ${doc.id} processed with recursive`);
for (const c of [1, 8, 32]) {
  await report("POST /queries", c, (i) =>
    fetch(`${url}/queries`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ document_id: doc.id, strategy: "recursive", question: questions[i % questions.length], top_k: 5 }),
    }),
  );
}
for (const c of [1, 8, 32]) await report("GET /documents", c, () => fetch(`${url}/documents`));
await stop();
rmSync(dir, { recursive: true, force: true });
