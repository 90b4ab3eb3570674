// Issue 38 item 2 (part): a text layer of glyph codes is refused with the pages it covers, like an
// image-only PDF, and so are letters in no language's pattern; a text of no letter or digit, or of a
// handful of characters, is refused as empty; a few bad pages are left out with a warning naming them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { parseDocument } from "../../src/parsers/parser.js";
import { lettersOutOfPattern } from "../../src/parsers/readability.js";
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
  // The unreadable page is left out, and the warning names it; a readable document has none.
  assert.ok(!/[\uE000-\uF8FF]/.test(mostlyReadable.text), "no glyph code is kept");
  assert.deepEqual([...new Set(mostlyReadable.blocks.map((b) => b.page))], [1, 2, 3]);
  assert.deepEqual(mostlyReadable.warnings, [
    "page 4 of mostly.pdf is glyph codes or control characters, not text: left out of the document (run OCR first for it)",
  ]);
  assert.equal((await parseDocument(buildGlyphCodePdf([page(READABLE), page(READABLE)]), "clean.pdf")).warnings, undefined);
});

test("a PDF's letters in no language's pattern are refused like glyph codes; real prose, code and acronyms in any Latin-script language are not", async () => {
  // A font table that maps each glyph to the letter three places on (the sentence shifted by 3), and letters drawn at random.
  const shifted = (text: string) => text.replace(/[a-z]/g, (c) => String.fromCharCode(((c.charCodeAt(0) - 97 + 3) % 26) + 97));
  const prose =
    "The harbour pilot boards ships at the outer buoy and guides them past the breakwater to the north quay, where the tugs take over. " +
    "In fog the pilot waits at the signal station until the visibility is above half a mile, and the harbour master records every delay.";
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const soup = Array.from({ length: 60 }, () =>
    Array.from({ length: 2 + Math.floor(random() * 6) }, () => String.fromCharCode(97 + Math.floor(random() * 26))).join(""),
  ).join(" ");
  const lines = (text: string) => text.match(/.{1,70}(\s|$)/g)!.map((l) => l.trim());
  for (const [name, text] of [
    ["shifted.pdf", shifted(prose)],
    ["soup.pdf", soup],
  ] as const) {
    assert.equal(lettersOutOfPattern(text), true, name);
    await refused(buildPdf([layoutParagraphs([{ lines: lines(text) }])]), name, new RegExp(`page 1 of ${name.replace(".", "\\.")} is glyph codes`));
  }
  // In a text format the same shapes are data inside a readable document (a key, base64): kept.
  const key = "mQINBFqJ3xkBEADQ7hv9rKzZbTq4pW8yXcVn2LmGd5sF1jH6tR0uY3eI9oA4wE7qB2cN8vM5xK1lP0zS6gT3fD9hJ2yU4iO7a";
  const security = `Reporting a vulnerability\n\nMail the maintainers with the details; we answer within a week.\n\n\`\`\`\n${`${key}\n`.repeat(12)}\`\`\`\n`;
  assert.equal(lettersOutOfPattern(key.repeat(12)), true, "the key's letters are out of pattern");
  assert.match((await parseDocument(Buffer.from(security), "SECURITY.md")).text, /Mail the maintainers/);
  const readable = [
    prose,
    // German, French, Spanish, Polish, Czech, Finnish
    "Der Lotse geht an der äußeren Boje an Bord und führt die Schiffe an der Mole vorbei zum Nordkai, wo " +
      "die Schlepper übernehmen. Bei Nebel wartet er an der Signalstation.",
    "Le pilote monte à bord des navires à la bouée extérieure et les guide le long de la digue jusqu'au quai " +
      "nord, où les remorqueurs prennent le relais par temps de brouillard.",
    "El práctico sube a bordo de los barcos en la boya exterior y los guía más allá del rompeolas hasta el " +
      "muelle norte, donde los remolcadores toman el relevo con niebla.",
    "Pilot wchodzi na pokład statków przy zewnętrznej boi i prowadzi je obok falochronu do północnego nabrzeża, " +
      "gdzie przejmują je holowniki. W czasie mgły czeka na stacji sygnałowej.",
    "Lodivod vstoupí na palubu lodí u vnější bóje a provede je kolem vlnolamu k severnímu molu, kde je převezmou " +
      "remorkéry. Za mlhy čeká na signální stanici, až se zlepší viditelnost.",
    "Luotsi nousee laivoihin ulkopoijulla ja ohjaa ne aallonmurtajan ohi pohjoislaiturille, jossa hinaajat ottavat " +
      "ne vastaan. Sumussa luotsi odottaa merkkiasemalla näkyvyyden paranemista.",
    // code, and a page of acronyms and gene names
    "const ctx = cfg.src ? pkg.cmd(str, fn) : npm.run(tsx, dst); for (let i = 0; i < n; i++) { sum += xs[i] * ws[i]; } return fmt(sum, dp); ".repeat(3),
    (
      "BRCA1 TP53 MYC KRAS PTEN EGFR HER2 CDKN2A SMAD4 NRAS BRAF PIK3CA APC VHL RB1 WT1 " +
      "NF1 NF2 RET KIT PDGFRA ALK ROS1 MET ERBB2 FGFR3 IDH1 IDH2 JAK2 MPL CALR "
    ).repeat(3),
  ];
  // Each sample twice over: the rule judges only 200 letters or more, and a repetition keeps the shares.
  for (const text of readable) {
    assert.ok((text.repeat(2).match(/[a-z]/gi)?.length ?? 0) >= 200, text.slice(0, 40));
    assert.equal(lettersOutOfPattern(text.repeat(2)), false, text.slice(0, 40));
  }
});

