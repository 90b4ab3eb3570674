import type { FastifyRequest } from "fastify";
import { ChunkevalError, PayloadTooLargeError, ValidationError } from "../../errors.js";
import { REQUEST_LIMITS } from "./request-limits.js";

/** A text field of an upload (a domain, a name): longer values are refused (REQUEST_LIMITS.name). */
export const MAX_FIELD_BYTES = REQUEST_LIMITS.name;
/** Text fields an upload may carry at most (every upload route accepts one or two). */
export const MAX_FIELDS = 8;

export interface MultipartUpload {
  file?: { filename: string; bytes: Buffer };
  fields: Record<string, string>;
}

/**
 * Reads a multipart upload of one file and some text fields, accepting only `allowed` part
 * names. Everything a client can get wrong in the multipart framing (no or wrong boundary,
 * a truncated body, a second file) becomes a 422 or a 413 naming `max_upload_mb`, never a 500.
 */
export async function readMultipartUpload(request: FastifyRequest, allowed: readonly string[], maxUploadMb: number): Promise<MultipartUpload> {
  if (!request.isMultipart()) throw new ValidationError(`the body must be multipart/form-data with ${allowed.map((n) => `\`${n}\``).join(" and ")}`);
  const upload: MultipartUpload = { fields: {} };
  try {
    for await (const part of request.parts()) {
      if (!allowed.includes(part.fieldname)) {
        throw new ValidationError(`unexpected field "${part.fieldname.slice(0, 100)}" (allowed: ${allowed.join(", ")}; server-owned fields cannot be sent)`);
      }
      if (part.type === "file") {
        if (upload.file) throw new ValidationError("the multipart body has more than one file part");
        upload.file = { filename: part.filename || "upload", bytes: await part.toBuffer() };
      } else {
        if (part.valueTruncated) throw new ValidationError(`field "${part.fieldname}" is longer than ${MAX_FIELD_BYTES} bytes`);
        upload.fields[part.fieldname] = String(part.value);
      }
    }
  } catch (error) {
    throw describeMultipartError(error, maxUploadMb);
  }
  return upload;
}

function describeMultipartError(error: unknown, maxUploadMb: number): ChunkevalError {
  if (error instanceof ChunkevalError) return error;
  const code = (error as { code?: string }).code;
  if (code === "FST_REQ_FILE_TOO_LARGE") return new PayloadTooLargeError(`the file is larger than max_upload_mb (${maxUploadMb} MB)`);
  if (code === "FST_FILES_LIMIT") return new ValidationError("the multipart body has more than one file part");
  const reason = error instanceof Error ? error.message.split("\n")[0]!.slice(0, 200) : "unreadable";
  return new ValidationError(`malformed multipart/form-data body (${reason})`);
}
