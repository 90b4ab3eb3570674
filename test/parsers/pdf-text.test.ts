// Issue 38 item 1 (part): PDF text as a reader copies it. Words broken by a hyphen at a line's end
// are joined; a hyphen the document spells elsewhere, or one before a capital, stays.
import { test } from "node:test";
import assert from "node:assert/strict";
import { parseDocument } from "../../src/parsers/parser.js";
import { locateExcerpt } from "../../src/text/locate-excerpt.js";
import { buildPdf, layoutParagraphs } from "../helpers/pdf.js";

test("line-end hyphenation is joined as a reader copies it; real hyphens stay", async () => {
  const bytes = buildPdf([
    layoutParagraphs([
      { lines: ["The harbour was closed af-", "ter the storm, and the fed-", "eral inspectors came."] },
      { lines: ["A well-known pilot and a well-", "known captain met the non-", "European crew at Sun-", "Spider quay."] },
      { lines: ["SunSpider quay is the old name; the ferry is self-", "driving, and no word of the document says otherwise."] },
    ]),
  ]);
  const doc = await parseDocument(bytes, "harbour.pdf");
  const paragraphs = doc.blocks.filter((b) => b.kind === "paragraph").map((b) => doc.text.slice(b.start, b.end));
  assert.equal(paragraphs[0], "The harbour was closed after the storm, and the federal inspectors came.");
  // "well-known" is spelt with its hyphen on the same page; "non-European" keeps it before a capital;
  // "SunSpider" is spelt without one elsewhere, so the break's hyphen goes.
  assert.equal(paragraphs[1], "A well-known pilot and a well-known captain met the non-European crew at SunSpider quay.");
  // Before a lower-case letter, with neither spelling elsewhere, the break is typesetting's: joined.
  assert.equal(paragraphs[2], "SunSpider quay is the old name; the ferry is selfdriving, and no word of the document says otherwise.");
  // A sentence copied from a reader (which joins such words) is found as written.
  assert.equal(locateExcerpt(doc.text, "closed after the storm, and the federal inspectors")?.method, "exact");
  // Nothing is joined across paragraphs, and no line break inside a word is left as a space.
  assert.doesNotMatch(doc.text, /af- ter|fed- eral|Sun- Spider/);
});
