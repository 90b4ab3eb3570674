import { test } from "node:test";
import assert from "node:assert/strict";
import { SNIPPET_LIMITS } from "../helpers/snippet-limits.js";
import { parseDocument } from "../../src/parsers/parser.js";
import { htmlBlocks } from "../../src/parsers/html.js";
import { DEFAULT_PARSE_LIMITS } from "../../src/parsers/limits.js";
import { singleSpacedSource } from "../../src/parsers/text-family.js";
import { sectionsOf } from "../../src/domain/sections.js";
import type { ParsedDocument } from "../../src/domain/types.js";

// The HTML parser skips white-space scans where the source tells it the answer (a file without
// two spaces in a row, tabs or Unicode spaces). These tests pin its blocks, offsets and collapsed
// white space exactly, on both paths, so that a faster parser cannot yield anything else.

const page = (body: string) => `<!DOCTYPE html>\n<html><head><title>t</title></head><body>\n${body}\n</body></html>\n`;
const parse = (html: string) => parseDocument(Buffer.from(html), "page.html", SNIPPET_LIMITS);
const rows = (doc: ParsedDocument) => doc.blocks.map((b) => [b.kind, b.level, b.text, b.start, b.end]);

test("HTML blocks at exact offsets: heading levels and paths, paragraphs, nested and ordered list items, table rows", async () => {
  const doc = await parse(
    page(`<h1>Garden</h1>
<p>Intro <em>text</em>.</p>
<h2>Tools</h2>
<ol><li>Spade</li><li>Rake<ul><li>Leaf rake</li><li>Bow rake<ol><li>Steel</li></ol></li></ul></li><li>Hoe</li></ol>
<h4>Deep</h4>
<table><caption>Care</caption><tr><th>Plant</th><th>Water</th></tr><tr><td>Fern</td><td></td><td>Daily<br>at dawn</td></tr><tr><td></td></tr></table>
<h2>Soil</h2>
<div>Loam<div>and clay</div></div>
<h6>Notes</h6>`),
  );
  assert.deepEqual(rows(doc), [
    ["heading", 1, "Garden", 0, 6],
    ["paragraph", 0, "Intro text.", 8, 19],
    ["heading", 2, "Tools", 21, 26],
    ["list_item", 1, "Spade", 28, 33],
    ["list_item", 1, "Rake", 35, 39],
    ["list_item", 2, "Leaf rake", 41, 50],
    ["list_item", 2, "Bow rake", 52, 60],
    ["list_item", 3, "Steel", 62, 67],
    ["list_item", 1, "Hoe", 69, 72],
    ["heading", 4, "Deep", 74, 78],
    ["paragraph", 0, "Care", 80, 84],
    ["table_row", 0, "Plant | Water", 86, 99],
    ["table_row", 0, "Fern | Daily at dawn", 101, 121],
    ["heading", 2, "Soil", 123, 127],
    ["paragraph", 0, "Loam", 129, 133],
    ["paragraph", 0, "and clay", 135, 143],
    ["heading", 6, "Notes", 145, 150],
  ]);
  for (const b of doc.blocks) assert.equal(doc.text.slice(b.start, b.end), b.text);
  assert.equal(doc.text.length, 150);
  assert.deepEqual(
    sectionsOf(doc.blocks, doc.text.length).map((s) => s.headingPath.join(" > ")),
    ["Garden", "Garden > Tools", "Garden > Tools > Deep", "Garden > Soil", "Garden > Soil > Notes"],
  );
});

/** [body, the blocks' texts]: white space of every kind, as the source has it and as pieces meet. */
const WHITE_SPACE_CASES: Array<[string, string[]]> = [
  ["<p>a <b> b</b></p>", ["a b"]], // two pieces meet space to space
  ["<p>a&#9;b</p><p>c&#10;d</p><p>e&#13;f</p>", ["a b", "c d", "e f"]], // entities that decode to white space other than a space
  ["<p>g&nbsp;h&#8195;i</p>", ["g h i"]], // Unicode spaces
  ["<p>x&#32;&#32;y</p>", ["x y"]], // two space entities in a row
  ["<p> lead and trail </p>", ["lead and trail"]],
  ["<p>line\none\ttab</p><p>only\ta tab</p>", ["line one tab", "only a tab"]],
  ["<p>x<br> y</p><p>z <br>w</p>", ["x y", "z w"]], // a line break next to a space
  ["<h2>\n  Title\n</h2><li> item <i> one</i> </li>", ["Title", "item one"]],
  [
    "<table><tr><td> a <b> b</b> </td><td>c&#9;d</td><td>e\nf</td><td><p>p1</p><div>p2</div></td><td> </td><td>x<br>y</td></tr></table>",
    ["a b | c d | e f | p1 p2 | x y"],
  ],
  ["<table><tr><td>&#160;</td><td>only</td></tr></table>", ["only"]],
];

