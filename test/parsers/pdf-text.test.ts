// Issue 38 item 1: PDF text as a reader copies it. Words broken by a hyphen at a line's end are
// joined (a hyphen the document spells elsewhere, or one before a capital, stays); running headers,
// footers and page numbers are page furniture, kept in the text and left out of chunks; a page in
// two columns is read column by column.
import { test } from "node:test";
import assert from "node:assert/strict";
import { parseDocument } from "../../src/parsers/parser.js";
import { linesToBlocks } from "../../src/parsers/pdf.js";
import { locateExcerpt } from "../../src/text/locate-excerpt.js";
import { buildLigaturePdf, buildPdf, buildSoftHyphenPdf, layoutParagraphs, reportPage } from "../helpers/pdf.js";
import type { StoredDocument } from "../../src/domain/types.js";
import { recursiveStrategy } from "../../src/strategies/recursive.js";
import { chunkOffThread } from "../../src/strategies/offload.js";
import { withoutPageFurniture } from "../../src/strategies/page-furniture.js";
import { locateOffThread } from "../../src/services/corpus/locate-off-thread.js";
import { chunksFromList, importedChunksDefinition } from "../../src/strategies/imported-chunks.js";

test("line-end hyphenation is joined as a reader copies it; real hyphens stay", async () => {
  const bytes = buildPdf([
    layoutParagraphs([
      { lines: ["The harbour was closed af-", "ter the storm, and the fed-", "eral inspectors came."] },
      { lines: ["A well-known pilot and a well-", "known captain met the non-", "European crew at Sun-", "Spider quay."] },
      { lines: ["SunSpider quay is the old name; the ferry is self-", "driving, and no word of the document says otherwise."] },
      { lines: ["Her third-party inspec-", "tion was par-", "ticularly thorough."] },
      { lines: ["See ISBN 978-", "0521872652 and http://www.example.edu/data/data-", "umass for the log."] },
    ]),
  ]);
  const doc = await parseDocument(bytes, "harbour.pdf");
  const paragraphs = doc.blocks.filter((b) => b.kind === "paragraph").map((b) => doc.text.slice(b.start, b.end));
  assert.equal(paragraphs[0], "The harbour was closed after the storm, and the federal inspectors came.");
  // "well-known" is spelt with its hyphen on the same page; "non-European" keeps it before a capital;
  // "SunSpider" is spelt without one elsewhere, so the break's hyphen goes.
  assert.equal(paragraphs[1], "A well-known pilot and a well-known captain met the non-European crew at SunSpider quay.");
  // Where the document spells neither form, the dictionary decides (src/text/english-words.ts): "self"
  // and "driving" are words and "selfdriving" is not, so the hyphen is the compound's own;
  // "inspection" and "particularly" are words, so their breaks are typesetting's, joined.
  assert.equal(paragraphs[2], "SunSpider quay is the old name; the ferry is self-driving, and no word of the document says otherwise.");
  assert.equal(paragraphs[3], "Her third-party inspection was particularly thorough.");
  // A number broken after its hyphen is one token again; a hyphen inside a URL is the URL's.
  assert.equal(paragraphs[4], "See ISBN 978-0521872652 and http://www.example.edu/data/data-umass for the log.");
  // A soft hyphen (a font mapping it to U+00AD) is invisible to a reader. pdfjs itself leaves it out
  // of a line's text (the parser's own removal is for text layers where it stays), so at a line's
  // end nothing marks the break: the lines are joined where the document spells the joined word
  // elsewhere and never writes the head inside a line.
  const soft = await parseDocument(
    buildSoftHyphenPdf([
      { lines: ["The har\u00ADbour master signs the log and reads the com\u00AD", "pass at noon."] },
      { lines: ["The compass is old. The harbourmaster reads the harbour", "master's log and the chart\u00AD", "room lamp."] },
      { lines: ["The table's columns read ll and then l", "l."] },
      { lines: ["The keeper lit the lan\u00AD", "tern at the Kes\u00AD", "tern rock."] },
    ]),
    "soft.pdf",
  );
  const softParagraphs = soft.blocks.map((b) => soft.text.slice(b.start, b.end));
  assert.equal(softParagraphs[0], "The harbour master signs the log and reads the compass at noon.");
  // "harbour" is written inside a line, so "harbour master" keeps its space although the document
  // spells "harbourmaster"; "chartroom" is spelt nowhere and "chart" is a word, so the unmarked
  // break stays a space (the gap left: nothing tells a broken compound from two words).
  assert.equal(softParagraphs[1], "The compass is old. The harbourmaster reads the harbour master's log and the chart room lamp.");
  // A single letter is never half of a hyphenated word: "l" + "l" stays apart although "ll" is spelt.
  assert.equal(softParagraphs[2], "The table's columns read ll and then l l.");
  // Spelt nowhere else: "lan" is no word and "lantern" is one, so the break is inside a word; a
  // capitalised head is a name, never taken for a fragment ("Kes tern" stays apart: the gap left).
  assert.equal(softParagraphs[3], "The keeper lit the lantern at the Kes tern rock.");
  // A sentence copied from a reader (which joins such words) is found as written.
  assert.equal(locateExcerpt(doc.text, "closed after the storm, and the federal inspectors")?.method, "exact");
  // Nothing is joined across paragraphs, and no line break inside a word is left as a space.
  assert.doesNotMatch(doc.text, /af- ter|fed- eral|Sun- Spider/);
});

