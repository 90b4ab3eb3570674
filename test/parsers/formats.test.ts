import { test } from "node:test";
import assert from "node:assert/strict";
import { SNIPPET_LIMITS } from "../helpers/snippet-limits.js";
import { parseDocument } from "../../src/parsers/parser.js";
import { ChunkingError, DocumentLimitError } from "../../src/errors.js";
import type { ParsedDocument } from "../../src/domain/types.js";
import { buildDocx } from "../helpers/documents.js";
import { buildGraphicsStateBomb, buildLzwBomb, buildLzwPdf, flateBombStream } from "../helpers/pdf.js";
import { buildEncryptedPdf, buildFlateBomb, buildImageOnlyPdf, buildManyPagesPdf, buildPageTreeBomb, buildPdf, layoutParagraphs } from "../helpers/pdf.js";

/** Every block is exactly the document text between its offsets. */
function assertOffsets(doc: ParsedDocument): void {
  for (const b of doc.blocks) assert.equal(doc.text.slice(b.start, b.end), b.text, `${b.kind} at ${b.start}`);
}

const shape = (doc: ParsedDocument) => doc.blocks.map((b) => [b.kind, b.level, b.text]);

test("a PDF yields its text layer with pages on every block, a heading from its larger font, paragraphs from vertical gaps", async () => {
  const bytes = buildPdf([
    layoutParagraphs([
      { lines: ["Harbor Guide"], size: 20 },
      { lines: ["The lighthouse opens at dawn and", "closes at dusk (except Mondays)."] },
      { lines: ["Tickets cost four euros."] },
    ]),
    [
      ...layoutParagraphs([
        { lines: ["Winter Hours"], size: 16 },
        { lines: ["In winter the lighthouse closes at four."] },
        { lines: ["\u2022 Bring a coat", "\u2022 Bring a lamp that", "lasts an hour"] },
      ]),
      { text: "- 2 -", y: 40 }, // the page number, in the bottom margin: page furniture, kept apart
    ],
  ]);
  const doc = await parseDocument(bytes, "guide.pdf", SNIPPET_LIMITS);
  assert.equal(doc.format, "pdf");
  assert.equal(doc.title, "Harbor Guide");
  assert.deepEqual(
    doc.blocks.map((b) => [b.kind, b.level, b.text, b.page]),
    [
      ["heading", 1, "Harbor Guide", 1],
      ["paragraph", 0, "The lighthouse opens at dawn and closes at dusk (except Mondays).", 1],
      ["paragraph", 0, "Tickets cost four euros.", 1],
      ["heading", 2, "Winter Hours", 2],
      ["paragraph", 0, "In winter the lighthouse closes at four.", 2],
      ["list_item", 1, "Bring a coat", 2],
      ["list_item", 1, "Bring a lamp that lasts an hour", 2],
      ["furniture", 0, "- 2 -", 2],
    ],
  );
  assertOffsets(doc);
  // Deterministic: the same bytes give the same document.
  assert.deepEqual(await parseDocument(bytes, "guide.pdf", SNIPPET_LIMITS), doc);
});

test("a PDF named .docx is read as a PDF (bytes decide, never the name)", async () => {
  const doc = await parseDocument(buildPdf([layoutParagraphs([{ lines: ["Only the bytes count."] }])]), "x.docx", SNIPPET_LIMITS);
  assert.equal(doc.format, "pdf");
  assert.equal(doc.blocks[0]!.page, 1);
});

test("Markdown: headings with levels, nested lists, table rows, code, quotes; inline markup stripped, link text kept", async () => {
  const md = [
    "# Plant *Guide*",
    "",
    "Water the [fern](https://example.com/fern) every **Monday** &amp; `Thursday`.",
    "",
    "## Tools",
    "",
    "- Trowel",
    "  - Small trowel",
    "- Pruning shears",
    "",
    "1. First step",
    "",
    "| Plant | Light |",
    "|---|---|",
    "| Fern | Shade |",
    "",
    "> Repot in spring.",
    "",
    "```",
    "soil = 3",
    "```",
    "",
    "<div>Grown <b>indoors</b> &copy; 2024</div>",
    "",
  ].join("\n");
  const doc = await parseDocument(Buffer.from(md), "guide.md", SNIPPET_LIMITS);
  assert.equal(doc.format, "md");
  assert.equal(doc.title, "Plant Guide");
  assert.deepEqual(shape(doc), [
    ["heading", 1, "Plant Guide"],
    ["paragraph", 0, "Water the fern every Monday & Thursday."],
    ["heading", 2, "Tools"],
    ["list_item", 1, "Trowel"],
    ["list_item", 2, "Small trowel"],
    ["list_item", 1, "Pruning shears"],
    ["list_item", 1, "1. First step"],
    ["table_row", 0, "Plant | Light"],
    ["table_row", 0, "Fern | Shade"],
    ["paragraph", 0, "Repot in spring."],
    ["paragraph", 0, "soil = 3"],
    ["paragraph", 0, "Grown indoors © 2024"],
  ]);
  assertOffsets(doc);
  assert.ok(!doc.text.includes("https://"), "link URLs are not text");
  assert.deepEqual(await parseDocument(Buffer.from(md), "guide.md", SNIPPET_LIMITS), doc);
});

