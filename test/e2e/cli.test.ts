import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, mkdtempSync, rmSync, writeFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HANDBOOK_PATH, SITE_VISIT_PATH, buildEncryptedDocx } from "../helpers/documents.js";
import { runCli } from "../helpers/cli.js";

function workspace() {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-cli-"));
  return { dir, env: { CHUNKEVAL_DATA_DIR: join(dir, "data") }, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

test("--help lists every subcommand with a description", async () => {
  const r = await runCli(["--help"]);
  assert.equal(r.code, 0);
  for (const name of ["upload", "documents", "delete", "process", "ask", "bench", "report", "experiments", "jobs", "serve", "strategies", "config"]) {
    assert.match(r.stdout, new RegExp(`\\n  ${name}\\b.* {2,}\\S`), name);
  }
  assert.match(r.stdout, /Exit codes: 0 ok, 1 the operation failed, 2 bad usage or invalid input, 3 not found/);
});

test("upload, process, ask, show, list and delete the bundled handbook (hash embedder)", async () => {
  const ws = workspace();
  const env = { ...ws.env, CHUNKEVAL_EMBEDDER: "hash" };
  try {
    const up = await runCli(["upload", HANDBOOK_PATH, "--json"], env);
    assert.equal(up.code, 0, up.stderr);
    const doc = JSON.parse(up.stdout);
    assert.deepEqual(Object.keys(doc).sort(), ["already_stored", "chunk_counts", "created_at", "filename", "id", "paragraph_count", "warnings"]);
    assert.match(doc.id, /^doc_/);
    assert.equal(doc.filename, "harbor-light-handbook.docx");
    assert.deepEqual([doc.chunk_counts, doc.already_stored], [{}, false]);
    assert.match(doc.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?$/);

    // The same bytes again, under another name: the stored document, said so, exit 0; --new stores a copy.
    const copy = join(ws.dir, "copy.docx");
    copyFileSync(HANDBOOK_PATH, copy);
    const again = await runCli(["upload", copy], env);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, new RegExp(`already stored: these bytes are document ${doc.id} "harbor-light-handbook.docx"; nothing new was stored`));
    const againJson = await runCli(["upload", copy, "--json"], env);
    assert.deepEqual([JSON.parse(againJson.stdout).id, JSON.parse(againJson.stdout).already_stored], [doc.id, true]);
    assert.match(againJson.stderr, /already stored/);
    const forced = JSON.parse((await runCli(["upload", copy, "--new", "--json"], env)).stdout);
    assert.notEqual(forced.id, doc.id);
    assert.deepEqual([forced.filename, forced.already_stored], ["copy.docx", false]);
    assert.equal((await runCli(["delete", forced.id], env)).code, 0);
    // Generated files are named after the document's file name, also when it is given by id.
    const generated = await runCli(["questions", "generate", doc.id, "--template", "--count", "2"], env, ws.dir);
    assert.equal(generated.code, 0, generated.stderr);
    assert.ok(readdirSync(ws.dir).includes("harbor-light-handbook.questions.json"), readdirSync(ws.dir).join(", "));

    const proc = await runCli(["process", doc.id, "--strategies", "all", "--json"], env);
    assert.equal(proc.code, 0, proc.stderr);
    const result = JSON.parse(proc.stdout);
    assert.equal(result.document_id, doc.id);
    assert.deepEqual(
      result.strategies_completed.map((s: any) => s.strategy),
      ["recursive", "fixed_size", "semantic", "contextual_retrieval", "semantic_parent_child", "structure"],
    );
    for (const s of result.strategies_completed) {
      assert.equal(s.status, "completed");
      assert.ok(Number.isInteger(s.chunks_produced) && s.chunks_produced > 0);
    }
    assert.deepEqual(result.strategies_failed, []);

    const table = await runCli(["process", doc.id, "-s", "recursive"], env);
    assert.equal(table.code, 0);
    assert.match(table.stdout, /strategy.*chunks.*mean tokens.*min.*max.*seconds/);
    assert.match(table.stderr, /recursive/, "progress goes to stderr");

    for (const strategy of ["recursive", "semantic_parent_child", "contextual_retrieval"]) {
      const ask = await runCli(["ask", doc.id, "Which number is the 24-hour fault line?", "--strategy", strategy, "--top-k", "3", "--json"], env);
      assert.equal(ask.code, 0, ask.stderr);
      const q = JSON.parse(ask.stdout);
      assert.match(q.answer, /0800 555 0190/, `${strategy}: ${q.answer}`);
      assert.equal(q.retrieved_chunks.length, 3);
      for (const c of q.retrieved_chunks) {
        assert.deepEqual(Object.keys(c).sort(), ["chunk_id", "document_id", "end", "parent_id", "score", "start", "text"]);
        assert.equal(c.parent_id === null, strategy !== "semantic_parent_child");
      }
      for (const k of ["embed_seconds", "search_seconds", "answer_seconds", "total_seconds"]) assert.equal(typeof q.latency_breakdown[k], "number");
      assert.equal(q.token_usage.total_tokens, q.token_usage.prompt_tokens + q.token_usage.completion_tokens);
      const shown = await runCli(["ask", "--show", q.query_id, "--json"], env);
      assert.deepEqual(JSON.parse(shown.stdout), q);
    }

    const human = await runCli(["ask", doc.id, "What is the price of one member share?", "-s", "recursive"], env);
    assert.match(human.stdout, /^Q: What is the price of one member share\?\nA: .*100 euros/m);
    assert.match(human.stdout, /latency: embed .*s, search .*s, answer .*s, total .*s/);

    const list = JSON.parse((await runCli(["documents", "--json"], env)).stdout);
    assert.equal(list.total, 1);
    assert.equal(list.limit, 50);
    assert.equal(list.items[0].chunk_counts.recursive > 0, true);

    const del = await runCli(["delete", doc.id, "--json"], env);
    assert.deepEqual(JSON.parse(del.stdout), { deleted: true, document_id: doc.id });
    assert.equal(JSON.parse((await runCli(["documents", "--json"], env)).stdout).total, 0);
  } finally {
    ws.cleanup();
  }
});

test("the default stack (use embedder, extractive generator) answers from the bundled .doc", async () => {
  const ws = workspace();
  try {
    const doc = JSON.parse((await runCli(["upload", SITE_VISIT_PATH, "--json"], ws.env)).stdout);
    assert.equal(doc.paragraph_count, 8);
    const proc = await runCli(["process", doc.id, "-s", "recursive,semantic", "--json", "-q"], ws.env);
    assert.equal(proc.code, 0, proc.stderr);
    const q = JSON.parse((await runCli(["ask", doc.id, "Why was turbine two stopped in February?", "-s", "semantic", "-k", "2", "--json"], ws.env)).stdout);
    assert.match(q.answer, /ice sensor fault/);
  } finally {
    ws.cleanup();
  }
});

test("bad input: clear one-line errors, the documented exit codes, and nothing stored", async () => {
  const ws = workspace();
  const env = { ...ws.env, CHUNKEVAL_EMBEDDER: "hash" };
  try {
    const notWord = join(ws.dir, "notes.docx");
    writeFileSync(notWord, Buffer.from("caf\xe9 notes", "latin1")); // neither a binary format nor UTF-8 text
    const locked = join(ws.dir, "locked.docx");
    writeFileSync(locked, buildEncryptedDocx());
    for (const [file, reason, code] of [
      [notWord, /notes\.docx: not a supported document/, 2],
      [locked, /locked\.docx: the document is encrypted/, 2],
      [join(ws.dir, "missing.docx"), /missing\.docx: no such file \(ENOENT\)/, 3],
      [ws.dir, /: cannot read the file \(EISDIR\)/, 2],
    ] as const) {
      const r = await runCli(["upload", file], env);
      assert.equal(r.code, code, r.stderr);
      assert.match(r.stderr, reason);
      assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
    }
    assert.equal(JSON.parse((await runCli(["documents", "--json"], env)).stdout).total, 0);
    assert.deepEqual(
      readdirSync(join(ws.dir, "data")).filter((f) => f === "files"),
      [],
      "no stored file",
    );

    const doc = JSON.parse((await runCli(["upload", HANDBOOK_PATH, "--json"], env)).stdout);
    const unknown = await runCli(["process", doc.id, "-s", "recursive,sliding"], env);
    assert.equal(unknown.code, 2);
    assert.match(
      unknown.stderr,
      /unknown strategy "sliding" \(valid: recursive, fixed_size, semantic, contextual_retrieval, semantic_parent_child, structure, or all\)/,
    );

    const unprocessed = await runCli(["ask", doc.id, "Anything?", "-s", "semantic"], env);
    assert.equal(unprocessed.code, 1);
    assert.match(unprocessed.stderr, /has not been processed with strategy semantic; run: chunkeval process/);

    const missingDoc = await runCli(["ask", "doc_nope", "Anything?"], env);
    assert.equal(missingDoc.code, 3);
    assert.match(missingDoc.stderr, /document not found: doc_nope/);

    const noArgument = await runCli(["upload"], env);
    assert.equal(noArgument.code, 2);
    assert.match(noArgument.stderr, /missing required argument <file>/);

    const badTopK = await runCli(["ask", doc.id, "q", "--top-k", "0"], env);
    assert.equal(badTopK.code, 2);
    assert.match(badTopK.stderr, /top_k must be a whole number from 1 to 100/);

    const badFlag = await runCli(["process", doc.id, "--no-such-flag"], env);
    assert.equal(badFlag.code, 2);
    assert.match(badFlag.stderr, /unknown option '--no-such-flag'/);

    const badEnv = await runCli(["documents"], { ...env, CHUNKEVAL_TOP_K: "many" });
    assert.equal(badEnv.code, 2);
    assert.match(badEnv.stderr, /invalid configuration: top_k \(env\): "many" is not a valid whole number/);

    for (const list of [["documents"], ["experiments"], ["jobs", "list"]]) {
      const hugeOffset = await runCli([...list, "--offset", "99999999999999999999"], env);
      assert.equal(hugeOffset.code, 2, list.join(" ") + hugeOffset.stderr);
      assert.equal(hugeOffset.stderr.trim(), "chunkeval: error: --offset must be from 0 to 1000000000");
    }
    const pastTheEnd = await runCli(["documents", "--offset", "5"], env);
    assert.equal(pastTheEnd.stdout.trim(), "1 documents; none at offset 5");

    assert.equal(JSON.parse((await runCli(["documents", "--json"], env)).stdout).total, 1, "the good document is still there");
  } finally {
    ws.cleanup();
  }
});

test("config shows where each value comes from and masks secrets", async () => {
  const ws = workspace();
  try {
    writeFileSync(join(ws.dir, "chunkeval.config.json"), JSON.stringify({ top_k: 7, generator: "extractive", colour: "blue" }));
    const r = await runCli(["config", "--json", "--embedder", "hash"], { ...ws.env, CHUNKEVAL_OPENAI_API_KEY: "sk-secret-1234" }, ws.dir);
    assert.equal(r.code, 0, r.stderr);
    const { settings, warnings } = JSON.parse(r.stdout);
    const get = (k: string) => settings.find((s: any) => s.key === k);
    assert.deepEqual([get("top_k").value, get("top_k").source], ["7", "file"]);
    assert.deepEqual([get("embedder").value, get("embedder").source], ["hash", "flag"]);
    assert.deepEqual([get("data_dir").source], ["env"]);
    assert.equal(get("openai_api_key").value, "********", "fully masked, not even the last characters");
    assert.equal(get("openai_api_key").env, "CHUNKEVAL_OPENAI_API_KEY");
    assert.doesNotMatch(r.stdout, /sk-secret|1234/);
    assert.match(warnings[0], /unknown key "colour" ignored/);
    // The variable shown is the one that was read: OPENAI_API_KEY when only it is set.
    const plain = await runCli(["config", "--json"], { ...ws.env, OPENAI_API_KEY: "sk-plain-5678" }, ws.dir);
    const key = JSON.parse(plain.stdout).settings.find((s: any) => s.key === "openai_api_key");
    assert.deepEqual([key.value, key.source, key.env], ["********", "env", "OPENAI_API_KEY"]);
    assert.doesNotMatch(plain.stdout, /sk-plain|5678/);
  } finally {
    ws.cleanup();
  }
});

test("upload and bench read a file only up to max_upload_mb: /dev/zero and an oversized file are refused, nothing stored", async () => {
  const ws = workspace();
  const env = { ...ws.env, CHUNKEVAL_EMBEDDER: "hash", CHUNKEVAL_MAX_UPLOAD_MB: "1" };
  try {
    const started = Date.now();
    const zero = await runCli(["upload", "/dev/zero"], env);
    assert.equal(zero.code, 2, zero.stderr);
    assert.match(zero.stderr, /\/dev\/zero: the file is larger than max_upload_mb \(1 MB\)/);
    assert.ok(Date.now() - started < 20_000, "stops reading at the limit");
    const big = join(ws.dir, "big.docx");
    writeFileSync(big, Buffer.alloc(2 * 1024 * 1024 + 1, 1));
    const bench = await runCli(["bench", big, "--questions", "questions/harbor-light-handbook.json", "--dry-run"], env);
    assert.equal(bench.code, 2, bench.stderr);
    assert.match(bench.stderr, /big\.docx: the file is larger than max_upload_mb \(1 MB\)/);
    const listed = await runCli(["documents", "--json"], env);
    assert.equal(JSON.parse(listed.stdout).total, 0);
  } finally {
    ws.cleanup();
  }
});
