import { DEFAULTS } from "../config/defaults.js";
import type { ChunkevalConfig } from "../config/schema.js";
import { PayloadTooLargeError } from "../errors.js";
import type { ZipLimits } from "./zip-guard.js";

const MB = 1024 * 1024;

/** What opening one uploaded file may cost; each field is a setting (docs/configuration.md "Configuration"). */
export interface ParseLimits {
  /** `max_upload_mb`, for every entry point (CLI, POST /documents, POST /v1/files). */
  maxUploadBytes: number;
  zip: ZipLimits;
  /** `max_pdf_pages`. */
  maxPdfPages: number;
  /** `min_text_characters`: a document's text holds at least this many visible characters. */
  minTextCharacters: number;
  /** `max_html_elements` and `max_html_depth`. */
  maxHtmlElements: number;
  maxHtmlDepth: number;
  /** `parse_timeout_seconds`: the parsing worker is stopped past it. */
  timeoutSeconds: number;
  /** `parse_memory_mb`: the parsing worker's heap; a file that needs more is refused. */
  memoryMb: number;
}

export function parseLimitsOf(config: Pick<ChunkevalConfig, "maxUploadMb" | "parsing">): ParseLimits {
  return {
    maxUploadBytes: config.maxUploadMb * MB,
    zip: {
      maxUnpackedBytes: config.parsing.maxUnpackedMb * MB,
      maxCompressionRatio: config.parsing.maxCompressionRatio,
      maxEntries: config.parsing.maxZipEntries,
    },
    maxPdfPages: config.parsing.maxPdfPages,
    minTextCharacters: config.parsing.minTextCharacters,
    maxHtmlElements: config.parsing.maxHtmlElements,
    maxHtmlDepth: config.parsing.maxHtmlDepth,
    timeoutSeconds: config.parsing.timeoutSeconds,
    memoryMb: config.parsing.memoryMb,
  };
}

export const DEFAULT_PARSE_LIMITS: ParseLimits = parseLimitsOf({
  maxUploadMb: DEFAULTS.maxUploadMb,
  parsing: {
    maxUnpackedMb: DEFAULTS.maxUnpackedMb,
    maxCompressionRatio: DEFAULTS.maxCompressionRatio,
    maxZipEntries: DEFAULTS.maxZipEntries,
    maxPdfPages: DEFAULTS.maxPdfPages,
    minTextCharacters: DEFAULTS.minTextCharacters,
    maxHtmlElements: DEFAULTS.maxHtmlElements,
    maxHtmlDepth: DEFAULTS.maxHtmlDepth,
    timeoutSeconds: DEFAULTS.parseTimeoutSeconds,
    memoryMb: DEFAULTS.parseMemoryMb,
  },
});

/** The upload-size check every entry point shares. */
export function checkUploadSize(size: number, filename: string, maxUploadBytes: number): void {
  if (size > maxUploadBytes) {
    throw new PayloadTooLargeError(`${filename}: the file is larger than max_upload_mb (${maxUploadBytes / MB} MB)`);
  }
}