test("Markdown: YAML front matter is metadata, not a heading", async () => {
  const doc = await parseDocument(Buffer.from("---\ntitle: Ferry notes\ndate: 2024-05-01\n---\n\n# Ferry\n\nLeaves at noon.\n"), "post.md", SNIPPET_LIMITS);
  assert.deepEqual(shape(doc), [
    ["heading", 1, "Ferry"],
    ["paragraph", 0, "Leaves at noon."],
  ]);
});

test("the same text is Markdown when named .md and plain text otherwise (no invented headings)", async () => {
  const bytes = Buffer.from("# Not a heading in text\n\nSecond paragraph\nwrapped here.\n\n- one\n  - two\n- three\n");
  const text = await parseDocument(bytes, "notes.txt", SNIPPET_LIMITS);
  assert.equal(text.format, "txt");
  assert.deepEqual(shape(text), [
    ["paragraph", 0, "# Not a heading in text"],
    // Its lines as written: a wrapped line keeps its line break.
    ["paragraph", 0, "Second paragraph\nwrapped here."],
    // Plain text keeps its list markers (the text as written); Markdown drops them as markup.
    ["list_item", 1, "- one"],
    ["list_item", 2, "- two"],
    ["list_item", 1, "- three"],
  ]);
  assertOffsets(text);
  assert.equal(text.text, bytes.toString(), "the text is the file's");
  assert.equal((await parseDocument(bytes, "notes.markdown", SNIPPET_LIMITS)).blocks[0]!.kind, "heading");
  // A .docx name does not make text a Word file either.
  assert.equal((await parseDocument(bytes, "notes.docx", SNIPPET_LIMITS)).format, "txt");
});

test("plain text: CRLF line endings and a BOM are read as text", async () => {
  const doc = await parseDocument(
    Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("First line\r\nsame paragraph\r\n\r\nSecond\r\n")]),
    "crlf.txt",
    SNIPPET_LIMITS,
  );
  assert.deepEqual(shape(doc), [
    ["paragraph", 0, "First line\nsame paragraph"],
    ["paragraph", 0, "Second"],
  ]);
  assert.equal(doc.text, "First line\nsame paragraph\n\nSecond\n", "line endings normalised, the mark dropped, nothing else changed");
});

test("HTML: headings, paragraphs, nested list items, table rows; script, style and head ignored; entities decoded", async () => {
  const html = `<!-- saved page -->
<!DOCTYPE html><html><head><title>Ignored title</title><style>p { color: red }</style></head>
<body><script>var secret = "do not index";</script>
<h1>Plant &amp; Garden</h1>
<p>Water the <a href="https://example.com">fern</a> every<br>Monday.</p>
<div>Loose text in a div</div>
<h3>Tools</h3>
<ul><li>Trowel<ul><li>Small trowel</li></ul></li><li>Shears</li></ul>
<table><tr><th>Plant</th><th>Light</th></tr><tr><td>Fern</td><td><p>Shade</p></td></tr></table>
<noscript>Enable JavaScript</noscript><template><p>never shown</p></template>
</body></html>`;
  const doc = await parseDocument(Buffer.from(html), "page.txt", SNIPPET_LIMITS);
  assert.equal(doc.format, "html");
  assert.deepEqual(shape(doc), [
    ["heading", 1, "Plant & Garden"],
    ["paragraph", 0, "Water the fern every Monday."],
    ["paragraph", 0, "Loose text in a div"],
    ["heading", 3, "Tools"],
    ["list_item", 1, "Trowel"],
    ["list_item", 2, "Small trowel"],
    ["list_item", 1, "Shears"],
    ["table_row", 0, "Plant | Light"],
    ["table_row", 0, "Fern | Shade"],
  ]);
  assertOffsets(doc);
  assert.doesNotMatch(doc.text, /secret|color|Ignored title|JavaScript|never shown/);
  assert.deepEqual(await parseDocument(Buffer.from(html), "page.html", SNIPPET_LIMITS), doc);
});

