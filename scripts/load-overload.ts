/**
 * What a burst does to a server, and what it answers: starts `chunkeval serve` on 127.0.0.1 (hash
 * embedder, defaults otherwise) over a temporary data directory and sends (1) ten concurrent
 * uploads of 20 MB, then (2) 150 background benchmarks at once, then (3) six synchronous
 * benchmarks at once. Prints, per burst, the status mix and how many refusals carried
 * Retry-After, and at the end the server's peak resident memory (VmHWM). Bounded: 166 requests.
 *
 *   npm run load:overload
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServe } from "./load-helpers.js";

const dir = mkdtempSync(join(tmpdir(), "chunkeval-load-overload-"));
const env = { ...process.env, CHUNKEVAL_DATA_DIR: join(dir, "data"), CHUNKEVAL_EMBEDDER: "hash" };
const { url, pid, stop } = await startServe(env);
const rssMb = (field: "VmRSS" | "VmHWM") => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;

async function burst(label: string, requests: Array<() => Promise<Response>>): Promise<void> {
  const started = performance.now();
  const answers = await Promise.all(
    requests.map(async (send) => {
      const r = await send().catch(() => null);
      if (r) await r.arrayBuffer();
      return r;
    }),
  );
  const mix = new Map<string, number>();
  for (const r of answers) mix.set(r ? String(r.status) : "no answer", (mix.get(r ? String(r.status) : "no answer") ?? 0) + 1);
  const retryAfter = answers.filter((r) => r && r.status >= 500 && r.headers.get("retry-after")).length;
  const statuses = [...mix].map(([s, n]) => `${n} x ${s}`).join(", ");
  console.log(
    `${label.padEnd(40)} ${statuses}; ${retryAfter} with Retry-After; ${((performance.now() - started) / 1000).toFixed(1)} s; RSS now ${rssMb("VmRSS").toFixed(0)} MB`,
  );
}

try {
  console.log(`server ${url}; RSS at start ${rssMb("VmRSS").toFixed(0)} MB`);
  const big = Buffer.alloc(20 * 1024 * 1024, "The harbour light keeps ships safe along the rocky coast at night.\n");
  await burst(
    "10 concurrent uploads of 20 MB",
    Array.from({ length: 10 }, (_, i) => () => {
      const form = new FormData();
      form.append("file", new Blob([big]), `big-${i}.txt`);
      return fetch(`${url}/documents?new=true`, { method: "POST", body: form });
    }),
  );
  const form = new FormData();
  form.append("file", new Blob([readFileSync(new URL("../examples/harbor-light-handbook.docx", import.meta.url))]), "handbook.docx");
  const doc = (await (await fetch(`${url}/documents`, { method: "POST", body: form })).json()) as { id: string };
  const bench = (background: boolean) => () =>
    fetch(`${url}/benchmarks${background ? "?background=true" : ""}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ document_id: doc.id, strategies: ["recursive", "fixed_size", "structure"], questions: [{ question: "Who keeps the light?" }] }),
    });
  await burst(
    "150 background benchmarks at once",
    Array.from({ length: 150 }, () => bench(true)),
  );
  await burst(
    "6 synchronous benchmarks at once",
    Array.from({ length: 6 }, () => bench(false)),
  );
  console.log(`peak RSS of the server (VmHWM): ${rssMb("VmHWM").toFixed(0)} MB`);
} finally {
  await stop();
  rmSync(dir, { recursive: true, force: true });
}
