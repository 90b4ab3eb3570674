// How a PDF page's text items become lines in the order a person reads them: lines rebuilt from
// pdfjs's items, a two-column page read column by column, and the running headers, footers and
// page numbers repeated across pages recognised as page furniture (pdf.ts keeps them in the text,
// as blocks of their own, and chunking leaves them out).

/** A line of text rebuilt from pdfjs's text items. */
export interface Line {
  text: string;
  /** Baseline from the page's bottom, and the line's largest font height. */
  y: number;
  size: number;
  page: number;
  /** The height of the line's page, in the same units as `y`. */
  pageHeight: number;
  /** Left and right edges of the line's text. */
  x: number;
  xEnd: number;
  /** A running header or footer, or a page number, repeated across pages (markFurniture). */
  furniture?: boolean;
  /**
   * The line's pieces set apart by more than two ems (a header's title at the left margin and its
   * authors at the right one), where there are several: a running header is recognised by a piece
   * when a two-column page reads its halves as two lines and the facing page's header holds another title.
   */
  parts?: string[];
}

export interface TextItemLike {
  str: string;
  transform: number[];
  width: number;
  height: number;
  hasEOL: boolean;
}

const itemX = (item: TextItemLike) => item.transform[4] ?? 0;
const itemY = (item: TextItemLike) => item.transform[5] ?? 0;

/**
 * Lines of one run of items: items join until one ends a line (hasEOL) or the next sits on
 * another baseline; a space goes between items the text leaves a gap between.
 */
/** A gap between two items of a line wider than this many times its font size starts a new piece of it (Line.parts). */
const PART_GAP_EMS = 2;

function linesOf(items: TextItemLike[], page: number, pageHeight: number): Line[] {
  const lines: Line[] = [];
  let current: Line | null = null;
  // Where the line's last visible item ends: a run of spaces between a header's two pieces is an item too.
  let inkEnd = 0;
  for (const item of items) {
    const x = itemX(item);
    const y = itemY(item);
    const size = Math.abs(item.height) || Math.abs(item.transform[3] ?? 0);
    if (item.str.length > 0) {
      if (current && Math.abs(current.y - y) > Math.max(current.size, size) * 0.5) {
        lines.push(current);
        current = null;
      }
      if (!current) {
        current = { text: item.str, y, size, page, pageHeight, x, xEnd: x + item.width };
        inkEnd = x + item.width;
      } else {
        const gap = x - current.xEnd;
        const visible = item.str.trim().length > 0;
        if (visible && x - inkEnd > PART_GAP_EMS * Math.max(size, current.size)) (current.parts ??= [current.text.trim()]).push(item.str.trim());
        else if (current.parts) current.parts[current.parts.length - 1] += gap > Math.max(1, size * 0.15) ? ` ${item.str}` : item.str;
        current.text += gap > Math.max(1, size * 0.15) && !/\s$/.test(current.text) && !/^\s/.test(item.str) ? ` ${item.str}` : item.str;
        current.size = Math.max(current.size, size);
        current.x = Math.min(current.x, x);
        current.xEnd = x + item.width;
        if (visible) inkEnd = x + item.width;
      }
    }
    if (item.hasEOL && current) {
      lines.push(current);
      current = null;
    }
  }
  if (current) lines.push(current);
  return lines.filter((l) => l.text.trim().length > 0);
}

/** Appends to the list under `key` in place: copying the list on every item made a page of many items cost their square. */
function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.floor(sorted.length / 2)]!;
};

/** The whole points an item's text covers strictly inside its edges (a point of slack each side). */
const coveredFrom = (item: TextItemLike) => Math.ceil(itemX(item) + 1);
const coveredTo = (item: TextItemLike) => Math.floor(itemX(item) + item.width - 1);
const crosses = (item: TextItemLike, x: number) => coveredFrom(item) <= x && x < coveredTo(item);

/**
 * Where a page's columns would part: the middle of the widest run of points, between 30 % and
 * 70 % of the width, that the fewest items cross (counted once per point of width, so a page of
 * thousands of items costs one pass over them).
 */
