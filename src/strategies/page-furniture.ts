import type { StoredDocument } from "../domain/types.js";

/**
 * The document as chunking sees it: its page furniture (a PDF's running headers, footers and page
 * numbers, blocks of kind `furniture`) blanked with spaces and its furniture blocks left out, so
 * no chunk carries a header into the middle of a sentence, while every offset still points at the
 * same character of the stored text (references, chunk maps and pages stay true). The document
 * itself is not changed.
 */
export function withoutPageFurniture<D extends Pick<StoredDocument, "text" | "blocks">>(document: D): D {
  const furniture = document.blocks.filter((b) => b.kind === "furniture");
  if (furniture.length === 0) return document;
  let text = "";
  let at = 0;
  for (const block of furniture) {
    text += document.text.slice(at, block.start) + document.text.slice(block.start, block.end).replace(/[^\n]/g, " ");
    at = block.end;
  }
  text += document.text.slice(at);
  return { ...document, text, blocks: document.blocks.filter((b) => b.kind !== "furniture") };
}
