import type { Block } from "./types.js";

/**
 * A section of a document: a heading and everything up to the next heading of the same or a
 * higher level (so it holds its subsections), or the text before the first heading. Offsets are
 * into the document text and cover the heading line itself.
 */
export interface Section {
  /** Offset of the heading (or of the first block of a preamble). */
  start: number;
  /** End of the section's last block, subsections included. */
  end: number;
  /** End of the section's own text: its last block before its first subsection (the heading's end if it has none of its own). */
  ownEnd: number;
  /** Heading level, 1 and deeper; 0 for the text before the first heading (or a document without headings). */
  level: number;
  /** Texts of the headings from the outermost down to this section's own (empty for level 0). */
  headingPath: string[];
  /** Index in the returned list of the enclosing section, or null at the top. */
  parent: number | null;
}

/**
 * The sections of a document, in document order, outer sections before the ones they contain.
 * A document without headings is one level-0 section; text before the first heading is its own
 * level-0 section (with no blocks at all, the whole text is). Heading levels below 1 count as 1; a skipped level (1 then 3) nests the
 * deeper heading in the nearest shallower one.
 */
export function sectionsOf(blocks: readonly Block[], textLength: number): Section[] {
  const ordered = blocks.filter((b) => b.end > b.start && b.start >= 0 && b.end <= textLength).sort((a, b) => a.start - b.start);
  // No structure at all (a text handed over without blocks): the whole text is one section.
  if (ordered.length === 0) return textLength > 0 ? [{ start: 0, end: textLength, ownEnd: textLength, level: 0, headingPath: [], parent: null }] : [];
  const sections: Section[] = [];
  const open: number[] = []; // indices of the sections still open, outermost first
  let firstHeading = ordered.findIndex((b) => b.kind === "heading");
  if (firstHeading === -1) firstHeading = ordered.length;
  if (firstHeading > 0) {
    const last = ordered[firstHeading - 1]!;
    sections.push({ start: ordered[0]!.start, end: last.end, ownEnd: last.end, level: 0, headingPath: [], parent: null });
  }
  for (let i = firstHeading; i < ordered.length; i++) {
    const block = ordered[i]!;
    if (block.kind !== "heading") {
      // Body text extends every open section. The innermost one owns it: it never had a
      // subsection yet, since any later heading either nests in it or closes it.
      for (const s of open) sections[s]!.end = block.end;
      sections[open[open.length - 1]!]!.ownEnd = block.end;
      continue;
    }
    const level = Math.max(1, block.level);
    while (open.length > 0 && sections[open[open.length - 1]!]!.level >= level) open.pop();
    const parent = open.length > 0 ? open[open.length - 1]! : null;
    const path = [...(parent === null ? [] : sections[parent]!.headingPath), block.text.trim()];
    sections.push({ start: block.start, end: block.end, ownEnd: block.end, level, headingPath: path, parent });
    for (const s of open) sections[s]!.end = block.end;
    open.push(sections.length - 1);
  }
  return sections;
}
