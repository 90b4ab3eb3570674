import { NotFoundError, ValidationError } from "../../errors.js";
import { newId, nowTimestamp } from "../../domain/ids.js";
import type { DocumentRecord, StoredDocument } from "../../domain/types.js";
import { parseInWorker } from "../../parsers/parse-pool.js";
import { parseLimitsOf } from "../../parsers/limits.js";
import { SUPPORTED_EXTENSIONS } from "../../parsers/registry.js";
import { cleanUploadName } from "../../domain/filenames.js";
import { DEFAULTS } from "../../config/defaults.js";
import { hashBytes } from "../../domain/hash.js";
import type { ServiceContext } from "../context.js";

export interface UploadInput {
  /** The name the user gave the file; recorded, never used as a path. */
  filename: string;
  bytes: Buffer;
}

export { SUPPORTED_EXTENSIONS };

/** True when a path names a file of a format chunkeval reads (by extension: a hint for arguments, not a check of content). */
export function isDocumentPath(path: string): boolean {
  const lower = path.toLowerCase();
  return SUPPORTED_EXTENSIONS.some((ext) => lower.endsWith(ext));
}

/**
 * What an upload returns: the document it stored, or the one already stored with the same bytes;
 * with what its parsing left out (unreadable pages), said when it was parsed (an upload of known
 * bytes parses nothing and says nothing).
 */
export type UploadedDocument = DocumentRecord & { alreadyStored: boolean; warnings: string[] };

export interface UploadOptions {
  /** Store a new document even when the same bytes are stored already (`upload --new`, `POST /documents?new=true`). */
  forceNew?: boolean;
}

/**
 * Parses and stores an uploaded document. Parsing happens before anything is written, in a
 * worker within the parsing limits, so a rejected or hostile file leaves no trace; the
 * original is kept under a generated name. Bytes already stored are not stored again (unless
 * `forceNew`): the document that holds them is returned, with `alreadyStored` set (of several
 * copies, the newest of the same file name, else the newest). The check
 * and the insert are one transaction, so processes sharing the data directory store them once.
 */
export async function uploadDocument(ctx: ServiceContext, input: UploadInput, options: UploadOptions = {}): Promise<UploadedDocument> {
  const filename = cleanUploadName(input.filename, DEFAULTS.maxFilenameLength);
  if (!filename) throw new ValidationError("the upload has no file name");
  const contentHash = hashBytes(input.bytes);
  // Known bytes need no parsing; the transaction below settles uploads racing this one.
  const known = options.forceNew ? null : await storedRecord(ctx, await ctx.documents.findByContentHash(contentHash, filename));
  if (known) return known;
  const parsed = await parseInWorker(input.bytes, filename, parseLimitsOf(ctx.config));
  const id = newId("doc");
  const filePath = await ctx.originals.put(`files/${id}.${parsed.format}`, input.bytes);
  let stored: string | null;
  try {
    stored = await ctx.documents.insertUnlessStored(
      {
        id,
        filename,
        format: parsed.format,
        title: parsed.title,
        paragraphCount: parsed.blocks.length,
        text: parsed.text,
        blocks: parsed.blocks,
        filePath,
        contentHash,
        createdAt: nowTimestamp(),
        warnings: parsed.warnings,
      },
      !options.forceNew,
    );
  } catch (error) {
    await ctx.originals.remove(filePath);
    throw error;
  }
  if (stored === null) return { ...(await ctx.documents.record(id))!, alreadyStored: false, warnings: parsed.warnings ?? [] };
  await ctx.originals.remove(filePath);
  // Deleted by another process since the transaction found it: store these bytes after all.
  return (await storedRecord(ctx, stored)) ?? uploadDocument(ctx, input, options);
}

/** The stored document that holds these bytes, with what reading them warned of when it was stored (the text still lacks those pages). */
async function storedRecord(ctx: ServiceContext, id: string | null): Promise<UploadedDocument | null> {
  const stored = id === null ? null : await ctx.documents.get(id);
  if (!stored) return null;
  // The record without what was extracted (the upload's answer is the record, as for a new document).
  const { format: _format, title: _title, text: _text, blocks: _blocks, warnings, ...record } = stored;
  return { ...record, alreadyStored: true, warnings: warnings ?? [] };
}

/** The id of a document given by id (which must exist), or of an upload: reused when the same bytes were uploaded before. */
export async function findOrUploadDocument(ctx: ServiceContext, document: { id: string } | UploadInput): Promise<{ id: string; uploaded: boolean }> {
  if ("id" in document) return { id: (await requireDocument(ctx, document.id)).id, uploaded: false };
  const { id, alreadyStored } = await uploadDocument(ctx, document);
  return { id, uploaded: !alreadyStored };
}

export async function listDocuments(ctx: ServiceContext, page: { offset: number; limit: number }) {
  return { ...(await ctx.documents.list(page.offset, page.limit)), offset: page.offset, limit: page.limit };
}

export async function requireDocument(ctx: ServiceContext, id: string): Promise<StoredDocument> {
  const doc = await ctx.documents.get(id);
  if (!doc) throw new NotFoundError(`document not found: ${id}`);
  return doc;
}

/**
 * Takes back a document this caller just uploaded, for a request refused before any work, unless
 * another caller uses it meanwhile (same bytes find the same document): then it stays. It was never
 * processed, so it has no chunks or vectors; only its row and stored original go.
 */
export async function takeBackUpload(ctx: ServiceContext, id: string): Promise<void> {
  const filePath = await ctx.documents.filePath(id);
  if (filePath !== null && (await ctx.documents.deleteIfUnused(id))) await ctx.originals.remove(filePath);
}

/** Deletes a document, its chunks and queries' target, its vectors and its stored original. */
export async function deleteDocument(ctx: ServiceContext, id: string): Promise<{ deleted: boolean; documentId: string }> {
  const filePath = await ctx.documents.filePath(id);
  if (filePath === null) throw new NotFoundError(`document not found: ${id}`);
  await ctx.documents.delete(id);
  // The original first: vectors the store fails to delete are found and removed by doctor
  // (orphans), an original left in the originals store by nothing.
  await ctx.originals.remove(filePath);
  await (await ctx.vectors()).deleteDocument(id);
  return { deleted: true, documentId: id };
}