function gutterOf(items: TextItemLike[], width: number): { x: number; width: number } | null {
  const span = Math.ceil(width) + 2;
  if (!Number.isFinite(span) || span <= 2) return null;
  const starts = new Int32Array(span + 1);
  for (const item of items) {
    const [from, to] = [Math.max(0, coveredFrom(item)), Math.min(span, coveredTo(item))];
    if (to > from) ((starts[from]! += 1), (starts[to]! -= 1));
  }
  let best: { from: number; to: number; crossing: number } | null = null;
  let crossing = 0;
  for (let x = 0; x < span; x++) {
    crossing += starts[x]!;
    if (x < width * 0.3 || x > width * 0.7) continue;
    if (!best || crossing < best.crossing) best = { from: x, to: x, crossing };
    else if (crossing === best.crossing && best.to === x - 1) best.to = x;
  }
  return best === null ? null : { x: Math.floor((best.from + best.to) / 2), width: best.to - best.from + 1 };
}

/**
 * A page's lines in reading order. A page set in two columns (a gutter near the middle that
 * lines of prose on both sides stop at, side by side over the same height) is read column by
 * column: top down, a line across both columns (a title, an abstract, a wide figure's caption)
 * where it stands, and between such lines the left column's stretch, then the right one's. pdfjs gives items in the order the file draws them,
 * which some writers interleave row by row across columns; joined by baseline, the two
 * columns' lines would read as one. Any other page keeps the file's order.
 */
export function pageLines(items: TextItemLike[], page: number, pageWidth: number, pageHeight: number): Line[] {
  const text = items.filter((i) => i.str.trim().length > 0);
  const found = text.length >= 6 ? gutterOf(text, pageWidth) : null;
  // A gutter is wider than the space between two words: one em of the text at least (8 points at the
  // smallest). In a single column the least-crossed points are a word space some lines share.
  const em = median(text.map((i) => Math.abs(i.height) || Math.abs(i.transform[3] ?? 0)));
  if (found === null || found.width < Math.max(8, em)) return linesOf(items, page, pageHeight);
  const gutter = found.x;
  const acrossRows = rowsAcross(text, gutter, em);
  const across = text.filter((i) => acrossRows.has(rowOf(i, em)));
  const left = text.filter((i) => !acrossRows.has(rowOf(i, em)) && itemX(i) < gutter);
  const right = text.filter((i) => !acrossRows.has(rowOf(i, em)) && itemX(i) >= gutter);
  const [leftLines, rightLines] = [linesOf(left, page, pageHeight), linesOf(right, page, pageHeight)];
  if (!isColumn(leftLines, gutter - Math.min(...leftLines.map((l) => l.x))) || !isColumn(rightLines, Math.max(...rightLines.map((l) => l.xEnd)) - gutter)) {
    return linesOf(items, page, pageHeight);
  }
  // A wide table's cells leave gaps inside each side's rows too; prose runs on with word spaces.
  if (isTabular(left, em) || isTabular(right, em)) return linesOf(items, page, pageHeight);
  // Side by side: the columns share most of their height.
  const [leftTop, leftBottom] = [Math.max(...leftLines.map((l) => l.y)), Math.min(...leftLines.map((l) => l.y))];
  const [rightTop, rightBottom] = [Math.max(...rightLines.map((l) => l.y)), Math.min(...rightLines.map((l) => l.y))];
  const shared = Math.min(leftTop, rightTop) - Math.max(leftBottom, rightBottom);
  if (shared < 0.5 * Math.min(leftTop - leftBottom, rightTop - rightBottom)) return linesOf(items, page, pageHeight);
  // Top down: a row across the page is read where it stands; between two such rows, the left
  // column's stretch, then the right one's.
  const rows = [...new Set(text.map((i) => rowOf(i, em)))].sort((a, b) => b - a);
  const out: Line[] = [];
  let section: number[] = [];
  const flush = () => {
    const inSection = new Set(section);
    out.push(
      ...linesOf(
        left.filter((i) => inSection.has(rowOf(i, em))),
        page,
        pageHeight,
      ),
    );
    out.push(
      ...linesOf(
        right.filter((i) => inSection.has(rowOf(i, em))),
        page,
        pageHeight,
      ),
    );
    section = [];
  };
  for (const row of rows) {
    if (!acrossRows.has(row)) {
      section.push(row);
      continue;
    }
    flush();
    out.push(
      ...linesOf(
        across.filter((i) => rowOf(i, em) === row),
        page,
        pageHeight,
      ),
    );
  }
  flush();
  return out;
}