test("a text layer with no letter or digit is refused as empty; text of private-use characters is refused too", async () => {
  await refused(
    buildPdf([layoutParagraphs([{ lines: ["- . - ."] }])]),
    "scan.pdf",
    /contains no text: no letter or digit \(a scanned document\? run OCR first\)/,
  );
  // A handful of characters is no document to chunk (pdf.js's corpus has 240 files of under 20).
  await refused(
    buildPdf([layoutParagraphs([{ lines: ["p. 7"] }])]),
    "note.pdf",
    new RegExp(
      'note\\.pdf: the document contains almost no text \\(3 characters: "p\\. 7"; min_text_characters is 20\\): ' +
        "too little to chunk \\(a scanned document\\? run OCR first\\)",
    ),
  );
  await refused(
    Buffer.from("Only a line.\n"),
    "line.txt",
    /almost no text \(10 characters: "Only a line\."; min_text_characters is 20\): too little to chunk$/,
  );
  // Private-use characters are valid UTF-8, so the file is read as text, then refused (control characters are not UTF-8 text at all).
  await refused(
    Buffer.from("\uE000\uE001\uE002 \uE003\uE004\n\n\uE005\uE006 \uE007\n"),
    "notes.txt",
    /notes\.txt's text is glyph codes or control characters, not text: is it a binary file/,
  );
  await refused(Buffer.from("... --- !!! ???\n"), "marks.txt", /contains no text: no letter or digit/);
  // A short but real text file stays a document.
  assert.equal((await parseDocument(Buffer.from("Only the bytes count here."), "short.txt")).text, "Only the bytes count here.");
  // A Chinese or Japanese character is about a word: a 9-character Japanese sentence, 7 Chinese
  // characters, or 7 with the prolonged sound mark ー among them are a document; 3 of them and a stop are still a handful.
  assert.equal((await parseDocument(Buffer.from("今日は良い天気です"), "ja.txt")).text, "今日は良い天気です");
  assert.equal((await parseDocument(Buffer.from("港口灯塔值班表"), "zh.txt")).text, "港口灯塔值班表");
  assert.equal((await parseDocument(Buffer.from("サーバーの設定"), "ja2.txt")).text, "サーバーの設定");
  await refused(
    Buffer.from("第七页。"),
    "page.txt",
    /almost no text \(4 characters, 10 as Chinese and Japanese characters count 3 each: "第七页。"; min_text_characters is 20\)/,
  );
  // Thai is an alphabet: its letters count one each, as Latin ones do.
  await refused(Buffer.from("สวัสดีครับ"), "th.txt", /almost no text \(10 characters: "สวัสดีครับ"; min_text_characters is 20\)/);
  // A text in pages (form feeds, as pdftotext writes them) with one page of control characters:
  // read as text, that page left out with a warning naming it (blanked in the text as written, its
  // offsets kept), however large its share of the bytes.
  const pages = Array.from({ length: 20 }, (_, i) =>
    i === 5 ? "\x01\x02\x03\x04 \x05\x06\x07\x08\n".repeat(12) : `Page ${i + 1}. ${READABLE}\n${READABLE}\n`,
  );
  const paged = Buffer.from(pages.join("\f"));
  assert.ok(paged.toString().match(/[\x01-\x08]/g)!.length > paged.length * 0.01, "more control characters than the share a whole file may hold");
  const stored = await parseDocument(paged, "paged.txt");
  assert.deepEqual(stored.warnings, ["page 6 of paged.txt is glyph codes or control characters, not text: left out of the document (run OCR first for it)"]);
  assert.ok(stored.text.includes("Page 20.") && !/[\x01-\x08]/.test(stored.text));
  // Binary data with form feeds among its bytes is no text in pages.
  const binary = Buffer.from(Array.from({ length: 4096 }, (_, i) => [0x0c, 0x01, 0x41, 0x42, 0x02, 0x43, 0x44, 0x45][i % 8]!));
  await refused(binary, "data.txt", /control characters, more than text holds/);
  // Control characters in valid UTF-8 (no format takes them as text) are said to be what they are, not a wrong encoding.
  await refused(
    Buffer.from("\x01\x02\x03 \x04\x05\x06\x07\n".repeat(20)),
    "codes.txt",
    /codes\.txt: 78 % of its bytes are control characters, more than text holds \(1 %\): a binary file, or a terminal log with colour codes\?/,
  );
});
