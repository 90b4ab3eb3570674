// Issue 38 item 2 (part): a text layer of glyph codes is refused with the pages it covers, like an
// image-only PDF; a text with no letter or digit is refused as empty; a few bad pages are kept.
import { test } from "node:test";
import assert from "node:assert/strict";
import { parseDocument } from "../../src/parsers/parser.js";
import { ChunkingError } from "../../src/errors.js";
import { buildGlyphCodePdf, buildPdf, layoutParagraphs } from "../helpers/pdf.js";

const READABLE = "The harbour pilot boards ships at the outer buoy and guides them to the north quay.";
const GLYPHS = "THE HARBOUR PILOT BOARDS SHIPS AT THE OUTER BUOY"; // capitals: glyph codes on a glyphCodes page

const refused = async (bytes: Buffer, name: string, pattern: RegExp) =>
  assert.rejects(parseDocument(bytes, name), (error: Error) => {
    assert.ok(error instanceof ChunkingError, `${error.name}: ${error.message}`);
    assert.match(error.message, pattern);
    return true;
  });

test("a PDF whose pages from page 2 on are glyph codes is refused, naming the pages; a few such pages are kept", async () => {
  const page = (text: string, glyphCodes = false) => ({ lines: [text, text, text], glyphCodes });
  await refused(
    buildGlyphCodePdf([page(READABLE), page(GLYPHS, true), page(GLYPHS, true), page(GLYPHS, true)]),
    "paper.pdf",
    /pages 2-4 of paper\.pdf are glyph codes or control characters, not text: run OCR first/,
  );
  await refused(buildGlyphCodePdf([page("Contents of the paper."), page(GLYPHS, true)]), "half.pdf", /page 2 of half\.pdf is glyph codes/);
  const mostlyReadable = await parseDocument(buildGlyphCodePdf([page(READABLE), page(READABLE), page(READABLE), page(GLYPHS, true)]), "mostly.pdf");
  assert.ok(mostlyReadable.text.includes("outer buoy"));
});

test("a text layer with no letter or digit is refused as empty; text of private-use characters is refused too", async () => {
  await refused(
    buildPdf([layoutParagraphs([{ lines: ["- . - ."] }])]),
    "scan.pdf",
    /contains no text: no letter or digit \(a scanned document\? run OCR first\)/,
  );
  // A handful of letters is still a document: a one-line note is one.
  assert.equal((await parseDocument(buildPdf([layoutParagraphs([{ lines: ["p. 7"] }])]), "note.pdf")).text, "p. 7");
  // Private-use characters are valid UTF-8, so the file is read as text, then refused (control characters are not UTF-8 text at all).
  await refused(
    Buffer.from("\uE000\uE001\uE002 \uE003\uE004\n\n\uE005\uE006 \uE007\n"),
    "notes.txt",
    /notes\.txt's text is glyph codes or control characters, not text: is it a binary file/,
  );
  await refused(Buffer.from("... --- !!! ???\n"), "marks.txt", /contains no text: no letter or digit/);
  // A short but real text file stays a document.
  assert.equal((await parseDocument(Buffer.from("Only the bytes count."), "short.txt")).text, "Only the bytes count.");
});