test("running headers, footers and page numbers are page furniture: kept in the text with their offsets and pages, left out of chunks", async () => {
  const bytes = buildPdf([
    reportPage(1, [
      { lines: ["Annual Report"] },
      { lines: ["The harbour handled more ships this year than in any", "year before, and the new quay opened in May."] },
    ]),
    reportPage(2, [{ lines: ["Dredging of the outer channel finished in June, two", "weeks early, within its budget."] }]),
    reportPage(3, [{ lines: ["The ferry terminal was repainted and its ramps were", "replaced after the spring inspection."] }]),
    [
      ...reportPage(4, [{ lines: ["Next year the authority will extend the north pier."] }]),
      // A lone number low in the body (an equation's limit, a table's cell) is text; a roman page number in the margin is not.
      { text: "0", size: 10, y: 400 },
      { text: "iv", size: 9, y: 16 },
    ],
  ]);
  const doc = await parseDocument(bytes, "report.pdf");
  const furniture = doc.blocks.filter((b) => b.kind === "furniture");
  assert.deepEqual(
    furniture.map((b) => [b.page, b.text]),
    [
      ...[1, 2, 3, 4].flatMap((n) => [
        [n, "Harbour Authority · Annual Report 2025"],
        [n, `Confidential draft ${n}`],
      ]),
      [4, "iv"],
    ],
  );
  assert.ok(
    doc.blocks.some((b) => b.kind === "paragraph" && b.text === "0"),
    "the lone number in the body stays text",
  );
  for (const b of doc.blocks) assert.equal(doc.text.slice(b.start, b.end), b.text, "every block's offsets still hold");
  assert.ok(!doc.blocks.some((b) => b.kind !== "furniture" && /Confidential|Annual Report 2025/.test(b.text)), "no paragraph carries them");

  // Chunked, none of it reaches a chunk; kept when the setting says so. Offsets stay those of the stored text.
  const stored = { ...doc, id: "doc_1", filename: "report.pdf", paragraphCount: 0, chunkCounts: {}, createdAt: "" } as unknown as StoredDocument;
  const strategy = await recursiveStrategy.create({ chunk_size: 24, chunk_overlap: 0 });
  const chunk = (keepPageFurniture: boolean) =>
    chunkOffThread(strategy, { document: stored, embed: async () => [], keepPageFurniture }, { timeoutSeconds: 30 });
  const left = await chunk(false);
  assert.ok(left.length >= 3, `${left.length} chunks`);
  assert.ok(!left.some((c) => /Confidential|Harbour Authority/.test(c.text)), left.map((c) => c.text).join(" | "));
  const blanked = withoutPageFurniture(stored).text;
  assert.equal(blanked.length, doc.text.length, "blanked, not removed: the offsets are the stored text's");
  for (const c of left) assert.equal(blanked.slice(c.start, c.end), c.text);
  assert.ok(
    (await chunk(true)).some((c) => /Confidential draft 2/.test(c.text)),
    "keep_page_furniture chunks them with the text",
  );
  // A passage copied across a page break, as a reader gives it (no footer or header in its middle), is found as a reference.
  const [question] = (
    await locateOffThread(
      "q.json",
      [
        {
          question: "When did dredging finish?",
          expectedAnswer: null,
          references: [{ text: "and the new quay opened in May. Dredging of the outer channel" }],
        },
      ],
      [],
      [stored],
    )
  ).questions;
  const reference = question!.references[0]!;
  assert.match(
    doc.text.slice(reference.start, reference.end),
    /^and the new quay opened in May\.[\s\S]*Confidential draft 1[\s\S]*Dredging of the outer channel$/,
  );

  // Chunks cut from pdftotext's output keep the footer, the page number and the next page's header
  // in their middle: placed in the stored text, at the same offsets, and chunked with the furniture
  // blanked like every other strategy's chunks.
  const across = "within its budget. Confidential draft 2 Harbour Authority · Annual Report 2025 The ferry terminal was repainted";
  const imported = chunksFromList("mine", "chunks", [{ text: "Dredging of the outer channel finished in June, two weeks early," }, { text: across }]);
  assert.deepEqual((await locateOffThread("q.json", [], [imported], [stored])).chunksLocated, { mine: { exact: 1, normalised: 1 } });
  const mine = await importedChunksDefinition(imported, []).create();
  const drafts = await chunkOffThread(mine, { document: stored, embed: async () => [], keepPageFurniture: false }, { timeoutSeconds: 30 });
  assert.equal(drafts.length, 2);
  assert.match(doc.text.slice(drafts[1]!.start, drafts[1]!.end), /^within its budget\.[\s\S]*Confidential draft 2[\s\S]*repainted$/);
  assert.doesNotMatch(drafts[1]!.text, /Confidential|Harbour Authority/);
});

