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