test("a .md file that merely contains HTML tags further down stays Markdown; an .html file without HTML markup is text", async () => {
  assert.equal((await parseDocument(Buffer.from("Intro\n\n<b>bold</b>\n"), "a.md", SNIPPET_LIMITS)).format, "md");
  assert.equal((await parseDocument(Buffer.from("no markup at all"), "a.html", SNIPPET_LIMITS)).format, "txt");
  const xhtml =
    '<?xml version="1.0" encoding="UTF-8"?>\n<!-- x -->\n<html xmlns="http://www.w3.org/1999/xhtml"><body><p>XHTML &#233;t&eacute;</p></body></html>';
  const doc = await parseDocument(Buffer.from(xhtml), "page.xhtml", SNIPPET_LIMITS);
  assert.deepEqual([doc.format, doc.text], ["html", "XHTML été"]);
});

const rejects = async (bytes: Buffer, filename: string, type: typeof ChunkingError | typeof DocumentLimitError, message: RegExp, limits = SNIPPET_LIMITS) =>
  assert.rejects(parseDocument(bytes, filename, limits), (error: unknown) => {
    assert.ok(error instanceof type, `${filename}: ${String(error)}`);
    assert.match((error as Error).message, message);
    return true;
  });

for (const cipher of ["rc4-40", "aes-128", "aes-256"] as const) {
  test(`an encrypted PDF (${cipher}, a real /Encrypt dictionary with a user password) is refused as encrypted`, async () => {
    await rejects(buildEncryptedPdf({ cipher }), "locked.pdf", ChunkingError, /^locked\.pdf: the PDF is encrypted \(password-protected\)/);
    // The encryption is real: with the user password pdfjs decrypts the text.
    const pdfjs = await import("pdfjs-dist/legacy/build/pdf.mjs");
    const task = pdfjs.getDocument({ data: new Uint8Array(buildEncryptedPdf({ cipher })), password: "secret", verbosity: 0 });
    const page = await (await task.promise).getPage(1);
    const items = (await page.getTextContent()).items as Array<{ str?: string }>;
    assert.equal(items.map((i) => i.str ?? "").join(""), "Quarterly results are confidential.");
    await task.destroy();
  });

  test(`an encrypted PDF (${cipher}) that opens without a password is read, and a bomb inside it is still refused`, async () => {
    assert.equal(
      (await parseDocument(buildEncryptedPdf({ cipher, userPassword: "" }), "restricted.pdf", SNIPPET_LIMITS)).text,
      "Quarterly results are confidential.",
    );
    const bomb = buildEncryptedPdf({ cipher, userPassword: "", content: flateBombStream(300) });
    await rejects(bomb, "restricted-bomb.pdf", DocumentLimitError, /restricted-bomb\.pdf: the PDF's compressed streams unpack to more than max_unpacked_mb/);
  });
}

test("an image-only PDF is refused: no text layer, run OCR first", async () => {
  await rejects(buildImageOnlyPdf(3), "scan.pdf", ChunkingError, /^scan\.pdf: no text layer: run OCR first/);
});

test("a PDF whose page tree declares a million pages is refused from its page count, before any page is read", async () => {
  const started = performance.now();
  await rejects(buildPageTreeBomb(1000), "pages.pdf", DocumentLimitError, /pages\.pdf: the PDF has 1000000 pages, more than max_pdf_pages \(2000\)/);
  assert.ok(performance.now() - started < 10_000);
  await rejects(buildManyPagesPdf(30), "thirty.pdf", DocumentLimitError, /max_pdf_pages \(20\)/, { ...SNIPPET_LIMITS, maxPdfPages: 20 });
});

test("a PDF whose content stream inflates past max_unpacked_mb is refused before pdfjs reads it, in bounded memory", async () => {
  const bytes = buildFlateBomb(300);
  assert.ok(bytes.length < 1024 * 1024, `${bytes.length} bytes`);
  const before = process.memoryUsage().rss;
  await rejects(bytes, "bomb.pdf", DocumentLimitError, /bomb\.pdf: the PDF's compressed streams unpack to more than max_unpacked_mb \(100 MB\)/);
  assert.ok(process.memoryUsage().rss - before < 250 * 1024 * 1024);
  // Under the limit it is read (the one text operator after 20 MB of spaces).
  const small = await parseDocument(buildFlateBomb(20), "small.pdf", SNIPPET_LIMITS);
  assert.equal(small.text, "bomb");
});

test("LZW content is read; an LZW bomb is refused at max_unpacked_mb like a Flate one", async () => {
  assert.equal((await parseDocument(buildLzwPdf("Text coded with LZW."), "lzw.pdf", SNIPPET_LIMITS)).text, "Text coded with LZW.");
  const bomb = buildLzwBomb(300);
  assert.ok(bomb.length < 512 * 1024, `${bomb.length} bytes`);
  const started = performance.now();
  await rejects(bomb, "lzw-bomb.pdf", DocumentLimitError, /lzw-bomb\.pdf: the PDF's compressed streams unpack to more than max_unpacked_mb/);
  assert.ok(performance.now() - started < 10_000, `${performance.now() - started} ms`);
});

test("a content stream nesting graphics states 100,000 deep (minutes of pdfjs CPU) is refused at once", async () => {
  const started = performance.now();
  await rejects(
    buildGraphicsStateBomb(100_000),
    "nested.pdf",
    ChunkingError,
    /nested\.pdf: a content stream nests graphics states \(q operators\) more than 256 deep/,
  );
  assert.ok(performance.now() - started < 5_000);
  assert.equal((await parseDocument(buildGraphicsStateBomb(20), "ok.pdf", SNIPPET_LIMITS)).text, "nested");
});

test("HTML bombs are refused at the element or depth limit, fast", async () => {
  const started = performance.now();
  await rejects(
    Buffer.from(`<!DOCTYPE html><body>${"<div>".repeat(10_000)}deep${"</div>".repeat(10_000)}</body>`),
    "deep.html",
    DocumentLimitError,
    /deep\.html: the HTML nests elements deeper than max_html_depth \(256\)/,
  );
  await rejects(Buffer.from(`<html><body>${"<p>x</p>".repeat(2_000_000)}</body></html>`), "many.html", DocumentLimitError, /max_html_elements \(200000\)/);
  assert.ok(performance.now() - started < 10_000, `${performance.now() - started} ms`);
});

test("Markdown bombs: quote and list nesting past max_html_depth and cells past max_html_elements are refused before marked reads them", async () => {
  const started = performance.now();
  await rejects(
    Buffer.from(`${">".repeat(1_000_000)} deep`),
    "quotes.md",
    DocumentLimitError,
    /quotes\.md: the Markdown nests quotes or lists deeper than max_html_depth \(256\)/,
  );
  const lists = Array.from({ length: 2000 }, (_, i) => `${" ".repeat(i * 2)}- item`).join("\n");
  await rejects(Buffer.from(lists), "lists.md", DocumentLimitError, /max_html_depth/);
  const wide = `|${"a|".repeat(100_000)}\n|${"-|".repeat(100_000)}\n${`|${"b|".repeat(100_000)}\n`.repeat(20)}`;
  await rejects(Buffer.from(wide), "wide.md", DocumentLimitError, /wide\.md: the Markdown has more than max_html_elements \(200000\) table cells/);
  assert.ok(performance.now() - started < 5_000, `${performance.now() - started} ms`);
  // 250 levels are within the limit and read.
  const deepButFine = await parseDocument(Buffer.from(Array.from({ length: 250 }, (_, i) => `${" ".repeat(i * 2)}- item ${i}`).join("\n")), "ok.md");
  assert.equal(deepButFine.blocks.length, 250);
  assert.equal(deepButFine.blocks[249]!.level, 250);
});

test("a 1 MB Markdown paragraph of emphasis markers (quadratic in marked) is read in bounded time", async () => {
  const started = performance.now();
  const doc = await parseDocument(Buffer.from(`Intro with *emphasis* kept short.\n\n${"*a".repeat(500_000)}`), "stars.md", SNIPPET_LIMITS);
  assert.ok(performance.now() - started < 5_000, `${performance.now() - started} ms`);
  assert.equal(doc.blocks[0]!.text, "Intro with emphasis kept short.");
  assert.equal(doc.blocks[1]!.text, "a".repeat(500_000));
});

test("bytes that are neither a known signature nor UTF-8 text are refused, naming the file", async () => {
  await rejects(
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
    "image.png",
    ChunkingError,
    /^image\.png: not a supported document \(.docx, .doc, .pdf, .html, .md or .txt\).*not UTF-8 text\?/,
  );
  await rejects(
    Buffer.from("caf\xe9 au lait, \xe0 la carte", "latin1"),
    "latin1.txt",
    ChunkingError,
    /latin1\.txt: not a supported document.*not UTF-8 text\?/,
  );
  // Valid UTF-8 without a NUL, but control bytes throughout: binary, not text.
  await rejects(Buffer.alloc(4096, 0x01), "ones.txt", ChunkingError, /ones\.txt: 100 % of its bytes are control characters, more than text holds \(1 %\)/);
});

test("a Word file is still Word", async () => {
  assert.equal((await parseDocument(await buildDocx([{ p: "hello" }]), "x.pdf", SNIPPET_LIMITS)).format, "docx");
});