test("a journal's alternating running heads (authors on even pages, the title on odd ones) are furniture", async () => {
  const SEASONS = ["A calm spring", "A stormy summer", "A foggy autumn", "A frozen winter", "A wet spring", "A dry summer", "A mild autumn"];
  // As ACM's and most journals' classes set them: the first page has neither, then they alternate.
  const page = (n: number) => [
    ...(n === 1 ? [] : [{ text: n % 2 === 0 ? `${n}   Okafor and Lindqvist` : `Tidal Lights and Harbour Safety   ${n}`, size: 8, y: 812 }]),
    ...layoutParagraphs([{ lines: [`${SEASONS[n - 1]} was logged by the keepers of the north light.`, "The log is kept at the harbour office."] }], 700),
  ];
  const doc = await parseDocument(buildPdf(SEASONS.map((_, i) => page(i + 1))), "journal.pdf");
  assert.deepEqual(
    doc.blocks.filter((b) => b.kind === "furniture").map((b) => [b.page, b.text]),
    [2, 3, 4, 5, 6, 7].map((n) => [n, n % 2 === 0 ? `${n} Okafor and Lindqvist` : `Tidal Lights and Harbour Safety ${n}`]),
  );
  assert.equal(doc.blocks.filter((b) => b.kind === "paragraph").length, 7, "every page's body stays text");
});

test("a running head of two pieces (the venue at one margin, the authors or title at the other) is furniture by the piece its pages share", async () => {
  // As ACM's sigconf sets them on a five-page paper: the venue on every page but the first, at the
  // left on even pages (the authors at the right) and at the right on odd ones (the title at the
  // left). No whole line recurs on three pages; the venue does, on four.
  const VENUE = "Conference acronym XX, June 2018, Woodstock, NY";
  const head = (n: number) =>
    n % 2 === 0
      ? [
          { text: VENUE, size: 7, y: 812, x: 72 },
          { text: "Trovato et al.", size: 7, y: 812, x: 470 },
        ]
      : [
          { text: "The Name of the Title Is Hope", size: 7, y: 812, x: 72 },
          { text: VENUE, size: 7, y: 812, x: 330 },
        ];
  const page = (n: number) => [
    ...(n === 1 ? [] : head(n)),
    ...layoutParagraphs([{ lines: [`Section ${n} of the paper reports the keepers' log of the north light.`, "The log is kept at the harbour office."] }], 700),
  ];
  const doc = await parseDocument(buildPdf([1, 2, 3, 4, 5].map(page)), "sigconf.pdf");
  assert.deepEqual(
    doc.blocks.filter((b) => b.kind === "furniture").map((b) => [b.page, b.text]),
    [2, 3, 4, 5].map((n) => [n, n % 2 === 0 ? `${VENUE} Trovato et al.` : `The Name of the Title Is Hope ${VENUE}`]),
  );
  assert.equal(doc.blocks.filter((b) => b.kind === "paragraph").length, 5, "every page's body stays text");
});

