import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { parseDocument } from "../../src/parsers/parser.js";
import { ChunkingError } from "../../src/errors.js";
import { buildDocx, buildEncryptedDoc, buildEncryptedDocx, buildOleFile, handbookBytes, SITE_VISIT_PATH } from "../helpers/documents.js";

test("a .docx keeps headings, list items and table cells as text, in reading order", async () => {
  const bytes = await buildDocx([
    { h: "Plant Guide" },
    { p: "Water the fern every Monday & Thursday." },
    { h: "Tools", level: 2 },
    { li: "Trowel" },
    { li: "Pruning shears", level: 1 },
    {
      table: [
        ["Plant", "Light"],
        ["Fern", "Shade"],
      ],
    },
    { p: "Repot in spring." },
  ]);
  const doc = await parseDocument(bytes, "guide.docx");
  assert.equal(doc.format, "docx");
  assert.equal(doc.title, "Plant Guide");
  assert.deepEqual(
    doc.blocks.map((b) => [b.kind, b.level, b.text]),
    [
      ["heading", 1, "Plant Guide"],
      ["paragraph", 0, "Water the fern every Monday & Thursday."],
      ["heading", 2, "Tools"],
      ["list_item", 1, "Trowel"],
      ["list_item", 2, "Pruning shears"],
      ["table_row", 0, "Plant | Light"],
      ["table_row", 0, "Fern | Shade"],
      ["paragraph", 0, "Repot in spring."],
    ],
  );
  for (const b of doc.blocks) assert.equal(doc.text.slice(b.start, b.end), b.text);
});

test("the bundled handbook parses into its chapters, lists and tables", async () => {
  const doc = await parseDocument(handbookBytes(), "harbor-light-handbook.docx");
  assert.equal(doc.title, "Harbor Light Energy Cooperative: Member and Operations Handbook");
  // The Title paragraph and the sixteen chapter headings.
  assert.equal(doc.blocks.filter((b) => b.kind === "heading" && b.level === 1).length, 17);
  assert.ok(doc.blocks.some((b) => b.kind === "table_row" && b.text.startsWith("Standard | 24.6 cents per kWh")));
  assert.ok(doc.blocks.filter((b) => b.kind === "list_item").length >= 20);
});

test("a legacy .doc is read with word-extractor", async () => {
  const doc = await parseDocument(readFileSync(SITE_VISIT_PATH), "greyhill-site-visit.doc");
  assert.equal(doc.format, "doc");
  assert.equal(doc.blocks.length, 8);
  assert.match(doc.text, /Turbine two had been stopped for six days in February after an ice sensor fault\./);
});

const badFiles: Array<[string, () => Promise<Buffer> | Buffer, RegExp]> = [
  ["empty.docx", () => Buffer.alloc(0), /empty\.docx: the file is empty/],
  ["notes.docx", () => Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0xff, 0xfe]), /notes\.docx: not a supported document .*whatever its \.docx name says/],
  ["truncated.docx", async () => (await buildDocx([{ p: "hello" }])).subarray(0, 300), /truncated\.docx: corrupt \.docx file/],
  ["locked.docx", () => buildEncryptedDocx(), /locked\.docx: the document is encrypted/],
  ["locked.doc", () => buildEncryptedDoc(), /locked\.doc: the document is encrypted/],
  ["sheet.doc", () => buildOleFile({ Workbook: Buffer.alloc(600, 3) }), /sheet\.doc: not a Word document/],
  ["blank.docx", () => buildDocx([{ p: "" }, { p: "   " }]), /blank\.docx: the document contains no text/],
];

for (const [name, make, message] of badFiles) {
  test(`rejects ${name} with a ChunkingError naming the file and the reason`, async () => {
    await assert.rejects(parseDocument(await make(), name), (error: unknown) => {
      assert.ok(error instanceof ChunkingError);
      assert.match(error.message, message);
      return true;
    });
  });
}
