import { docFormat } from "./doc.js";
import { docxFormat } from "./docx.js";
import type { DocumentFormat } from "./format.js";
import { htmlFormat } from "./html.js";
import { markdownFormat } from "./markdown.js";
import { pdfFormat } from "./pdf.js";
import { textFormat } from "./text.js";

/**
 * The document formats chunkeval reads, in detection order: binary signatures first (zip, OLE,
 * %PDF-), then HTML (text that opens as HTML), then Markdown (text named .md) and, last, any
 * other UTF-8 text. Adding a format is one file exporting a {@link DocumentFormat} and one line here.
 */
export const DOCUMENT_FORMATS: readonly DocumentFormat[] = [docxFormat, docFormat, pdfFormat, htmlFormat, markdownFormat, textFormat];

/** Upload extensions chunkeval reads (.htm and .markdown included). */
export const SUPPORTED_EXTENSIONS = DOCUMENT_FORMATS.flatMap((f) => [f.extension, ...(f.extensions ?? [])]);

/**
 * The formats as people name them, for every list shown to a person (help, messages, the API's
 * descriptions): ".docx, .doc, .pdf, .html, .md or .txt". Loading this loads the format modules
 * only: their libraries load when a file is parsed (lazy-require.ts).
 */
export const SUPPORTED_FORMATS_TEXT = ((names: string[]) => `${names.slice(0, -1).join(", ")} or ${names[names.length - 1]}`)(
  DOCUMENT_FORMATS.map((f) => f.extension),
);
