import { ConflictError, NotFoundError, throwIfCancelled, ValidationError } from "../../errors.js";
import { DEFAULTS } from "../../config/defaults.js";
import { cleanUploadName } from "../../domain/filenames.js";
import { newId, nowTimestamp } from "../../domain/ids.js";
import type { CollectionRecord, RunOptions, StoredDocument } from "../../domain/types.js";
import type { ServiceContext } from "../context.js";
import { mapWithConcurrency } from "../../domain/concurrency.js";
import { findOrUploadDocument, requireDocument, takeBackUpload, type UploadInput } from "./documents.js";

const MAX_NAME_LENGTH = 100;

function checkName(name: string): string {
  const clean = name.trim();
  if (!clean) throw new ValidationError("a collection needs a name");
  // eslint-disable-next-line no-control-regex
  if (clean.length > MAX_NAME_LENGTH || /[\u0000-\u001f\u007f]/.test(clean)) {
    throw new ValidationError(`a collection name is 1 to ${MAX_NAME_LENGTH} printable characters`);
  }
  // Commands take a document id or a collection name in one place: a name never reads as an id.
  if (/^[a-z]+_[0-9a-f]{16}$/.test(clean)) throw new ValidationError(`"${clean}" looks like an id; give the collection a name`);
  return clean;
}

export async function requireCollection(ctx: ServiceContext, idOrName: string): Promise<CollectionRecord> {
  const found = await ctx.collections.find(idOrName);
  if (!found) throw new NotFoundError(`collection not found: ${idOrName}`);
  return found;
}

/** Creates an empty collection; a name already taken is a conflict. */
export async function createCollection(ctx: ServiceContext, name: string): Promise<CollectionRecord> {
  const clean = checkName(name);
  if (await ctx.collections.find(clean)) throw new ConflictError(`a collection named "${clean}" already exists`);
  return requireCollection(ctx, (await ctx.collections.ensure(newId("col"), clean, nowTimestamp())).id);
}

/** What one call added, so that a call refused before any work can take it back. */
export interface Additions {
  collection: CollectionRecord;
  /** Deletes the documents this call uploaded and the memberships it added, and the collection if it made it. */
  undo(): Promise<void>;
}

/**
 * Adds documents (ids, or files uploaded here: the same bytes reuse their document) to a
 * collection, creating it when `create` is set. Each is known in the collection by the name it
 * is added under (an upload's file name, else the document's), which references use. Only the
 * added documents are ever processed for it: a benchmark processes each document once per
 * strategy, whatever collections hold it. A file that cannot be read, or a name the collection
 * already has, leaves nothing behind.
 */
export async function addToCollection(
  ctx: ServiceContext,
  idOrName: string,
  documents: Array<{ id: string } | UploadInput>,
  options: RunOptions & { create?: boolean } = {},
): Promise<CollectionRecord> {
  return (await addWithUndo(ctx, idOrName, documents, options)).collection;
}

export async function addWithUndo(
  ctx: ServiceContext,
  idOrName: string,
  documents: Array<{ id: string } | UploadInput>,
  options: RunOptions & { create?: boolean } = {},
): Promise<Additions> {
  const found = await ctx.collections.find(idOrName);
  if (!found && !options.create) throw new NotFoundError(`collection not found: ${idOrName}`);
  const { id, created } = found ? { id: found.id, created: false } : await ctx.collections.ensure(newId("col"), checkName(idOrName), nowTimestamp());
  // Only what this call did is taken back: its own memberships and uploads, and the collection
  // if it made it and nobody else filled it meanwhile (other callers may add at the same time).
  const uploaded: string[] = [];
  let added: string[] = [];
  const undo = async () => {
    for (const documentId of added) await ctx.collections.removeDocument(id, documentId);
    for (const documentId of uploaded) await takeBackUpload(ctx, documentId);
    if (created) await ctx.collections.deleteIfEmpty(id);
  };
  try {
    const members: Array<{ id: string; filename: string }> = [];
    for (const [i, document] of documents.entries()) {
      throwIfCancelled(options.signal);
      options.onProgress?.({ stage: "upload", message: "filename" in document ? document.filename : document.id, done: i, total: documents.length });
      if ("id" in document) {
        members.push({ id: document.id, filename: (await ctx.documents.record(document.id))?.filename ?? (await requireDocument(ctx, document.id)).filename });
        continue;
      }
      const { id: documentId, uploaded: stored } = await findOrUploadDocument(ctx, document);
      if (stored) uploaded.push(documentId);
      members.push({
        id: documentId,
        filename: cleanUploadName(document.filename, DEFAULTS.maxFilenameLength) || (await ctx.documents.record(documentId))!.filename,
      });
    }
    // The last one read: the stage ends (its time left is no longer the run's).
    options.onProgress?.({ stage: "upload", message: `${documents.length} read`, done: documents.length, total: documents.length });
    added = await ctx.collections.addDocuments(id, members);
  } catch (error) {
    await undo().catch(() => undefined);
    throw error;
  }
  return { collection: await requireCollection(ctx, id), undo };
}

