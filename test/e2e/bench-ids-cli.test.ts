import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { runCli } from "../helpers/cli.js";

const CORPUS = resolve("examples/corpus");
const ALL_QUESTIONS = JSON.parse(readFileSync("questions/corpus.json", "utf8")) as Array<{ references: Array<{ document: string }> }>;

/** A questions file of two questions per named document of the example corpus. */
function questionsFor(dir: string, name: string, documents: string[]): string {
  const path = join(dir, `${name}.json`);
  writeFileSync(path, JSON.stringify(documents.flatMap((d) => ALL_QUESTIONS.filter((q) => q.references.every((r) => r.document === d)).slice(0, 2))));
  return path;
}

test(
  "bench takes stored documents wherever it takes files: several ids, stored file names, ids mixed with files; an unknown one is exit 3",
  {
    timeout: 120_000,
  },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), "chunkeval-bench-ids-"));
    const env = { CHUNKEVAL_DATA_DIR: join(dir, "data"), CHUNKEVAL_EMBEDDER: "hash" };
    try {
      const upload = async (file: string, ...flags: string[]) => {
        const r = await runCli(["upload", file, "--json", ...flags], env);
        assert.equal(r.code, 0, r.stderr);
        return JSON.parse(r.stdout) as { id: string; filename: string; already_stored: boolean };
      };
      const kettle = (await upload(join(CORPUS, "brisa-kettle-recall.txt"))).id;
      const runbook = (await upload(join(CORPUS, "ledgerline-runbook.md"))).id;

      // The same bytes again: the stored copy of that name, not the newest copy.
      const copy = join(dir, "copy-of-runbook.md");
      copyFileSync(join(CORPUS, "ledgerline-runbook.md"), copy);
      const newest = await upload(copy, "--new");
      assert.notEqual(newest.id, runbook);
      const again = await upload(join(CORPUS, "ledgerline-runbook.md"));
      assert.deepEqual([again.id, again.filename, again.already_stored], [runbook, "ledgerline-runbook.md", true]);

      const both = questionsFor(dir, "both", ["brisa-kettle-recall.txt", "ledgerline-runbook.md"]);
      const bench = (args: string[], cwd?: string) => runCli(["bench", ...args, "-s", "recursive", "--json"], env, cwd);
      const members = (stdout: string) =>
        (JSON.parse(stdout).collection.documents as Array<{ id: string; filename: string }>).map((d) => [d.id, d.filename]).sort();

      const byIds = await bench([kettle, runbook, "--questions", both]);
      assert.equal(byIds.code, 0, byIds.stderr);
      const collection = JSON.parse(byIds.stdout).collection.name as string;
      assert.deepEqual(
        members(byIds.stdout),
        [
          [kettle, "brisa-kettle-recall.txt"],
          [runbook, "ledgerline-runbook.md"],
        ].sort(),
      );
      assert.match(byIds.stderr, new RegExp(`^chunkeval: 2 documents benchmarked together as collection ${collection} `, "m"));

      // Stored file names, from a folder where no such file is: the same documents, so the same collection.
      const byNames = await bench(["brisa-kettle-recall.txt", "ledgerline-runbook.md", "--questions", both], dir);
      assert.equal(byNames.code, 0, byNames.stderr);
      assert.equal(JSON.parse(byNames.stdout).collection.name, collection);

      // An id and a file: the file is uploaded and benchmarked with the stored document.
      const mixed = await bench([
        kettle,
        join(CORPUS, "tidewater-quay-lease.pdf"),
        "--questions",
        questionsFor(dir, "mixed", ["brisa-kettle-recall.txt", "tidewater-quay-lease.pdf"]),
      ]);
      assert.equal(mixed.code, 0, mixed.stderr);
      assert.deepEqual(
        members(mixed.stdout)
          .map(([, name]) => name)
          .sort(),
        ["brisa-kettle-recall.txt", "tidewater-quay-lease.pdf"],
      );

      // collections create and add take them too.
      const picked = await runCli(["collections", "create", "picked", kettle, "--json"], env);
      assert.equal(picked.code, 0, picked.stderr);
      const added = await runCli(["collections", "add", "picked", "ledgerline-runbook.md", join(CORPUS, "tidewater-quay-lease.pdf"), "--json"], env, dir);
      assert.equal(added.code, 0, added.stderr);
      assert.deepEqual((JSON.parse(added.stdout).documents as Array<{ filename: string }>).map((d) => d.filename).sort(), [
        "brisa-kettle-recall.txt",
        "ledgerline-runbook.md",
        "tidewater-quay-lease.pdf",
      ]);

      // One stored id alone is that document, as before.
      const single = await bench([runbook, "--questions", questionsFor(dir, "single", ["ledgerline-runbook.md"])]);
      assert.equal(single.code, 0, single.stderr);
      assert.equal(JSON.parse(single.stdout).document_id, runbook);

      const documentsBefore = JSON.parse((await runCli(["documents", "--json"], env)).stdout).total as number;
      const collectionsBefore = JSON.parse((await runCli(["collections", "list", "--json"], env)).stdout).total as number;
      const unknown = await bench([kettle, "doc_0000000000000000", "--questions", both]);
      assert.equal(unknown.code, 3, unknown.stderr);
      assert.match(unknown.stderr, /^chunkeval: error: doc_0000000000000000: neither a file nor a stored document \(see chunkeval documents\)$/m);
      const alone = await bench(["no-such-thing.md", "--questions", both], dir);
      assert.equal(alone.code, 3, alone.stderr);
      assert.match(alone.stderr, /no-such-thing\.md: neither a file nor a stored document or collection/);
      assert.equal(JSON.parse((await runCli(["documents", "--json"], env)).stdout).total, documentsBefore, "nothing uploaded");
      assert.equal(JSON.parse((await runCli(["collections", "list", "--json"], env)).stdout).total, collectionsBefore, "no collection made");

      // A file name that two stored documents have must be given by id.
      const twin = await upload(join(CORPUS, "ledgerline-runbook.md"), "--new");
      const ambiguous = await bench([kettle, "ledgerline-runbook.md", "--questions", both], dir);
      assert.equal(ambiguous.code, 2, ambiguous.stderr);
      assert.match(
        ambiguous.stderr,
        new RegExp(`2 stored documents are named ledgerline-runbook\\.md \\((${runbook}, ${twin.id}|${twin.id}, ${runbook})\\): give the id of one`),
      );

      // process names the document as people know it, with its id beside it.
      const processed = await runCli(["--progress", "lines", "process", kettle, "-s", "fixed_size"], env);
      assert.equal(processed.code, 0, processed.stderr);
      assert.match(processed.stderr, new RegExp(`^processing brisa-kettle-recall\\.txt \\(${kettle}\\)$`, "m"));
      assert.match(processed.stderr, new RegExp(`^processed brisa-kettle-recall\\.txt \\(${kettle}\\) \\(\\d+\\.\\d s\\)$`, "m"));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
