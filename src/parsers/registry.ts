import { docFormat } from "./doc.js";
import { docxFormat } from "./docx.js";
import type { DocumentFormat } from "./format.js";

/**
 * The document formats chunkeval reads, in detection order. Adding one (a PDF parser, say) is
 * one file exporting a {@link DocumentFormat} and one line here.
 */
export const DOCUMENT_FORMATS: readonly DocumentFormat[] = [docxFormat, docFormat];