/** Takes a document (by id or file name) out of a collection; the document itself stays. */
export async function removeFromCollection(ctx: ServiceContext, idOrName: string, document: string): Promise<CollectionRecord> {
  const collection = await requireCollection(ctx, idOrName);
  const member = collection.documents.find((d) => d.id === document) ?? collection.documents.find((d) => d.filename === document);
  if (!member) throw new NotFoundError(`document ${document} is not in collection ${collection.name}`);
  await ctx.collections.removeDocument(collection.id, member.id);
  return requireCollection(ctx, collection.id);
}

/** Deletes a collection; its documents, their chunks and vectors stay (other collections may hold them). */
export async function deleteCollection(ctx: ServiceContext, idOrName: string): Promise<{ deleted: boolean; collectionId: string }> {
  const collection = await requireCollection(ctx, idOrName);
  await ctx.collections.delete(collection.id);
  return { deleted: true, collectionId: collection.id };
}

export async function listCollections(ctx: ServiceContext, page: { offset: number; limit: number }) {
  return { ...(await ctx.collections.list(page.offset, page.limit)), offset: page.offset, limit: page.limit };
}

/** A collection's documents with their texts and structure, in collection order, each named as the collection knows it. */
export async function collectionDocuments(ctx: ServiceContext, collection: CollectionRecord): Promise<StoredDocument[]> {
  if (collection.documents.length === 0)
    throw new ValidationError(`collection ${collection.name} has no documents; add some with: chunkeval collections add ${collection.name} FILES`);
  return mapWithConcurrency(collection.documents, 1, async (d) => ({ ...(await requireDocument(ctx, d.id)), filename: d.filename }));
}

/** What a benchmark or an estimate searches: one document, or a collection (created and filled from `add`). */
export interface CorpusTarget {
  document?: { id: string } | UploadInput;
  /** `add`: stored documents (by id) and files to upload, added to the collection first. */
  collection?: { name: string; add?: Array<{ id: string } | UploadInput> };
}

export interface Corpus {
  documents: StoredDocument[];
  collection: CollectionRecord | null;
  /** Takes back what resolving the target stored (uploads, a new collection), for a request refused before any work. */
  undo(): Promise<void>;
}

/** The documents a target names, uploading (or reusing) what it brings. */
export async function corpusOf(ctx: ServiceContext, target: CorpusTarget, options: RunOptions = {}): Promise<Corpus> {
  if (!target.document === !target.collection) throw new ValidationError("a benchmark takes one document or one collection");
  if (target.document) {
    const { id, uploaded } = await findOrUploadDocument(ctx, target.document);
    const undo = async () => void (uploaded ? await takeBackUpload(ctx, id) : undefined);
    // A file is known by the name it was given here, as in a collection, though its bytes may be
    // stored already under another name: references that name the file find it.
    const given = "filename" in target.document ? cleanUploadName(target.document.filename, DEFAULTS.maxFilenameLength) : "";
    const stored = await requireDocument(ctx, id);
    return { documents: [given ? { ...stored, filename: given } : stored], collection: null, undo };
  }
  const { name, add } = target.collection!;
  if (!add) {
    const collection = await requireCollection(ctx, name);
    return { documents: await collectionDocuments(ctx, collection), collection, undo: async () => undefined };
  }
  const { collection, undo } = await addWithUndo(ctx, name, add, { ...options, create: true });
  try {
    return { documents: await collectionDocuments(ctx, collection), collection, undo };
  } catch (error) {
    await undo().catch(() => undefined);
    throw error;
  }
}
