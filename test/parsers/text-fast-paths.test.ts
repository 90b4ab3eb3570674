import { test } from "node:test";
import assert from "node:assert/strict";
import { SNIPPET_LIMITS } from "../helpers/snippet-limits.js";
import { parseDocument } from "../../src/parsers/parser.js";
import { DocumentLimitError } from "../../src/errors.js";
import { countControls } from "../../src/parsers/text-family.js";
import { collapseWhitespace } from "../../src/parsers/whitespace.js";
import type { ParsedDocument } from "../../src/domain/types.js";

// The parsers skip scans where the source tells them the answer (control characters four bytes at a
// time, Markdown blocks known to be single lines, nesting measured only on long line prefixes).
// These tests pin what they return against what the scans they skip would have found.

const seeded = (seed: number) => () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;

/** Every block is the document text between its offsets, a single line, and blocks are separated by one blank line. */
function assertAssembled(doc: ParsedDocument, source: string): void {
  let at = 0;
  for (const b of doc.blocks) {
    assert.equal(b.start, at, `block at ${b.start} follows the one before (${JSON.stringify(source)})`);
    assert.equal(doc.text.slice(b.start, b.end), b.text);
    assert.equal(collapseWhitespace(b.text), b.text, `${JSON.stringify(b.text)} is a single line (${JSON.stringify(source)})`);
    at = b.end + 2;
  }
  assert.equal(doc.text.length, at - 2);
}

test("control characters are counted exactly, four bytes at a time, whatever the buffer's alignment and length", () => {
  const rnd = seeded(3);
  const interesting = [0x00, 0x01, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1f, 0x20, 0x7e, 0x7f, 0x80, 0x9f, 0xa0, 0xff];
  for (let n = 0; n < 3000; n++) {
    const bytes = Buffer.alloc(1 + Math.floor(rnd() * 40));
    for (let i = 0; i < bytes.length; i++) bytes[i] = rnd() < 0.6 ? interesting[Math.floor(rnd() * interesting.length)]! : Math.floor(rnd() * 256);
    const slice = bytes.subarray(n % 4);
    const expected = [...slice].filter((b) => (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0c && b !== 0x0d) || b === 0x7f).length;
    assert.equal(countControls(slice), expected, `${slice.toString("hex")} at offset ${slice.byteOffset}`);
  }
});

test("single-spaced Markdown: blocks, levels and offsets are what marked's tokens say", async () => {
  const md = [
    "# Plant guide #",
    "Water the fern every Monday.",
    "A second line of the same paragraph.",
    "",
    "Setext heading",
    "---",
    "",
    "- Trowel",
    "- Shears &#32; and &#x41;",
    "",
    "> Quoted line one",
    "> quoted line two",
    "",
    "1. Step *one*",
    "",
    "| Plant | Light |",
    "|---|---|",
    "| Fern | Shade |",
    "",
    "Ends with a space ",
    "",
  ].join("\r\n");
  const doc = await parseDocument(Buffer.from(md), "guide.md");
  assert.deepEqual(
    doc.blocks.map((b) => [b.kind, b.level, b.text, b.start, b.end]),
    [
      ["heading", 1, "Plant guide", 0, 11],
      ["paragraph", 0, "Water the fern every Monday. A second line of the same paragraph.", 13, 78],
      ["heading", 2, "Setext heading", 80, 94],
      ["list_item", 1, "Trowel", 96, 102],
      ["list_item", 1, "Shears and A", 104, 116],
      ["paragraph", 0, "Quoted line one quoted line two", 118, 149],
      ["list_item", 1, "1. Step one", 151, 162],
      ["table_row", 0, "Plant | Light", 164, 177],
      ["table_row", 0, "Fern | Shade", 179, 191],
      ["paragraph", 0, "Ends with a space", 193, 210],
    ],
  );
  assertAssembled(doc, md);
});

test("generated Markdown, single-spaced or not: every block is a single line at its offsets", async () => {
  const rnd = seeded(11);
  const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)]!;
  // Pieces that decode, strip or join to white space: character references, line breaks, empty links, code spans over lines.
  const words = ["alpha", "beta", "R&D", "a&amp;b", "x<y", "&#32;", "&#10;", "&#9;", "&#160;", "&nbsp;", "**bold**", "*em*", "_u_", "`code`"];
  words.push("`a\n b`", "` x `", "[link](http://x.y)", "[ ](u)", "![img](i.png)", "<b>tag</b>", "<br>", "\\*", "\\\n", "~~del~~", "http://auto.link");
  words.push("snake_case", "*", "_", "~", "|", "#", "\\", "-", "1.", ">", "=");
  for (let n = 0; n < 400; n++) {
    const spaced = n % 2 === 0; // half single-spaced ASCII without tabs, half with every kind of white space
    const seps = spaced ? [" ", " ", " ", "\n", " \n", "\r\n"] : [" ", "  ", "\t", "\n", " \n", "\u00a0", "\u2003"];
    const line = (k: number) => Array.from({ length: k }, () => pick(words)).reduce((s, w) => `${s}${pick(seps)}${w}`);
    const blocks = Array.from({ length: 1 + Math.floor(rnd() * 8) }, () =>
      pick([
        () => `${"#".repeat(1 + Math.floor(rnd() * 6))} ${line(1 + Math.floor(rnd() * 4))}${pick(["", " #", " ## "])}`,
        () => `${line(3)}\n${pick(["===", "---"])}`,
        () =>
          Array.from(
            { length: 1 + Math.floor(rnd() * 3) },
            () => `${pick(["-", "*", "1.", "2)"])} ${pick(["", "[ ] ", "[x] "])}${line(1 + Math.floor(rnd() * 4))}`,
          ).join("\n"),
        () => `${pick([">", "> ", "> > ", "> - ", "> # "])}${line(2 + Math.floor(rnd() * 4))}\n${pick(["", ">"])}${line(2)}`,
        () => `| ${line(1)} | ${line(2)} |\n|---|---|\n| ${line(2)} | ${line(1)} |`,
        () => "```\n" + line(3) + "\n```",
        () => `<div>\n${line(3)}\n</div>`,
        () => `${pick(["", " "])}${line(2 + Math.floor(rnd() * 12))}${pick(["", " ", " \n"])}`,
      ])(),
    );
    const md = blocks.join(pick(["\n\n", "\n \n", "\r\n\r\n"]));
    let doc: ParsedDocument;
    try {
      doc = await parseDocument(Buffer.from(md), `generated-${n}.md`, SNIPPET_LIMITS);
    } catch (error) {
      assert.match(String(error), /contains no text/);
      continue;
    }
    assertAssembled(doc, md);
  }
});

