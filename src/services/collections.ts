import { ConflictError, NotFoundError, ValidationError } from "../errors.js";
import { newId, nowTimestamp } from "../domain/ids.js";
import type { CollectionRecord, RunOptions, StoredDocument } from "../domain/types.js";
import type { ServiceContext } from "./context.js";
import { findOrUploadDocument, requireDocument, type UploadInput } from "./documents.js";

const MAX_NAME_LENGTH = 100;

function checkName(name: string): string {
  const clean = name.trim();
  if (!clean) throw new ValidationError("a collection needs a name");
  // eslint-disable-next-line no-control-regex
  if (clean.length > MAX_NAME_LENGTH || /[\u0000-\u001f\u007f]/.test(clean)) {
    throw new ValidationError(`a collection name is 1 to ${MAX_NAME_LENGTH} printable characters`);
  }
  return clean;
}

export function requireCollection(ctx: ServiceContext, idOrName: string): CollectionRecord {
  const found = ctx.collections.find(idOrName);
  if (!found) throw new NotFoundError(`collection not found: ${idOrName}`);
  return found;
}

/** Creates an empty collection; a name already taken is a conflict. */
export function createCollection(ctx: ServiceContext, name: string): CollectionRecord {
  const clean = checkName(name);
  if (ctx.collections.find(clean)) throw new ConflictError(`a collection named "${clean}" already exists`);
  return requireCollection(ctx, ctx.collections.ensure(newId("col"), clean, nowTimestamp()));
}

/**
 * Adds documents (ids, or files uploaded here: the same bytes reuse their document) to a
 * collection, creating it when `create` is set. Only the added documents are ever processed
 * for it: a benchmark processes each document once per strategy, whatever collections hold it.
 */
export async function addToCollection(
  ctx: ServiceContext,
  idOrName: string,
  documents: Array<{ id: string } | UploadInput>,
  options: RunOptions & { create?: boolean } = {},
): Promise<CollectionRecord> {
  const id = options.create ? ctx.collections.ensure(newId("col"), checkName(idOrName), nowTimestamp()) : requireCollection(ctx, idOrName).id;
  const ids: string[] = [];
  for (const [i, document] of documents.entries()) {
    options.onProgress?.({ stage: "upload", message: "filename" in document ? document.filename : document.id, done: i, total: documents.length });
    ids.push(await findOrUploadDocument(ctx, document));
  }
  ctx.collections.addDocuments(id, ids);
  return requireCollection(ctx, id);
}

/** Takes a document (by id or file name) out of a collection; the document itself stays. */
export function removeFromCollection(ctx: ServiceContext, idOrName: string, document: string): CollectionRecord {
  const collection = requireCollection(ctx, idOrName);
  const member = collection.documents.find((d) => d.id === document) ?? collection.documents.find((d) => d.filename === document);
  if (!member) throw new NotFoundError(`document ${document} is not in collection ${collection.name}`);
  ctx.collections.removeDocument(collection.id, member.id);
  return requireCollection(ctx, collection.id);
}

/** Deletes a collection; its documents, their chunks and vectors stay (other collections may hold them). */
export function deleteCollection(ctx: ServiceContext, idOrName: string): { deleted: boolean; collectionId: string } {
  const collection = requireCollection(ctx, idOrName);
  ctx.collections.delete(collection.id);
  return { deleted: true, collectionId: collection.id };
}

export function listCollections(ctx: ServiceContext, page: { offset: number; limit: number }) {
  return { ...ctx.collections.list(page.offset, page.limit), offset: page.offset, limit: page.limit };
}

/** A collection's documents with their texts and structure, in collection order. */
export function collectionDocuments(ctx: ServiceContext, collection: CollectionRecord): StoredDocument[] {
  if (collection.documents.length === 0)
    throw new ValidationError(`collection ${collection.name} has no documents; add some with: chunkeval collections add ${collection.name} FILES`);
  return collection.documents.map((d) => requireDocument(ctx, d.id));
}

/** What a benchmark or an estimate searches: one document, or a collection (created and filled from `add`). */
export interface CorpusTarget {
  document?: { id: string } | UploadInput;
  collection?: { name: string; add?: UploadInput[] };
}

export interface Corpus {
  documents: StoredDocument[];
  collection: CollectionRecord | null;
}

/** The documents a target names, uploading (or reusing) what it brings. */
export async function corpusOf(ctx: ServiceContext, target: CorpusTarget, options: RunOptions = {}): Promise<Corpus> {
  if (!target.document === !target.collection) throw new ValidationError("a benchmark takes one document or one collection");
  if (target.document) return { documents: [requireDocument(ctx, await findOrUploadDocument(ctx, target.document))], collection: null };
  const { name, add } = target.collection!;
  const collection = add ? await addToCollection(ctx, name, add, { ...options, create: true }) : requireCollection(ctx, name);
  return { documents: collectionDocuments(ctx, collection), collection };
}
