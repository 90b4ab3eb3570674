/** Documents as a transport meets them before the core runs: which paths name a document to upload. */
export { isDocumentPath } from "../services/corpus/documents.js";