/** The row an item's baseline sits on, to half an em. */
const rowOf = (item: TextItemLike, em: number) => Math.round(itemY(item) / Math.max(1, em / 2));

/**
 * The rows that run across the gutter rather than stop at it: a row with an item crossing it, or
 * whose text on either side of it is no further apart than a word space (a full-width line that
 * the file happened to cut into items there, at a ligature say). A row of two columns leaves the
 * gutter's width between them.
 */
function rowsAcross(items: TextItemLike[], gutter: number, em: number): Set<number> {
  const rows = new Map<number, { crossing: boolean; leftEnd: number; rightStart: number }>();
  for (const item of items) {
    const key = rowOf(item, em);
    const row = rows.get(key) ?? { crossing: false, leftEnd: -Infinity, rightStart: Infinity };
    if (crosses(item, gutter)) row.crossing = true;
    else if (itemX(item) < gutter) row.leftEnd = Math.max(row.leftEnd, itemX(item) + item.width);
    else row.rightStart = Math.min(row.rightStart, itemX(item));
    rows.set(key, row);
  }
  return new Set([...rows].filter(([, row]) => row.crossing || row.rightStart - row.leftEnd < em).map(([key]) => key));
}

/**
 * Whether one side's rows are a table's: more than a fifth of its rows of several items hold a gap
 * wider than an em and a half between two items (cells), where a column of prose has word spaces.
 */
function isTabular(items: TextItemLike[], em: number): boolean {
  const rows = new Map<number, TextItemLike[]>();
  for (const item of items) pushTo(rows, rowOf(item, em), item);
  const several = [...rows.values()].filter((row) => row.length > 1);
  const gapped = several.filter((row) => {
    const sorted = [...row].sort((a, b) => itemX(a) - itemX(b));
    return sorted.slice(1).some((item, i) => itemX(item) - (itemX(sorted[i]!) + sorted[i]!.width) > 1.5 * em);
  });
  return several.length > 0 && gapped.length > several.length / 5;
}

/** Lines that read as a column of prose `width` wide: enough of them, most running most of its width (a table's narrow cells do not). */
function isColumn(lines: Line[], width: number): boolean {
  if (lines.length < 3 || width <= 0) return false;
  return median(lines.map((l) => l.xEnd - l.x)) >= 0.6 * width;
}

/** A line that is only a page number: "7", "- 7 -", "Page 7", "7 of 12", "Page 7 of 12", "iv". */
const PAGE_NUMBER = /^(?:page\s+)?[-–—(]?\s*(?:\d{1,5}|[ivxlc]{1,7})\s*[-–—)]?(?:\s*(?:of|\/)\s*\d{1,5})?$/i;

/** A line set at least this many times the body text's size is a heading's size (pdf.ts). */
export const HEADING_SIZE_RATIO = 1.15;

/** How many of a page's top and bottom lines (by height on the page) may be a header or a footer. */
const EDGE_LINES = 2;
/** The share of a page's height at its top and at its bottom that a running header or footer is printed in. */
const MARGIN_BAND = 0.15;

/** A header's or footer's text with its numbers as `#`: "Chapter 3 · page 41" repeats as "chapter # · page #". */
const furnitureKey = (text: string) => text.trim().toLowerCase().replace(/\d+/g, "#").replace(/\s+/g, " ");

/** A piece shorter than this many letters ("p.", "Notes") recurs too easily to mark its line on its own. */
const MIN_PART_LETTERS = 8;

