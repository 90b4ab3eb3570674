/**
 * Layout shared by the example builders (examples/build-examples.ts, build-corpus.ts, build-standard.ts):
 * text PDFs laid out over A4 pages for the test suite's PDF writer, and Word tables.
 */
import { Paragraph, Table, TableCell, TableRow, WidthType } from "docx";
import type { PdfLine, PdfPage } from "../test/helpers/pdf.js";

// Helvetica's advance widths (per 1000 units of the font size) for ASCII 32-126, from its AFM.
// prettier-ignore
const HELVETICA = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556, 556, 556, 556, 556, 556,
  278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667,
  611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556, 333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833,
  556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
];

export function textWidth(text: string, size: number): number {
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

export const PAGE_TOP = 780;
const PAGE_BOTTOM = 72;
const LEFT = 72;
const TEXT_WIDTH = 595 - 2 * LEFT;
export const BODY = 11;
export const HEADING = 14;
export const TITLE = 18;

/**
 * Lays paragraphs out top-down over A4 pages: a paragraph never breaks across pages (the PDF
 * parser starts a new paragraph on each page anyway), a heading stays with what follows it, and
 * blocks are separated by more than the line spacing, which is how the parser tells them apart.
 */
export class PdfLayout {
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

/** A full-width Word table, one paragraph per cell. */
export function docxTable(rows: string[][]): Table {
  return new Table({
    width: { size: 100, type: WidthType.PERCENTAGE },
    rows: rows.map((cells) => new TableRow({ children: cells.map((c) => new TableCell({ children: [new Paragraph(c)] })) })),
  });
}
