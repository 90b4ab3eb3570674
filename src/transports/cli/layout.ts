import Table from "cli-table3";
import { cliIo, type CliStream } from "./io.js";

/** Without a terminal (a pipe, a CI log) and without COLUMNS, output is laid out for this width. */
export const DEFAULT_WIDTH = 100;
/** Narrower than this, nothing is gained by wrapping further: lines just run long. */
const MIN_WIDTH = 20;

/** The width output is laid out for: the terminal's; else COLUMNS; else DEFAULT_WIDTH. */
export function outputWidth(stream: CliStream = cliIo().stdout): number {
  if (stream.isTTY && stream.columns !== undefined && stream.columns > 0) return Math.max(MIN_WIDTH, stream.columns);
  const columns = Number(cliIo().env.COLUMNS);
  return Number.isInteger(columns) && columns > 0 ? Math.max(MIN_WIDTH, columns) : DEFAULT_WIDTH;
}

/** Characters on screen (code points: the arrows and ellipses we print are one column each). */
export function displayWidth(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

interface Piece {
  text: string;
  /** Whether a space separated it from the piece before (kept when both end up on one line). */
  spaced: boolean;
}

/** Characters a table cell may break after (a file name at its dashes, a path at its slashes, a list at its commas). */
const BREAK_AFTER = new Set(["/", ",", ";", "@", ":", "-", "="]);

/**
 * The unbreakable pieces of one line: words between spaces and, with `inWords`, the parts of a
 * word after one of BREAK_AFTER when a non-digit follows, so numbers, dates and ids stay whole
 * (and after two characters at least: "s/question" is one word).
 */
function pieces(line: string, inWords: boolean): Piece[] {
  const out: Piece[] = [];
  for (const word of line.split(" ")) {
    if (word === "") continue;
    const chars = [...word];
    let start = 0;
    chars.forEach((c, i) => {
      const next = chars[i + 1];
      if (inWords && BREAK_AFTER.has(c) && i > start + 1 && next !== undefined && !/\d/.test(next)) {
        out.push({ text: chars.slice(start, i + 1).join(""), spaced: start === 0 });
        start = i + 1;
      }
    });
    out.push({ text: chars.slice(start).join(""), spaced: start === 0 });
  }
  return out;
}

/** Fills lines of at most `width` characters with the pieces, in order; a piece longer than that gets a line of its own. */
function fill(parts: Piece[], width: number): string[] {
  const lines: string[] = [];
  let current = "";
  for (const p of parts) {
    const joined = current === "" ? p.text : current + (p.spaced ? " " : "") + p.text;
    if (current !== "" && displayWidth(joined) > width) {
      lines.push(current);
      current = p.text;
    } else current = joined;
  }
  return [...lines, current];
}

/** A table cell's text wrapped to `width` (its own line breaks kept). */
export function wrapCell(text: string, width: number): string {
  return text
    .split("\n")
    .flatMap((line) => fill(pieces(line, true), width))
    .join("\n");
}

/**
 * Prose wrapped at spaces to `width`, continuation lines indented two more than the first, so a
 * long note reads as one item. Words are never split (a path or a secret stays copyable).
 */
export function wrapProse(text: string, width: number): string {
  return wrapIndented(text, width, false);
}

/** Lines wrapped to `width` with continuations indented two more; `inWords`: also at a cell's break points. */
function wrapIndented(text: string, width: number, inWords: boolean): string {
  return text
    .split("\n")
    .map((line) => {
      if (displayWidth(line) <= width) return line;
      const indent = /^ */.exec(line)![0];
      const [first, ...rest] = fill(pieces(line, inWords), width - indent.length - 2);
      return [indent + first, ...rest.map((l) => `${indent}  ${l}`)].join("\n");
    })
    .join("\n");
}

/** Border and padding columns of a cli-table3 table of n columns: "│ " before each cell, " │" after the last. */
const frameWidth = (n: number) => 3 * n + 1;

interface Column {
  /** The widest line of its header and cells. */
  natural: number;
  /** The widest line of its cells: narrower than this, a cell wraps, not just the header. */
  body: number;
  /** As narrow as it gets: its widest unbreakable piece, or for a column of numbers its widest cell (the header still wraps). */
  min: number;
}

/** A cell that reads as a number (a score with its interval or change, a count, a date) or as nothing ("-", "n/a"). */
const NUMERIC_CELL = /^([-+]?\.?\d|-$|n\/a$|$)/;

function measure(header: string, body: string[]): Column {
  const widest = (lines: string[]) => Math.max(1, ...lines.map(displayWidth));
  const widestPiece = (lines: string[]) => Math.max(1, ...lines.flatMap((l) => pieces(l, true).map((p) => displayWidth(p.text))));
  const headerLines = header.split("\n");
  const bodyLines = body.flatMap((c) => c.split("\n"));
  const numbers = body.every((cell) => NUMERIC_CELL.test(cell));
  return {
    natural: Math.max(widest(headerLines), widest(bodyLines)),
    body: widest(bodyLines),
    min: Math.max(widestPiece(headerLines), numbers ? widest(bodyLines) : widestPiece(bodyLines)),
  };
}

/**
 * Widths for the columns within `width`, or null when even their minimum is too wide. A column is
 * narrowed a character at a time, the widest first (the last of equals, so a row's name is kept
 * longest): first down to its cells, wrapping only headers, then down to its minimum.
 */
function fit(columns: Column[], width: number): number[] | null {
  const widths = columns.map((c) => c.natural);
  const budget = width - frameWidth(columns.length);
  let total = widths.reduce((a, b) => a + b, 0);
  for (const floor of [(c: Column) => Math.max(c.min, c.body), (c: Column) => c.min]) {
    while (total > budget) {
      let widest = -1;
      widths.forEach((w, i) => {
        if (w > floor(columns[i]!) && (widest < 0 || w >= widths[widest]!)) widest = i;
      });
      if (widest < 0) break;
      widths[widest]!--;
      total--;
    }
  }
  return total > budget ? null : widths;
}

/**
 * Column groups that each fit `width`: all columns when they fit; else the first column (the
 * row's name) repeated with as many of the next columns as fit beside it, group after group.
 */
function groupColumns(columns: Column[], width: number): number[][] {
  const all = columns.map((_, i) => i);
  if (columns.length <= 1 || fit(columns, width)) return [all];
  const groups: number[][] = [];
  let group = [0];
  for (const i of all.slice(1)) {
    const wider = [...group, i];
    if (
      group.length > 1 &&
      !fit(
        wider.map((c) => columns[c]!),
        width,
      )
    ) {
      groups.push(group);
      group = [0, i];
    } else group = wider;
  }
  return [...groups, group];
}

/**
 * A table too wide for `width` even in groups (a narrow terminal): a record per row, its first
 * cell as "header: value" and the others indented below it, so ids and numbers stay whole and
 * can be copied. A value that does not fit beside its header goes below it, and one that does
 * not fit there either wraps at a cell's break points.
 */
function renderRecords(head: string[], rows: string[][], width: number): string {
  const oneLine = (text: string) => text.split("\n").join(" ");
  const field = (indent: string, header: string, value: string) => {
    const line = `${indent}${header}: ${value}`;
    if (displayWidth(line) <= width || displayWidth(indent) + 2 + displayWidth(value) > width) return wrapIndented(line, width, true);
    return `${indent}${header}:\n${indent}  ${value}`;
  };
  return rows.flatMap((row) => head.map((h, i) => field(i === 0 ? "" : "  ", oneLine(h), oneLine(row[i] ?? "")))).join("\n");
}

/**
 * A plain bordered table no wider than `width`: text columns (names, paths, lists, prose) wrap,
 * widest first; a column of numbers keeps its cells on one line (only its header wraps), and
 * dates and ids never break. When even that is too wide (a scorecard in
 * an 80-column terminal), the columns are shown in groups, each led by the first column; when
 * a group of two is still too wide (a 40-column terminal), each row is shown as a record.
 * A table of no rows whose unbreakable pieces alone exceed the width is drawn at their width.
 */
export function renderTable(head: string[], rows: string[][], width: number): string {
  const columns = head.map((h, i) =>
    measure(
      h,
      rows.map((r) => r[i] ?? ""),
    ),
  );
  const groups = groupColumns(columns, width);
  const fitted = groups.map((group) =>
    fit(
      group.map((c) => columns[c]!),
      width,
    ),
  );
  if (rows.length > 0 && fitted.some((widths) => widths === null)) return renderRecords(head, rows, width);
  return groups
    .map((group, g) => {
      const widths = fitted[g] ?? group.map((c) => columns[c]!.min);
      const table = new Table({
        head: group.map((c, i) => wrapCell(head[c]!, widths[i]!)),
        colWidths: widths.map((w) => w + 2),
        style: { head: [], border: [] },
      });
      for (const row of rows) table.push(group.map((c, i) => wrapCell(row[c] ?? "", widths[i]!)));
      return table.toString();
    })
    .join("\n");
}
