import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../../src/stores/sqlite/database.js";
import { SqliteDocumentsRepo } from "../../src/stores/sqlite/documents-repo.js";
import { assembleDocument } from "../../src/parsers/parser.js";

const parsed = assembleDocument(
  "docx",
  [
    { kind: "heading", level: 1, text: "Member shares" },
    { kind: "paragraph", level: 0, text: "A share costs one hundred euros." },
    { kind: "list_item", level: 1, text: "Refundable at the original price." },
  ],
  "handbook.docx",
);

test("blocks are stored without their text and read back with it, and rows that stored the text read the same", () => {
  const db = openDatabase(join(mkdtempSync(join(tmpdir(), "chunkeval-docs-")), "chunkeval.sqlite"));
  const repo = new SqliteDocumentsRepo(db);
  const base = { filename: "handbook.docx", format: "docx", title: parsed.title, paragraphCount: 3, text: parsed.text, filePath: "/x", contentHash: "h" };
  repo.insert({ id: "doc_new", ...base, blocks: parsed.blocks, createdAt: "2026-01-01T00:00:00Z" });
  const stored = db.prepare(`SELECT blocks_json FROM documents WHERE id = 'doc_new'`).get() as { blocks_json: string };
  assert.ok(!stored.blocks_json.includes("one hundred euros"), stored.blocks_json);
  assert.deepEqual(repo.get("doc_new")!.blocks, parsed.blocks);

  // A row written before blocks dropped their text.
  repo.insert({ id: "doc_old", ...base, blocks: [], createdAt: "2026-01-01T00:00:01Z" });
  db.prepare(`UPDATE documents SET blocks_json = ? WHERE id = 'doc_old'`).run(JSON.stringify(parsed.blocks));
  assert.deepEqual(repo.get("doc_old")!.blocks, parsed.blocks);
  db.close();
});
