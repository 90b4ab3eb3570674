import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawn } from "node:child_process";
import { BIN, runCli } from "../helpers/cli.js";
import { buildDocx } from "../helpers/documents.js";

test("kill -9 while a collection is being filled loses nothing stored before, and adding again completes it", async () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-collections-kill-"));
  try {
    const data = join(dir, "data");
    const folder = join(dir, "docs");
    mkdirSync(folder);
    for (let i = 0; i < 30; i++) {
      writeFileSync(
        join(folder, `part-${String(i).padStart(2, "0")}.docx`),
        await buildDocx([{ h: `Part ${i}` }, { p: `Part ${i} covers the ${i}th procedure in detail.` }]),
      );
    }
    const first = join(dir, "first.docx");
    writeFileSync(first, await buildDocx([{ h: "First" }, { p: "The first document was stored before anything was killed." }]));
    const cli = (...args: string[]) => runCli(["--data-dir", data, "--embedder", "hash", ...args], {}, dir);
    assert.equal((await cli("collections", "create", "kept", first)).code, 0);

    // Killed once a few uploads have been reported (or at the end, on a machine fast enough to finish first).
    const ended = await new Promise<NodeJS.Signals | null>((resolve, reject) => {
      const child = spawn(process.execPath, [BIN, "--data-dir", data, "--embedder", "hash", "--progress", "json", "collections", "add", "kept", folder], {
        cwd: dir,
        env: { ...process.env, CHUNKEVAL_EMBEDDER_WORKERS: "0" },
        stdio: ["ignore", "ignore", "pipe"],
      });
      let uploads = 0;
      child.stderr.on("data", (d: Buffer) => {
        // --progress json: one line per upload (lines mode throttles them).
        uploads += (d.toString().match(/"stage":"upload","message":"part-/g) ?? []).length;
        if (uploads >= 5) child.kill("SIGKILL");
      });
      child.on("error", reject);
      child.on("close", (_code, signal) => resolve(signal));
    });
    assert.equal(ended, "SIGKILL", "the add was killed midway");
    const afterKill = JSON.parse((await cli("documents", "--json", "--limit", "100")).stdout).total;
    assert.ok(afterKill < 31, `killed before the last upload (${afterKill} documents stored)`);

    const shown = JSON.parse((await cli("collections", "show", "kept", "--json")).stdout);
    assert.equal(shown.documents[0].filename, "first.docx", "what was stored before the kill stays");
    const doctor = await cli("doctor");
    assert.equal(doctor.code, 0, doctor.stdout + doctor.stderr);
    const again = await cli("-q", "collections", "add", "kept", folder, "--json");
    assert.equal(again.code, 0, again.stderr);
    assert.equal(JSON.parse(again.stdout).documents.length, 31, "adding again completes the collection, reusing what the killed run uploaded");
    const documents = JSON.parse((await cli("documents", "--json", "--limit", "100")).stdout);
    assert.equal(documents.total, 31, "no document stored twice");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
