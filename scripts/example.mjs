#!/usr/bin/env node
// The quick start's main job: upload the bundled handbook, process it with all five strategies
// on the default offline stack, and ask each strategy the same question. Uses ./.chunkeval
// unless CHUNKEVAL_DATA_DIR says otherwise.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const bin = fileURLToPath(new URL("../bin/chunkeval.js", import.meta.url));
const example = fileURLToPath(new URL("../examples/harbor-light-handbook.docx", import.meta.url));

function chunkeval(args, capture = false) {
  const r = spawnSync(process.execPath, [bin, ...args], { stdio: capture ? ["ignore", "pipe", "inherit"] : "inherit", encoding: "utf8" });
  if (r.status !== 0) process.exit(r.status ?? 1);
  return r.stdout;
}

const doc = JSON.parse(chunkeval(["upload", example, "--json"], true));
console.log(`uploaded ${doc.filename} as ${doc.id} (${doc.paragraph_count} paragraphs)`);
chunkeval(["process", doc.id, "--strategies", "all"]);
for (const strategy of ["recursive", "fixed_size", "semantic", "contextual_retrieval", "semantic_parent_child"]) {
  console.log(`\n=== ${strategy}`);
  chunkeval(["ask", doc.id, "What interest rate does the solar loan carry?", "--strategy", strategy, "--top-k", "3"]);
}
