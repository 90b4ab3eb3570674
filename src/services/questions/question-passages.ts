// A document cut into the passages questions are generated from, in an order that spreads them
// over the document, and the document's description a generated file records.
import type { StoredDocument } from "../../domain/types.js";
import type { Span } from "../../text/spans.js";

/** Passages are runs of whole blocks up to this many characters (a few hundred tokens). */
const PASSAGE_MAX_CHARS = 1500;

/** Consecutive blocks grouped into passages; a block longer than the limit is a passage of its own. */
export function passages(doc: StoredDocument): Span[] {
  const out: Span[] = [];
  let current: Span | null = null;
  for (const block of doc.blocks) {
    if (current && block.end - current.start <= PASSAGE_MAX_CHARS) current.end = block.end;
    else {
      if (current) out.push(current);
      current = { start: block.start, end: block.end };
    }
  }
  if (current) out.push(current);
  return out;
}

/** Base-2 van der Corput order: any prefix of it is spread over the whole range, not its start. */
export function spreadOrder(n: number): number[] {
  const order: number[] = [];
  const seen = new Set<number>();
  for (let k = 0; order.length < n; k++) {
    let v = 0;
    for (let bit = 0.5, i = k; i > 0; i >>= 1, bit /= 2) if (i & 1) v += bit;
    const index = Math.floor(v * n);
    if (!seen.has(index)) {
      seen.add(index);
      order.push(index);
    }
  }
  return order;
}

export function documentInfo(doc: StoredDocument) {
  return { id: doc.id, filename: doc.filename, title: doc.title };
}
