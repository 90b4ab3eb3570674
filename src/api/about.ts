/**
 * What this build is and which documents it reads: for help texts, error messages and the
 * OpenAPI document. Light: the format registry names its formats without loading their parsers.
 */
export { CHUNKEVAL_VERSION } from "../version.js";
export { SUPPORTED_EXTENSIONS, SUPPORTED_FORMATS_TEXT } from "../parsers/registry.js";
