import type { CharSpan } from "./metrics.js";

/**
 * Places the documents of a collection end to end on one axis, so span metrics written for one
 * text pool over a collection exactly as Chroma pools them over a multi-corpus collection: a
 * retrieved chunk of another document lies elsewhere on the axis, so it never overlaps the
 * question's references, yet its length still counts in the precision and IoU denominators.
 */
export class CorpusOffsets {
  private readonly bases = new Map<string, number>();
  /** The length of every document together: retrieving all of it is retrieval efficiency's 0. */
  readonly totalLength: number;

  constructor(documents: Array<{ id: string; text: string }>) {
    let at = 0;
    for (const d of documents) {
      this.bases.set(d.id, at);
      // One character of gap, so the end of one document never touches the start of the next.
      at += d.text.length + 1;
    }
    this.totalLength = Math.max(0, at - 1);
  }

  /** A span of one document, on the collection's axis. */
  place(documentId: string, span: CharSpan): CharSpan {
    const base = this.bases.get(documentId);
    if (base === undefined) throw new Error(`document ${documentId} is not part of this corpus`);
    return { start: base + span.start, end: base + span.end };
  }
}
