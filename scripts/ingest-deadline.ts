/**
 * /v1 deadline figures: starts `chunkeval serve` on 127.0.0.1 with the default stack (the `use`
 * model unless --embedder) and INGESTION_TIMEOUT_SECONDS=--window, uploads a document too large
 * to ingest within the window --runs times, and prints how long each 504 took past the window.
 * The documented bound (window + 2 s, docs/v1-ingestion.md) is what this checks.
 *
 *   npm run load:deadline [-- --window 2] [-- --runs 3] [-- --embedder hash]
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { Document, Packer, Paragraph } from "docx";
import { BIN, startServe } from "./load-helpers.js";

const { values } = parseArgs({ options: { embedder: { type: "string" }, window: { type: "string", default: "2" }, runs: { type: "string", default: "3" } } });
const windowSeconds = Number(values.window);
const runs = Math.min(10, Math.max(1, Number(values.runs)));
const dir = mkdtempSync(join(tmpdir(), "chunkeval-deadline-"));
const env = {
  ...process.env,
  CHUNKEVAL_DATA_DIR: join(dir, "data"),
  INGESTION_TIMEOUT_SECONDS: String(windowSeconds),
  INGESTION_MAX_CHUNKS: "100000",
  ...(values.embedder ? { CHUNKEVAL_EMBEDDER: values.embedder } : {}),
};
const cli = (args: string[]) => spawnSync(process.execPath, [BIN, ...args, "--json"], { env, encoding: "utf8" });
cli(["tenants", "create", "deadline"]);
const key = JSON.parse(cli(["keys", "create", "--tenant", "deadline", "--scopes", "files:write,domains:read,domains:write"]).stdout).secret as string;
const auth = { authorization: `Bearer ${key}` };

// About 3,000 paragraphs of distinct sentences: far more embedding work than any short window allows.
const paragraphs = Array.from(
  { length: 3000 },
  (_, i) =>
    new Paragraph(
      `Entry ${i}: the keeper of light ${i % 97} logged wind ${i % 13} knots, visibility ${i % 7} miles and the tide at ${i % 5} metres before relieving watch ${i}.`,
    ),
);
const bytes = Buffer.from(await Packer.toBuffer(new Document({ sections: [{ children: paragraphs }] })));

const { url, stop } = await startServe(env);
try {
  await fetch(`${url}/v1/domains`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify({ domain: "d", display_name: "D" }),
  });
  const overruns: number[] = [];
  for (let run = 0; run < runs; run++) {
    const form = new FormData();
    form.append("domain", "d");
    form.append("file", new Blob([bytes]), `log-${run}.docx`);
    const t0 = performance.now();
    const response = await fetch(`${url}/v1/files`, { method: "POST", headers: auth, body: form });
    const seconds = (performance.now() - t0) / 1000;
    const body = (await response.json()) as { error?: { code: string } };
    overruns.push(seconds - windowSeconds);
    console.log(
      `run ${run + 1}: ${response.status} ${body.error?.code ?? ""} after ${seconds.toFixed(2)} s (window ${windowSeconds} s, ${(seconds - windowSeconds).toFixed(2)} s past it)`,
    );
  }
  console.log(`embedder ${values.embedder ?? "use"}: worst 504 came ${Math.max(...overruns).toFixed(2)} s past the ${windowSeconds} s window (bound: 2 s)`);
} finally {
  await stop();
  rmSync(dir, { recursive: true, force: true });
}
