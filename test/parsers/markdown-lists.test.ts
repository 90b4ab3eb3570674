import { test } from "node:test";
import assert from "node:assert/strict";
import { parseDocument } from "../../src/parsers/parser.js";

test("Markdown ordered lists keep their markers as written, from the start number, at exact offsets; bullet lists keep none", async () => {
  const md = [
    "Steps:",
    "",
    "3. Third",
    "4. Fourth with *emphasis*",
    "   - a bullet under it",
    "     1) nested first",
    "     2) nested second",
    "5.",
    "",
    "- plain",
    "",
    "> 10. quoted tenth",
    "",
    "7. loose seventh",
    "",
    "8. loose eighth",
  ].join("\n");
  for (const source of [md, md.replace(/\n/g, "\r\n").replace("Steps:", "Steps:  ")]) {
    const doc = await parseDocument(Buffer.from(source), "steps.md");
    assert.deepEqual(
      doc.blocks.map((b) => [b.kind, b.level, b.text, b.start, b.end]),
      [
        ["paragraph", 0, "Steps:", 0, 6],
        ["list_item", 1, "3. Third", 8, 16],
        ["list_item", 1, "4. Fourth with emphasis", 18, 41],
        ["list_item", 2, "a bullet under it", 43, 60],
        ["list_item", 3, "1) nested first", 62, 77],
        ["list_item", 3, "2) nested second", 79, 95],
        ["list_item", 1, "5.", 97, 99],
        ["list_item", 1, "plain", 101, 106],
        ["list_item", 1, "10. quoted tenth", 108, 124],
        ["list_item", 1, "7. loose seventh", 126, 142],
        ["list_item", 1, "8. loose eighth", 144, 159],
      ],
      JSON.stringify(source),
    );
    for (const b of doc.blocks) assert.equal(doc.text.slice(b.start, b.end), b.text);
  }
});