test("a running head that changes with each short chapter is furniture by its page number, which counts the pages", async () => {
  // As Texinfo manuals set them: "Chapter 6: R and Emacs   27", chapters two pages long, the printed
  // number four more than the page's index (front matter). No head recurs on three pages.
  const TITLES = ["Tides", "Lights", "Charts"];
  const page = (n: number) => [
    { text: `Chapter ${Math.ceil(n / 2)}: ${TITLES[Math.ceil(n / 2) - 1]}`, size: 10, y: 812, x: 72 },
    { text: String(n + 4), size: 10, y: 812, x: 520 },
    ...layoutParagraphs([{ lines: [`Page ${n} of the manual describes the keepers' duties at the north light.`] }], 700),
  ];
  const doc = await parseDocument(buildPdf([1, 2, 3, 4, 5, 6].map(page)), "manual.pdf");
  assert.deepEqual(
    doc.blocks.filter((b) => b.kind === "furniture").map((b) => [b.page, b.text]),
    [1, 2, 3, 4, 5, 6].map((n) => [n, `Chapter ${Math.ceil(n / 2)}: ${TITLES[Math.ceil(n / 2) - 1]} ${n + 4}`]),
  );
  assert.equal(doc.blocks.filter((b) => b.kind === "paragraph").length, 6);
});

test("a heading that opens several pages is not furniture, nor is a line repeated only twice in a long document", async () => {
  const chapter = (n: number) => [
    { text: `Chapter ${n}`, size: 20, y: 700 },
    ...layoutParagraphs([{ lines: [`The text of chapter ${n} begins here and runs on.`] }], 660),
  ];
  const doc = await parseDocument(buildPdf([chapter(1), chapter(2), chapter(3), chapter(4), chapter(5)]), "book.pdf");
  assert.deepEqual(
    doc.blocks.filter((b) => b.kind === "heading").map((b) => b.text),
    ["Chapter 1", "Chapter 2", "Chapter 3", "Chapter 4", "Chapter 5"],
  );
  assert.equal(doc.blocks.filter((b) => b.kind === "furniture").length, 0);

  // A heading at the top margin of every page, at Word's Heading 2 over Normal (13 pt over 11 pt):
  // heading-sized, so a heading, though it recurs at the same edge and height.
  const lesson = (n: number) => [
    { text: `Lesson ${n}`, size: 13, y: 790 },
    ...layoutParagraphs([{ lines: [`The lesson ${n} starts with a short reading.`, "Then the class works through the exercises."], size: 11 }], 740),
  ];
  const lessons = await parseDocument(buildPdf([lesson(1), lesson(2), lesson(3), lesson(4)]), "lessons.pdf");
  assert.deepEqual(
    lessons.blocks.filter((b) => b.kind === "heading").map((b) => b.text),
    ["Lesson 1", "Lesson 2", "Lesson 3", "Lesson 4"],
  );
  assert.equal(lessons.title, "Lesson 1");
});

test("a page repeated whole, or a short page's only lines, are the page's text, not furniture: a running line frames body text", async () => {
  // Three identical pages of two short lines near the top (a form printed three times): every line
  // recurs at the same edge and height, yet marking them would leave no text to chunk.
  const page = layoutParagraphs([{ lines: ["The harbour pilot boards ships at the outer buoy.", "Tugs take over at the north quay in any weather."] }]);
  const doc = await parseDocument(buildPdf([page, page, page]), "form.pdf");
  assert.equal(doc.blocks.filter((b) => b.kind === "furniture").length, 0);
  assert.equal(doc.blocks.filter((b) => b.kind === "paragraph").length, 3, "one paragraph a page");
  const stored = { ...doc, id: "doc_form", filename: "form.pdf", paragraphCount: 0, chunkCounts: {}, createdAt: "" } as unknown as StoredDocument;
  const strategy = await recursiveStrategy.create({ chunk_size: 24, chunk_overlap: 0 });
  const chunks = await chunkOffThread(strategy, { document: stored, embed: async () => [], keepPageFurniture: false }, { timeoutSeconds: 30 });
  assert.ok(chunks.length >= 3, `${chunks.length} chunks`);

  // A report's header and footer stay furniture on a page with nothing else (a blank page, a figure's).
  const body = (n: number) => [{ lines: [`Section ${n} of the report describes the harbour's year in some detail.`] }];
  const report = await parseDocument(buildPdf([reportPage(1, body(1)), reportPage(2, body(2)), reportPage(3, []), reportPage(4, body(4))]), "report.pdf");
  assert.deepEqual(
    report.blocks.filter((b) => b.page === 3).map((b) => b.kind),
    ["furniture", "furniture"],
  );
});