test("HTML white space collapses to single spaces, whether or not the source is single-spaced", async () => {
  for (const [body, expected] of WHITE_SPACE_CASES) {
    // The same body in a source with two spaces in a row elsewhere (a comment), which takes the general path.
    for (const html of [page(body), page(`${body}<!-- two  spaces -->`)]) {
      const doc = await parse(html);
      assert.deepEqual(
        doc.blocks.map((b) => b.text),
        expected,
        JSON.stringify(html),
      );
      assert.equal(doc.text, expected.join("\n\n"), JSON.stringify(html));
    }
  }
});

const seeded = (seed: number) => () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;

/** What the blocks must be: the general path's blocks, each text collapsed by the plain regex, at the offsets their join gives. */
function reference(html: string): Array<[string, number, string, number, number]> {
  const out: Array<[string, number, string, number, number]> = [];
  let at = 0;
  for (const b of htmlBlocks(html, "ref.html", DEFAULT_PARSE_LIMITS, false)) {
    const text = b.text.replace(/\s+/g, " ").trim();
    if (!text) continue;
    out.push([b.kind, b.level, text, at, at + text.length]);
    at += text.length + 2;
  }
  return out;
}

test("generated HTML, single-spaced or not: the blocks are the general path's, collapsed as /\\s+/ does, at their offsets", async () => {
  const rnd = seeded(7);
  const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)]!;
  const words = ["alpha", "beta", "R&amp;D", "x&lt;y", "&#32;", "&#10;", "&#9;", "&#160;", "&nbsp;", "&#x2003;", "&amp;", "<b>bold</b>", "<i> it </i>"];
  words.push("<br>", "<br/>", "<span></span>", "<a href='u'>link</a>", "<script>x y</script>", "<!-- c -->");
  // A single-spaced source (the fast path) is ASCII with no two spaces in a row, vertical tab or form feed: the other half has them all.
  const otherWords = [...words, "<script>x  y</script>", "café", "naïve", "a\u00a0b"];
  const inline = (spaced: boolean, k: number) => {
    const seps = spaced ? [" ", " ", " ", " ", " ", " ", "\n", " \n", "\t"] : [" ", "  ", "\t", "\n", " \n", "\u00a0", "\u2003", "\f"];
    return Array.from({ length: k }, () => pick(spaced ? words : otherWords)).reduce((s, w) => `${s}${pick(seps)}${w}`, pick(["", "", "", "\n"]));
  };
  let fastPath = 0;
  for (let n = 0; n < 300; n++) {
    const spaced = n % 2 === 0;
    const line = (k: number) => inline(spaced, k);
    const parts = Array.from({ length: 1 + Math.floor(rnd() * 8) }, () =>
      pick([
        () => ((h) => `<h${h}>${line(1 + Math.floor(rnd() * 3))}</h${h}>`)(1 + Math.floor(rnd() * 6)),
        () => `<p>${line(2 + Math.floor(rnd() * 8))}</p>`,
        () => `<div>${line(2)}<p>${line(2)}</p>${line(1)}</div>`,
        () => {
          const items = Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => `<li>${line(2)}${pick(["", `<ol><li>${line(1)}</li></ol>`])}</li>`);
          return `<ul>${items.join(pick(["", "\n"]))}</ul>`;
        },
        () => `<table>${pick(["", "\n"])}<tr><td>${line(1)}</td>${pick(["", " "])}<th>${line(2)}</th><td><p>${line(1)}</p>${line(1)}</td></tr></table>`,
        () => line(3),
      ])(),
    );
    const html = page(parts.join(pick(["", "\n"])));
    if (singleSpacedSource(Buffer.from(html))) fastPath++;
    let doc: ParsedDocument;
    try {
      doc = await parse(html);
    } catch (error) {
      assert.match(String(error), /contains no text/);
      // No block at all, or blocks without a letter or digit (punctuation only): nothing to chunk either way.
      assert.ok(
        reference(html).every(([, , text]) => !/[\p{L}\p{N}]/u.test(text)),
        JSON.stringify(html),
      );
      continue;
    }
    assert.deepEqual(rows(doc), reference(html), JSON.stringify(html));
    assert.equal(
      doc.text,
      reference(html)
        .map((b) => b[2])
        .join("\n\n"),
    );
  }
  assert.equal(fastPath, 150, "every other source is single-spaced");
});
