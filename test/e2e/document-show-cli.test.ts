// Issue 38 item 5 (CLI part): what was extracted and how a strategy cut it, from the command line.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../helpers/cli.js";
import { buildGlyphCodePdf, buildPdf, layoutParagraphs } from "../helpers/pdf.js";

test("documents show prints the extracted text with pages and headings; chunks lists a strategy's chunks with offsets and pages", async () => {
  const dir = mkdtempSync(join(tmpdir(), "chunkeval-document-show-"));
  const env = { CHUNKEVAL_DATA_DIR: join(dir, "data"), CHUNKEVAL_EMBEDDER: "hash" };
  try {
    const pdf = join(dir, "harbour.pdf");
    writeFileSync(
      pdf,
      buildPdf([
        layoutParagraphs([{ lines: ["Pilotage"], size: 18 }, { lines: ["The harbour pilot boards ships at the outer buoy when the tide turns."] }]),
        layoutParagraphs([{ lines: ["Fees"], size: 18 }, { lines: ["A member share costs forty euros and is repaid when a member leaves."] }]),
      ]),
    );
    const upload = await runCli(["upload", pdf, "--json"], env);
    assert.equal(upload.code, 0, upload.stderr);
    const id = JSON.parse(upload.stdout).id as string;

    const text = await runCli(["documents", "show", id, "--text"], env);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /\[page 1\]\n# Pilotage\n\nThe harbour pilot boards ships at the outer buoy when the tide turns\.\n\n\[page 2\]\n# Fees\n/);
    const blocks = await runCli(["documents", "show", id, "--blocks"], env);
    assert.match(blocks.stdout, /│ heading\s+│ 1\s+│ 0-8\s+│ 1\s+│ Pilotage/);
    const json = JSON.parse((await runCli(["documents", "show", id, "--json"], env)).stdout);
    assert.equal(json.blocks.length, 4);
    assert.equal(json.text.slice(json.blocks[3].start, json.blocks[3].end), "A member share costs forty euros and is repaid when a member leaves.");

    // Not processed with that strategy yet: not found (3), naming the command that processes it.
    const missing = await runCli(["chunks", id, "-s", "recursive@chunk_size=16:chunk_overlap=0"], env);
    assert.equal(missing.code, 3, missing.stdout);
    assert.match(
      missing.stderr,
      new RegExp(
        `has no recursive@chunk_size=16:chunk_overlap=0 chunks: process it first ` +
          `\\(chunkeval process ${id} --strategies recursive@chunk_size=16:chunk_overlap=0\\)`,
      ),
    );
    assert.equal((await runCli(["process", id, "--strategies", "recursive@chunk_size=16:chunk_overlap=0", "-q"], env)).code, 0);
    const chunks = JSON.parse((await runCli(["chunks", id, "-s", "recursive@chunk_overlap=0:chunk_size=16", "--json"], env)).stdout);
    assert.equal(chunks.strategy, "recursive@chunk_size=16:chunk_overlap=0");
    assert.ok(chunks.chunks.length >= 2);
    for (const c of chunks.chunks) assert.equal(c.text, json.text.slice(c.start, c.end), "a chunk is its span of the extracted text");
    assert.deepEqual([chunks.chunks[0].page, chunks.chunks.at(-1).page], [1, 2]);
    const table = await runCli(["chunks", id, "-s", "recursive@chunk_size=16:chunk_overlap=0"], env);
    assert.match(
      table.stdout,
      new RegExp(`${chunks.chunks.length} chunks of harbour\\.pdf by recursive@chunk_size=16:chunk_overlap=0 \\(${chunks.chunks.length} searched\\)`),
    );
    assert.equal((await runCli(["documents", "show", "doc_0000000000000000"], env)).code, 3);
    // Named by the file name it was uploaded under, as bench takes it.
    assert.equal(JSON.parse((await runCli(["documents", "show", "harbour.pdf", "--json"], env)).stdout).id, id);
    assert.equal(
      JSON.parse((await runCli(["chunks", "harbour.pdf", "-s", "recursive@chunk_size=16:chunk_overlap=0", "--json"], env)).stdout).chunks.length,
      chunks.chunks.length,
    );
    const unknown = await runCli(["documents", "show", "nowhere.pdf"], env);
    assert.deepEqual(
      [unknown.code, unknown.stderr.trim()],
      [3, "chunkeval: error: document not found: nowhere.pdf (give its id or the file name it was uploaded under; chunkeval documents lists them)"],
    );

    // Issue 38 item 2: a page of glyph codes among readable ones is left out, and the upload says so
    // on stderr (JSON alone on stdout, with the warning in it); the same bytes again parse nothing and
    // say the warning stored with the document that holds them.
    const page = (lines: string[], glyphCodes = false) => ({ lines, glyphCodes });
    const readable = ["The harbour pilot boards ships at the outer buoy.", "Tugs take over at the north quay in any weather."];
    const mixed = join(dir, "mixed.pdf");
    writeFileSync(mixed, buildGlyphCodePdf([page(readable), page(readable), page(readable), page(["THE HARBOUR PILOT BOARDS SHIPS"], true)]));
    const warned = await runCli(["upload", mixed, "--json"], env);
    assert.equal(warned.code, 0, warned.stderr);
    const warning = "page 4 of mixed.pdf is glyph codes or control characters, not text: left out of the document (run OCR first for it)";
    assert.equal(warned.stderr, `warning: ${warning}\n`);
    assert.deepEqual(JSON.parse(warned.stdout).warnings, [warning]);
    const again = await runCli(["upload", mixed, "--json"], env);
    const note = `already stored: these bytes are document ${JSON.parse(warned.stdout).id} "mixed.pdf"; nothing new was stored (--new stores a second copy)`;
    assert.equal(again.stderr, `${note}\nwarning: ${warning}\n`);
    assert.deepEqual([JSON.parse(again.stdout).already_stored, JSON.parse(again.stdout).warnings], [true, [warning]]);

    // The warning is kept with the document: documents show says it, and so do a collection holding
    // it and every benchmark of it, one or the collection (the pages are still missing there).
    const mixedId = JSON.parse(warned.stdout).id as string;
    const shown = await runCli(["documents", "show", mixedId], env);
    assert.match(shown.stdout, new RegExp(`\nwarning: ${warning.replace(/[()]/g, "\\$&")}\n$`));
    assert.deepEqual(JSON.parse((await runCli(["documents", "show", mixedId, "--json"], env)).stdout).warnings, [warning]);
    assert.equal(JSON.parse((await runCli(["documents", "show", id, "--json"], env)).stdout).warnings, undefined, "a document read without warning has none");
    const noted = `chunkeval: warning: mixed.pdf: ${warning}\n`;
    const collection = await runCli(["collections", "create", "harbours", pdf, mixed, "-q"], env);
    assert.equal(collection.code, 0, collection.stderr);
    assert.ok(collection.stderr.endsWith(noted), collection.stderr);
    assert.equal((collection.stderr.match(/warning/g) ?? []).length, 1, "only the document that warned");
    const listed = JSON.parse((await runCli(["collections", "show", "harbours", "--json"], env)).stdout);
    assert.deepEqual(
      listed.documents.map((d: { filename: string; warnings?: string[] }) => [d.filename, d.warnings]),
      [
        ["harbour.pdf", undefined],
        ["mixed.pdf", [warning]],
      ],
    );
    const questions = join(dir, "questions.json");
    writeFileSync(questions, JSON.stringify([{ question: "Where does the pilot board ships?" }]));
    for (const target of [["--collection", "harbours"], [mixed]]) {
      const bench = await runCli(["bench", ...target, "--questions", questions, "-s", "recursive", "--json"], env);
      assert.equal(bench.code, 0, bench.stderr);
      assert.ok(bench.stderr.includes(noted), `bench ${target.join(" ")}: ${bench.stderr}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
