import type { Block } from "./types.js";

/** A block without its text, which is always the document text between its offsets. */
export type BlockShape = Omit<Block, "text">;

/**
 * Blocks without their text, for moving or storing a parsed document: a long document's
 * blocks repeat its whole text, which doubles what a worker hands back (copied on the
 * receiving event loop) and what a row holds.
 */
export function blockShapes(blocks: Block[]): BlockShape[] {
  return blocks.map((b) => ({ kind: b.kind, level: b.level, start: b.start, end: b.end, ...(b.page !== undefined ? { page: b.page } : {}) }));
}

/** The blocks again, each with its text sliced from the document text (a stored text, if present, is kept). */
export function blocksWithText(shapes: Array<BlockShape & { text?: string }>, text: string): Block[] {
  return shapes.map((b) => ({
    kind: b.kind,
    level: b.level,
    text: b.text ?? text.slice(b.start, b.end),
    start: b.start,
    end: b.end,
    ...(b.page !== undefined ? { page: b.page } : {}),
  }));
}
