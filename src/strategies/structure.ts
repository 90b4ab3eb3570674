import type { Block } from "../domain/types.js";
import { sectionsOf } from "../domain/sections.js";
import { trimSpan, type Span } from "../text/spans.js";
import { TokenIndex } from "../text/token-index.js";
import { ValidationError } from "../errors.js";
import { packPieces, spansToDrafts } from "./packing.js";
import { splitRecursively } from "./recursive.js";
import { resolveOptions } from "./options.js";
import type { ChunkingStrategy, StrategyDefinition, StrategyParameter } from "./strategy.js";

const parameters: StrategyParameter[] = [
  { name: "max_tokens", description: "largest chunk, in tokens: a larger section is split (at its subsections, tables, then recursively)", default: 512 },
  { name: "min_tokens", description: "a chunk under this takes in the sections after it while the result fits max_tokens", default: 64 },
];

/**
 * Cuts a section's own text (its heading and body before any subsection) into pieces of at most
 * `max` tokens. Tables come first: a run of consecutive table rows is one table, kept whole when
 * it fits and cut between rows otherwise; the text around tables goes through the recursive
 * splitter (paragraphs, lines, sentences, words) and is packed without overlap.
 */
function splitOwnText(index: TokenIndex, blocks: readonly Block[], span: Span, max: number): Span[] {
  const own = trimSpan(index.text, span);
  if (own.end <= own.start) return [];
  if (index.fits(own.start, own.end, max)) return [own];
  const tables: Span[][] = [];
  let run: Span[] = [];
  for (const b of blocks) {
    if (b.start < own.start || b.end > own.end) continue;
    if (b.kind === "table_row") run.push({ start: b.start, end: b.end });
    else if (run.length > 0) (tables.push(run), (run = []));
  }
  if (run.length > 0) tables.push(run);
  const out: Span[] = [];
  const packText = (from: number, to: number) => {
    const segment = trimSpan(index.text, { start: from, end: to });
    if (segment.end > segment.start) out.push(...packPieces(index, splitRecursively(index, segment, max), max, 0));
  };
  let at = own.start;
  for (const rows of tables) {
    const table = { start: rows[0]!.start, end: rows[rows.length - 1]!.end };
    packText(at, table.start);
    if (index.fits(table.start, table.end, max)) out.push(table);
    else {
      const pieces = rows.flatMap((row) => splitRecursively(index, row, max));
      out.push(...packPieces(index, pieces, max, 0));
    }
    at = table.end;
  }
  packText(at, own.end);
  return out;
}

/**
 * A chunk under `min` tokens takes in the chunks after it while the merged span fits `max`
 * (runs of small sections become one chunk; a heading left alone joins the text under it); a
 * small last chunk joins the one before it if they fit together.
 */
function mergeSmall(index: TokenIndex, units: Span[], max: number, min: number): Span[] {
  const out: Span[] = [];
  for (const unit of units) {
    const last = out[out.length - 1];
    if (last && index.fits(last.start, last.end, min - 1) && index.fits(last.start, unit.end, max)) {
      out[out.length - 1] = { start: last.start, end: unit.end };
    } else out.push(unit);
  }
  if (out.length >= 2) {
    const [before, last] = [out[out.length - 2]!, out[out.length - 1]!];
    if (index.fits(last.start, last.end, min - 1) && index.fits(before.start, last.end, max)) out.splice(-2, 2, { start: before.start, end: last.end });
  }
  return out;
}

/**
 * Structure-aware chunk spans: one chunk per section (heading included) when it fits `max`
 * tokens; a larger section becomes its own text (split by splitOwnText) followed by its
 * subsections, each handled the same way; then small chunks merge (mergeSmall). A document
 * without headings is one section, so it comes out as recursive splitting packed by paragraph.
 */
export function structureSpans(index: TokenIndex, blocks: readonly Block[], max: number, min: number): Span[] {
  const text = index.text;
  const ordered = [...blocks].sort((a, b) => a.start - b.start);
  const sections = sectionsOf(ordered, text.length);
  const children = sections.map((): number[] => []);
  sections.forEach((s, i) => s.parent !== null && children[s.parent]!.push(i));
  const units: Span[] = [];
  const visit = (i: number): void => {
    const section = sections[i]!;
    const whole = trimSpan(text, { start: section.start, end: section.end });
    if (whole.end <= whole.start) return;
    if (index.fits(whole.start, whole.end, max)) {
      units.push(whole);
      return;
    }
    units.push(...splitOwnText(index, ordered, { start: section.start, end: section.ownEnd }, max));
    children[i]!.forEach(visit);
  };
  sections.forEach((s, i) => s.parent === null && visit(i));
  return mergeSmall(index, units, max, min);
}

export const structureStrategy: StrategyDefinition = {
  name: "structure",
  description:
    "One chunk per section along the heading path (heading included); larger sections split at subsections, " +
    "tables (kept whole if they fit) and then recursively; small sections merged.",
  parameters,
  sizing: { target: "max_tokens" },
  async create(given) {
    const options = resolveOptions("structure", parameters, given);
    const max = options.max_tokens!;
    const min = options.min_tokens!;
    if (!Number.isInteger(max) || max <= 0) throw new ValidationError("structure: max_tokens must be a whole number > 0");
    if (!Number.isInteger(min) || min <= 0 || min > max)
      throw new ValidationError("structure: min_tokens must be a whole number with 0 < min_tokens <= max_tokens");
    const strategy: ChunkingStrategy = {
      name: "structure",
      retrieval: "dense",
      options,
      async chunk({ document }) {
        const index = new TokenIndex(document.text);
        return spansToDrafts(index, structureSpans(index, document.blocks, max, min));
      },
    };
    return strategy;
  },
};