/** A two-column page written row by row across the columns (as some PDF writers draw it), under a title across both. */
function twoColumnPage(left: string[], right: string[]) {
  const lines = [{ text: "Column Reading in Practice", size: 16, x: 150, y: 790 }];
  left.forEach((text, i) => {
    lines.push({ text, size: 10, x: 50, y: 740 - i * 13 });
    if (right[i]) lines.push({ text: right[i]!, size: 10, x: 310, y: 740 - i * 13 });
  });
  return lines;
}

test("a two-column page is read column by column, even when the file draws it row by row; a table's narrow columns are not", async () => {
  const left = [
    "The first column opens the argument and its", // every line runs the column's width
    "lines run down the left half of the page to", //
    "its foot before the reader turns to the right.", //
    "Nothing here belongs to the other column at", //
    "all, and a reader never mixes the two halves.", //
  ];
  const right = [
    "The second column continues on the right and", //
    "a reader reaches it only after the left one", //
    "ends, so its sentences follow the first ones", //
    "in the text that chunkeval extracts from the", //
    "page, exactly as a PDF reader copies them.", //
  ];
  const doc = await parseDocument(buildPdf([twoColumnPage(left, right)]), "paper.pdf");
  const body = doc.blocks.filter((b) => b.kind === "paragraph").map((b) => b.text);
  assert.equal(body.join(" "), [...left, ...right].join(" "));
  assert.equal(doc.blocks[0]!.text, "Column Reading in Practice", "the title across both columns comes first");
  assert.equal(locateExcerpt(doc.text, "its foot before the reader turns to the right. Nothing here belongs")?.method, "exact");

  // A two-column table (a short label, a short value) is read row by row, as before.
  const table = buildPdf([
    ["Opening hours", "Ticket price", "Guided tours", "Gift shop", "Parking"].flatMap((label, i) => [
      { text: label, size: 10, x: 50, y: 740 - i * 13 },
      { text: ["9 to 5", "4 euros", "hourly", "closed", "free"][i]!, size: 10, x: 330, y: 740 - i * 13 },
    ]),
  ]);
  const rows = (await parseDocument(table, "table.pdf")).text;
  assert.match(rows, /Opening hours 9 to 5/);
  assert.match(rows, /Parking free/);
});

test("ligatures and soft hyphens folded as a reader copies them: by pdf.js in its text layer, and by the parser where a line still holds them", async () => {
  // A typeset PDF whose font maps glyphs to the ligatures U+FB01 and U+FB02.
  const doc = await parseDocument(
    buildLigaturePdf([{ lines: ["The \x8aeld and the \x8bag of the \x8arst keeper,", "the \x8bow of the \x8aord."] }]),
    "lig.pdf",
  );
  assert.equal(doc.text, "The field and the flag of the first keeper, the flow of the fiord.");
  // Lines that still hold them (pdf.js with its normalisation off, another reader's text items).
  const line = (text: string, y: number) => ({ text, y, size: 12, page: 1, pageHeight: 842, x: 72, xEnd: 500 });
  const blocks = linesToBlocks([line("The \uFB01eld and the com\u00AD", 700), line("pass of the har\u00ADbour \uFB02ag.", 685)], 12);
  assert.deepEqual(
    blocks.map((b) => b.text),
    ["The field and the compass of the harbour flag."],
  );
});

test("accents TeX sets as glyphs before the letter are folded into it; a reference typed or copied with the accented letter is found", async () => {
  const line = (text: string, y: number) => ({ text, y, size: 12, page: 1, pageHeight: 842, x: 72, xEnd: 500 });
  const [block] = linesToBlocks(
    [
      line("Wirtschaftsuniversit\u00A8at Wien, T\u00B4errific, \u00A8Underwood, \u00B4E. Master (\u02DAA), Espa\u02DCna, TH\u00B4EOR`EME,", 700),
      // A URL's tilde, a backtick before a word (code) and a lone accent stay as they are.
      line("see http://x.edu/\u02DCCharlie, `echo` and \u00B4 alone; \u02C7Cech.", 685),
    ],
    12,
  );
  assert.equal(
    block!.text,
    "Wirtschaftsuniversität Wien, Térrific, Ünderwood, É. Master (Å), España, THÉORÈME, see http://x.edu/\u02DCCharlie, `echo` and \u00B4 alone; Čech.",
  );
  assert.equal(locateExcerpt(block!.text, "Wirtschaftsuniversität Wien")?.method, "exact");
  // pdftotext writes the letter and a combining accent: found as written once composed.
  assert.equal(locateExcerpt(block!.text, "Wirtschaftsuniversita\u0308t Wien")?.method, "exact");
});
