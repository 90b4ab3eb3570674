/**
 * /v1 figures: starts `chunkeval serve` on 127.0.0.1 (default stack unless --embedder) over a
 * temporary data directory, creates a tenant, key and domain, ingests the large example through
 * POST /v1/files (time to 201, chunks per second), then sends a bounded number of POST /v1/search
 * requests from 8 concurrent clients and prints p50, p99 and requests per second.
 *
 *   npm run load:v1 [-- --embedder hash] [-- --requests 200]
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { BIN, measure, startServe } from "./load-helpers.js";

const { values } = parseArgs({ options: { embedder: { type: "string" }, requests: { type: "string", default: "200" } } });
const total = Math.min(2000, Math.max(10, Number(values.requests)));
const dir = mkdtempSync(join(tmpdir(), "chunkeval-load-v1-"));
const env = { ...process.env, CHUNKEVAL_DATA_DIR: join(dir, "data"), ...(values.embedder ? { CHUNKEVAL_EMBEDDER: values.embedder } : {}) };
const cli = (args: string[]) => spawnSync(process.execPath, [BIN, ...args, "--json"], { env, encoding: "utf8" });
cli(["tenants", "create", "loadtest"]);
const key = JSON.parse(cli(["keys", "create", "--tenant", "loadtest", "--scopes", "files:write,domains:read,domains:write"]).stdout).secret as string;
const auth = { authorization: `Bearer ${key}` };

const { url, stop } = await startServe(env);
await fetch(`${url}/v1/domains`, {
  method: "POST",
  headers: { ...auth, "content-type": "application/json" },
  body: JSON.stringify({ domain: "handbooks", display_name: "Handbooks" }),
});

const form = new FormData();
form.append("domain", "handbooks");
form.append("file", new Blob([readFileSync(new URL("../examples/harbor-light-handbook.docx", import.meta.url))]), "harbor-light-handbook.docx");
const t0 = performance.now();
const response = await fetch(`${url}/v1/files`, { method: "POST", headers: auth, body: form });
const ingestSeconds = (performance.now() - t0) / 1000;
const result = (await response.json()) as { chunks_indexed: number };
console.log(
  `POST /v1/files: ${response.status} in ${ingestSeconds.toFixed(2)} s, ${result.chunks_indexed} chunks, ${(result.chunks_indexed / ingestSeconds).toFixed(1)} chunks/s (embedder ${values.embedder ?? "use"}; first upload into a fresh data directory)`,
);

const questions = (JSON.parse(readFileSync(new URL("../questions/harbor-light-handbook.json", import.meta.url), "utf8")) as Array<{ question: string }>).map(
  (q) => q.question,
);
const m = await measure(total, 8, (i) =>
  fetch(`${url}/v1/search`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify({ query: questions[i % questions.length], top_k: 5 }),
  }),
);
console.log(
  `POST /v1/search c=8: p50 ${m.p50.toFixed(1)} ms, p99 ${m.p99.toFixed(1)} ms, ${m.rps.toFixed(1)} req/s (${total} requests cycling through ${questions.length} questions, ${m.failures} failed)`,
);
await stop();
rmSync(dir, { recursive: true, force: true });