test("Markdown nesting: a line is measured only when its prefix can reach max_html_depth, and a tab counts four columns", async () => {
  const limits = { ...SNIPPET_LIMITS, maxHtmlDepth: 10 };
  // Five tabs are 20 columns: depth 11, refused, though the prefix is only five characters long.
  await assert.rejects(parseDocument(Buffer.from(`intro\n\n\t\t\t\t\t- deep`), "tabs.md", limits), DocumentLimitError);
  // Four tabs: depth 9, read.
  assert.equal((await parseDocument(Buffer.from(`intro\n\n\t\t\t\t- fine`), "tabs.md", limits)).format, "md");
  // Quotes count one level each, after a line feed or a Unicode line separator alike.
  await assert.rejects(parseDocument(Buffer.from(`intro\u2028${">".repeat(11)} deep`), "quotes.md", limits), /deeper than max_html_depth \(10\)/);
  assert.equal((await parseDocument(Buffer.from(`intro\u2028${">".repeat(10)} fine`), "quotes.md", limits)).format, "md");
  // Eight quotes and a list item indented five columns past them: 8 + 2 + 1 levels, refused; three columns: 8 + 1 + 1, read.
  await assert.rejects(parseDocument(Buffer.from(`${">".repeat(8)}     - x`), "mixed.md", limits), DocumentLimitError);
  assert.equal((await parseDocument(Buffer.from(`${">".repeat(8)}   - x`), "mixed.md", limits)).format, "md");
});

test("plain text stays plain: a .txt file's text is the file as written (line endings as \\n), its blocks spans of it (issue 38)", async () => {
  const txt = [
    "Influenza, 1918",
    "",
    "+ Case—fataiity rale 1918—1919",
    "  - nested: the second wave",
    "",
    "References",
    "",
    "1. Frost WH. Statistics of influenza.",
    "2) Jordan EO.",
    "   Epidemic influenza: a survey,",
    "\t  Chicago, 1927.   ",
    "",
    "",
  ];
  for (const source of [txt.join("\n"), txt.join("\r\n")]) {
    const doc = await parseDocument(Buffer.from(source), "notes.txt");
    assert.equal(doc.text, txt.join("\n"), "the text is the file's, character for character");
    // A wrapped list item keeps its lines and their indents; a block ends at its last visible character.
    assert.equal(doc.blocks.at(-1)!.text, "2) Jordan EO.\n   Epidemic influenza: a survey,\n\t  Chicago, 1927.");
    assert.deepEqual(
      doc.blocks.map((b) => [b.kind, b.level]),
      [
        ["paragraph", 0],
        ["list_item", 1],
        ["list_item", 2],
        ["paragraph", 0],
        ["list_item", 1],
        ["list_item", 1],
      ],
    );
    for (const b of doc.blocks) assert.equal(doc.text.slice(b.start, b.end), b.text);
  }
});

test("a form feed in plain text (pdftotext's page break) ends a paragraph and a page; it stays in the text, and every block says its page", async () => {
  // As pdftotext writes a two-page PDF: a form feed after each page, the last at the end.
  const source = "Harbour rules\n\nThe pilot boards ships at the outer\nbuoy.\fTugs take over at the north quay.\n\nFees are paid at the gate.\f";
  const doc = await parseDocument(Buffer.from(source), "rules.txt");
  assert.equal(doc.text, source, "the text as written, its form feeds too");
  assert.deepEqual(
    doc.blocks.map((b) => [b.text, b.page]),
    [
      ["Harbour rules", 1],
      ["The pilot boards ships at the outer\nbuoy.", 1],
      ["Tugs take over at the north quay.", 2],
      ["Fees are paid at the gate.", 2],
    ],
  );
  for (const b of doc.blocks) assert.equal(doc.text.slice(b.start, b.end), b.text);
  // Without a form feed, plain text has no pages.
  assert.equal(
    (await parseDocument(Buffer.from("One paragraph.\n\nAnother one."), "plain.txt")).blocks.some((b) => b.page !== undefined),
    false,
  );
});