/** What an edge line is recognised by: its whole text, and each of its pieces long enough to tell (Line.parts). */
function keysOf(line: Line): string[] {
  const parts = (line.parts ?? []).filter((p) => (p.match(/\p{L}/gu)?.length ?? 0) >= MIN_PART_LETTERS).map(furnitureKey);
  // A line of marks alone ("}" closing code at the foot of several pages) is the text's, not a header.
  return [...new Set([furnitureKey(line.text), ...parts])].filter((key) => /[\p{L}#]/u.test(key));
}

/**
 * Marks the page furniture among the lines of a whole document: among each page's two top and
 * two bottom lines, in the page's top or bottom 15 %, a page number, and a line whose text
 * (numbers aside) recurs at the same edge on at least three pages (or on every page of a shorter
 * document), at about the same height and smaller than a heading (a chapter's heading opening
 * several pages is larger, or lower), unless most of its pages hold no other text.
 */
export function markFurniture(lines: Line[], bodySize: number): void {
  const pages = new Map<number, Line[]>();
  for (const line of lines) pushTo(pages, line.page, line);
  const edges: Array<{ line: Line; key: string; inBand: boolean }> = [];
  for (const pageLines of pages.values()) {
    const byHeight = [...pageLines].sort((a, b) => b.y - a.y);
    // The upper half's only: on a page of two lines, a footer is not its "top" line.
    const top = byHeight.slice(0, EDGE_LINES).filter((l) => l.pageHeight <= 0 || l.y >= l.pageHeight / 2);
    const bottom = byHeight.slice(-EDGE_LINES).filter((l) => !top.includes(l));
    // A page number may sit anywhere at the edge; a running line only in the margin's band.
    const inBand = (l: Line) => l.pageHeight <= 0 || l.y >= l.pageHeight * (1 - MARGIN_BAND) || l.y <= l.pageHeight * MARGIN_BAND;
    for (const [edge, at] of [
      [top, "top"],
      [bottom, "bottom"],
    ] as const) {
      for (const line of edge) for (const key of keysOf(line)) edges.push({ line, key: `${at} ${key}`, inBand: inBand(line) });
    }
  }
  const byKey = new Map<string, Line[]>();
  for (const { line, key, inBand } of edges) if (inBand) pushTo(byKey, key, line);
  const needed = Math.min(3, pages.size);
  // The lines that recur as a running header or footer, by their key.
  const running = new Map<Line, string>();
  for (const { line, key, inBand } of edges) {
    // In the margin only: a lone number near a page's edge inside the body is an equation's or a table's.
    if (inBand && PAGE_NUMBER.test(line.text.trim())) {
      line.furniture = true;
      continue;
    }
    const same = byKey.get(key);
    if (!same) continue;
    const onPages = new Set(same.map((l) => l.page)).size;
    if (pages.size < 2 || onPages < needed) continue;
    const height = median(same.map((l) => l.y));
    const steady = same.every((l) => Math.abs(l.y - height) <= 2 * l.size);
    // Set smaller than a heading, by the heading rule's own measure (pdf.ts: the rounded size against
    // the rounded body size), so a line is never both: a header a little larger than the body text
    // is common (11.4 pt over a 10 pt body in the dccpaper class), "Lesson 3" at 13 pt over 11 pt
    // opening every page is a heading.
    if (steady && Math.round(line.size) < bodySize * HEADING_SIZE_RATIO) running.set(line, key);
  }
  // A running head that changes with the chapter ("Chapter 6: R and Emacs   27") recurs as no line
  // or piece does when chapters are short; its page number does: a piece at either end of an edge
  // line that counts the pages, the printed number a steady distance from the page's index.
  const numbered = new Map<number, Line[]>();
  for (const { line, inBand } of edges) {
    const parts = line.parts ?? [];
    const number = [parts[0], parts.at(-1)].find((p) => p !== undefined && /^\d{1,5}$/.test(p.trim()));
    if (inBand && parts.length >= 2 && number !== undefined && Math.round(line.size) < bodySize * HEADING_SIZE_RATIO) {
      pushTo(numbered, Number(number) - line.page, line);
    }
  }
  for (const same of numbered.values()) {
    if (new Set(same.map((l) => l.page)).size >= needed && pages.size >= 2) for (const line of same) running.set(line, `page number ${line.page}`);
  }
  // A running line frames body text: one whose pages mostly hold nothing else (a page repeated
  // whole, a form printed several times) is the text, not furniture. Judged per line, over all its
  // pages, so a report's header stays furniture on its blank or figure-only pages too.
  const runningByKey = new Map<string, Line[]>();
  for (const [line, key] of running) pushTo(runningByKey, key, line);
  const holdsBody = (page: number) => pages.get(page)!.some((l) => !l.furniture && !running.has(l));
  for (const same of runningByKey.values()) {
    const onPages = new Set(same.map((l) => l.page));
    const withBody = [...onPages].filter(holdsBody).length;
    if (withBody > 0 && withBody * 2 >= onPages.size) for (const line of same) line.furniture = true;
  }
}
