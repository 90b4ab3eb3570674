// The collection commands' tests that need no signal: the parallel lane (test/lanes.mjs). Moved
// from collections-cli.test.ts, which keeps the kill -9 test in the serial lane.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../helpers/cli.js";
import { buildDocx } from "../helpers/documents.js";
import { spawnServe } from "../helpers/serve-process.js";

test("chunkeval bench FOLDER / several files / a quoted glob / --collection benchmarks a collection", async () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-collections-"));
  try {
    const docs = join(dir, "docs");
    mkdirSync(join(docs, "more"), { recursive: true });
    writeFileSync(join(docs, "tides.docx"), await buildDocx([{ h: "Tides" }, { p: "High tide at the north pier is at seven in the morning during spring." }]));
    writeFileSync(join(docs, "more", "mill.docx"), await buildDocx([{ h: "Mill" }, { p: "The water mill grinds barley on Tuesdays and wheat on Thursdays." }]));
    writeFileSync(join(docs, "notes.xyz"), "not a document");
    writeFileSync(
      join(dir, "q.json"),
      JSON.stringify([
        {
          question: "When is high tide at the north pier?",
          references: [{ document: "tides.docx", text: "High tide at the north pier is at seven in the morning" }],
        },
        { question: "What does the mill grind on Tuesdays?", references: [{ document: "mill.docx", text: "The water mill grinds barley on Tuesdays" }] },
      ]),
    );
    const cli = (...args: string[]) => runCli(["--data-dir", join(dir, "data"), "--embedder", "hash", "-q", ...args], {}, dir);
    const common = ["--questions", "q.json", "--strategies", "recursive,fixed_size", "--top-k", "2"];

    const folder = await runCli(["--data-dir", join(dir, "data"), "--embedder", "hash", "--progress", "json", "bench", "docs", ...common, "--json"], {}, dir);
    assert.equal(folder.code, 0, folder.stderr);
    const e = JSON.parse(folder.stdout);
    // The progress names each document by its place in the collection, and counts the indexes built (their pace gives the time left).
    // (stderr also says which files were skipped, in words)
    const events = folder.stderr
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line));
    const indexing = events.filter((event) => event.stage === "index" && event.strategy === "recursive").map((event) => event.message);
    assert.ok(indexing.includes("document 1 of 2 (mill.docx): chunking") && indexing.includes("document 2 of 2 (tides.docx): chunking"), indexing.join("\n"));
    const built = events.filter((event) => event.stage === "index" && event.strategy === undefined);
    assert.deepEqual(
      built.map((event) => [event.done, event.total]),
      [0, 1, 2, 3, 4].map((n) => [n, 4]),
    );
    assert.match(e.collection.name, /^docs-[0-9a-f]{8}$/);
    assert.deepEqual(e.collection.documents.map((d: any) => d.filename).sort(), ["mill.docx", "tides.docx"], "subfolders are read; other files skipped");
    assert.equal(e.per_document.length, 2);

    // The same files again: the same collection, nothing uploaded twice.
    const glob = await cli("bench", "docs/**/*.docx", ...common, "--json");
    assert.equal(glob.code, 0, glob.stderr);
    assert.equal(JSON.parse(glob.stdout).collection.id, e.collection.id);
    const several = await cli("bench", "docs/tides.docx", "docs/more/mill.docx", ...common);
    assert.equal(several.code, 0, several.stderr);
    assert.match(several.stdout, /2 documents searched together; pooled above, per document below/);
    assert.match(several.stdout, /│ tides\.docx +│ 1 +│/);
    // One strategy over the collection leads nothing: no "highest" column or line anywhere.
    const single = await cli("bench", "docs/tides.docx", "docs/more/mill.docx", "--questions", "q.json", "--strategies", "recursive", "--top-k", "2");
    assert.equal(single.code, 0, single.stderr);
    assert.match(single.stdout, /│ document +│ questions +│ winner there +│ recursive: composite +│ recall +│/);
    assert.match(single.stdout, /│ tides\.docx +│ 1 +│ none: one strategy benchmarked/);
    assert.doesNotMatch(single.stdout, /highest/);
    assert.equal(JSON.parse((await cli("documents", "--json")).stdout).total, 2);

    const named = await cli("bench", "docs", "--collection", "coast", ...common, "--json");
    assert.equal(named.code, 0, named.stderr);
    assert.equal(JSON.parse(named.stdout).collection.name, "coast");
    const byName = await cli("bench", "--collection", "coast", ...common, "--json");
    assert.equal(JSON.parse(byName.stdout).collection.name, "coast");
    const positional = await cli("bench", "coast", ...common, "--json");
    assert.equal(positional.code, 0, positional.stderr);
    assert.equal(JSON.parse(positional.stdout).collection.name, "coast");

    const missing = await cli("bench", "--collection", "nope", ...common);
    assert.equal(missing.code, 3);
    assert.match(missing.stderr, /collection not found: nope/);
    const noMatch = await cli("bench", "docs/*.pdf", ...common);
    assert.equal(noMatch.code, 2);
    assert.match(noMatch.stderr, /docs\/\*\.pdf: no file matches/);
    writeFileSync(join(docs, "more", "tides.docx"), await buildDocx([{ p: "Another tides file, for the south pier." }]));
    const clash = await cli("bench", "docs", ...common);
    assert.equal(clash.code, 2);
    assert.match(clash.stderr, /two documents named tides\.docx/);

    const list = await cli("collections", "list");
    assert.match(list.stdout, /coast/);
    const removed = await cli("collections", "remove", "coast", "tides.docx", "--json");
    assert.deepEqual(
      JSON.parse(removed.stdout).documents.map((d: any) => d.filename),
      ["mill.docx"],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("two processes adding to one collection at once (a CLI and a serve) lose nothing, and a bench sees every document", async () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-collections-shared-"));
  try {
    const data = join(dir, "data");
    const files = await Promise.all(
      ["alpha", "bravo", "charlie", "delta"].map(async (name) => {
        const path = join(dir, `${name}.docx`);
        writeFileSync(path, await buildDocx([{ h: name }, { p: `The ${name} section explains the ${name} procedure in detail.` }]));
        return path;
      }),
    );
    const cli = (...args: string[]) => runCli(["--data-dir", data, "--embedder", "hash", "-q", ...args], {}, dir);
    assert.equal((await cli("collections", "create", "shared")).code, 0);
    const server = await spawnServe({ CHUNKEVAL_DATA_DIR: data, CHUNKEVAL_EMBEDDER: "hash" });
    const { url } = server;
    try {
      const viaHttp = async (path: string) => {
        const form = new FormData();
        form.append("file", new Blob([readFileSync(path)]), path.split("/").pop()!);
        return (await fetch(`${url}/collections/shared/documents`, { method: "POST", body: form })).status;
      };
      const [a, b, c, d] = await Promise.all([
        cli("collections", "add", "shared", files[0]!),
        viaHttp(files[1]!),
        cli("collections", "add", "shared", files[2]!),
        viaHttp(files[3]!),
      ]);
      assert.deepEqual([a.code, b, c.code, d], [0, 200, 0, 200], a.stderr + c.stderr);
      const shown = JSON.parse((await cli("collections", "show", "shared", "--json")).stdout);
      assert.deepEqual(shown.documents.map((x: any) => x.filename).sort(), ["alpha.docx", "bravo.docx", "charlie.docx", "delta.docx"]);
      const served = (await (await fetch(`${url}/collections/shared`)).json()) as { documents: unknown[] };
      assert.equal(served.documents.length, 4, "the server sees what the CLI added");
      writeFileSync(
        join(dir, "q.json"),
        JSON.stringify([
          {
            question: "What does the delta section explain?",
            references: [{ document: "delta.docx", text: "The delta section explains the delta procedure" }],
          },
        ]),
      );
      const bench = await cli("bench", "--collection", "shared", "--questions", "q.json", "--strategies", "recursive", "--json");
      assert.equal(bench.code, 0, bench.stderr);
      assert.equal(JSON.parse(bench.stdout).collection.documents.length, 4);
    } finally {
      server.child.kill("SIGTERM");
      await server.exited;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
