/**
 * Builds the binary documents of the example corpus (examples/corpus/) from their text in
 * examples/content/:
 *   tidewater-quay-lease.pdf       (a commercial lease: a real text PDF set in Helvetica, headings
 *                                   in larger type, a rent table in columns, several pages)
 *   alder-street-trip-policy.docx  (a school's educational visits policy: headings, lists, two tables)
 * The Markdown, HTML and text documents of the corpus are their own source and are edited in place.
 * The PDF bytes come from the test suite's PDF writer (test/helpers/pdf.ts, `buildPdf`): this
 * script only lays the text out (wrapping, page breaks, table columns) and is not shipped.
 * Run: npm run examples:corpus:build
 */
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow, WidthType } from "docx";
import { buildPdf, type PdfLine, type PdfPage } from "../test/helpers/pdf.js";
import * as lease from "./content/corpus-lease.js";
import * as tripPolicy from "./content/corpus-trip-policy.js";

const here = dirname(fileURLToPath(import.meta.url));

// Helvetica's advance widths (per 1000 units of the font size) for ASCII 32-126, from its AFM.
// prettier-ignore
const HELVETICA = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556, 556, 556, 556, 556, 556,
  278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667,
  611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556, 333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833,
  556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
];

function textWidth(text: string, size: number): number {
  let units = 0;
  for (const ch of text) {
    const code = ch.charCodeAt(0);
    if (code < 32 || code > 126) throw new Error(`the PDF text must be ASCII (Helvetica, WinAnsi): ${JSON.stringify(ch)} in "${text}"`);
    units += HELVETICA[code - 32]!;
  }
  return (units * size) / 1000;
}

/** Greedy word wrap to `width` points. */
function wrap(text: string, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    const candidate = line ? `${line} ${word}` : word;
    if (line && textWidth(candidate, size) > width) {
      lines.push(line);
      line = word;
    } else line = candidate;
  }
  if (line) lines.push(line);
  return lines;
}

const PAGE_TOP = 780;
const PAGE_BOTTOM = 72;
const LEFT = 72;
const TEXT_WIDTH = 595 - 2 * LEFT;
const BODY = 11;
const HEADING = 14;
const TITLE = 18;

/**
 * Lays paragraphs out top-down over A4 pages: a paragraph never breaks across pages (the PDF
 * parser starts a new paragraph on each page anyway), a heading stays with what follows it, and
 * blocks are separated by more than the line spacing, which is how the parser tells them apart.
 */
class PdfLayout {
  readonly pages: PdfPage[] = [[]];
  private y = PAGE_TOP;

  private get page(): PdfPage {
    return this.pages[this.pages.length - 1]!;
  }

  private ensureRoom(height: number): void {
    if (this.y - height < PAGE_BOTTOM && this.page.length > 0) {
      this.pages.push([]);
      this.y = PAGE_TOP;
    }
  }

  /** One block: rows of positioned items, each row one baseline. `keepWith` reserves room for what follows. */
  block(rows: Array<Array<{ text: string; x: number }>>, size: number, gapAfter: number, keepWith = 0): void {
    const leading = Math.round(size * 1.25);
    this.ensureRoom(rows.length * leading + keepWith);
    for (const row of rows) {
      for (const item of row) this.page.push({ text: item.text, size, x: item.x, y: this.y } satisfies PdfLine);
      this.y -= leading;
    }
    this.y -= gapAfter;
  }

  paragraph(text: string, size = BODY, gapAfter = 12, indent = 0, keepWith = 0): void {
    this.block(
      wrap(text, size, TEXT_WIDTH - indent).map((line) => [{ text: line, x: LEFT + indent }]),
      size,
      gapAfter,
      keepWith,
    );
  }

  /** A table as columns on shared baselines: each row one block (the parser joins a row's cells with spaces). */
  table(rows: string[][]): void {
    const columns = rows[0]!.length;
    const widths = Array.from({ length: columns }, (_, c) => Math.max(...rows.map((r) => textWidth(r[c] ?? "", BODY))));
    const gutter = (TEXT_WIDTH - widths.reduce((a, b) => a + b, 0)) / Math.max(1, columns - 1);
    if (gutter < 12) throw new Error(`the table is too wide for the page: ${JSON.stringify(rows[0])}`);
    const xs = widths.map((_, c) => LEFT + widths.slice(0, c).reduce((a, b) => a + b, 0) + c * Math.min(gutter, 28));
    rows.forEach((row, i) => this.block([row.map((text, c) => ({ text, x: Math.round(xs[c]!) }))], BODY, i === rows.length - 1 ? 12 : 6));
  }
}

export function buildLeasePdf(): Buffer {
  const layout = new PdfLayout();
  layout.paragraph(lease.title, TITLE, 14);
  for (const p of lease.preamble) layout.paragraph(p);
  for (const section of lease.sections) {
    layout.paragraph(section.heading, HEADING, 8, 0, 4 * Math.round(BODY * 1.25));
    for (const part of section.parts) {
      if (typeof part === "string") layout.paragraph(part);
      else if ("list" in part) part.list.forEach((item, i) => layout.paragraph(item, BODY, i === part.list.length - 1 ? 12 : 6, 14));
      else layout.table(part.table);
    }
  }
  return buildPdf(layout.pages);
}

function table(rows: string[][]): Table {
  return new Table({
    width: { size: 100, type: WidthType.PERCENTAGE },
    rows: rows.map((cells) => new TableRow({ children: cells.map((c) => new TableCell({ children: [new Paragraph(c)] })) })),
  });
}

export async function buildTripPolicyDocx(): Promise<Buffer> {
  const children: Array<Paragraph | Table> = [new Paragraph({ text: tripPolicy.title, heading: HeadingLevel.TITLE })];
  for (const section of tripPolicy.sections) {
    children.push(new Paragraph({ text: section.heading, heading: section.level === 1 ? HeadingLevel.HEADING_1 : HeadingLevel.HEADING_2 }));
    for (const part of section.parts) {
      if (typeof part === "string") children.push(new Paragraph({ text: part, spacing: { after: 160 } }));
      else if ("list" in part) for (const item of part.list) children.push(new Paragraph({ text: item, bullet: { level: 0 } }));
      else children.push(table(part.table));
    }
  }
  return Packer.toBuffer(new Document({ title: tripPolicy.title, sections: [{ children }] }));
}

async function main(): Promise<void> {
  const dir = join(here, "corpus");
  const pdf = buildLeasePdf();
  writeFileSync(join(dir, "tidewater-quay-lease.pdf"), pdf);
  writeFileSync(join(dir, "alder-street-trip-policy.docx"), await buildTripPolicyDocx());
  console.log("wrote examples/corpus/tidewater-quay-lease.pdf and examples/corpus/alder-street-trip-policy.docx");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
