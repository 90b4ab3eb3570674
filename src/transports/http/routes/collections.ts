import type { FastifyInstance } from "fastify";
import { ValidationError } from "../../../errors.js";
import type { RouteDeps } from "../route-deps.js";
import { collectionBody, idParams, pageQuery } from "../schemas.js";
import { boundedString, REQUEST_LIMITS as LIMIT } from "../request-limits.js";
import { toWire } from "../../serialize.js";
import { readMultipartUpload } from "../multipart.js";
import { documentedBody, multipartUpload } from "../upload-body.js";

const tags = ["collections"];

/** Collections: named sets of documents that `POST /benchmarks` with `collection_id` searches as one. */
export function collectionRoutes(app: FastifyInstance, { chunkeval, admission }: RouteDeps): void {
  app.get("/collections", { schema: { tags, summary: "List collections, newest first", querystring: pageQuery } }, async (request) => {
    return toWire(await chunkeval.listCollections(request.query as { offset: number; limit: number }));
  });

  app.post("/collections", { schema: { tags, summary: "Create a collection (409 when the name is taken)", body: collectionBody } }, async (request, reply) => {
    const body = request.body as { name: string; document_ids?: string[] };
    for (const id of body.document_ids ?? []) await chunkeval.getDocument(id); // 404 before anything is created
    const created = await chunkeval.createCollection(body.name);
    const collection = body.document_ids
      ? await chunkeval.addToCollection(
          created.id,
          body.document_ids.map((id) => ({ id })),
        )
      : created;
    return reply.status(201).send(toWire(collection));
  });

  app.get(
    "/collections/:collection_id",
    { schema: { tags, summary: "A collection with its documents (by id or name)", params: idParams("collection_id") } },
    async (request) => toWire(await chunkeval.getCollection((request.params as { collection_id: string }).collection_id)),
  );

  app.post(
    "/collections/:collection_id/documents",
    {
      config: documentedBody({
        "application/json": {
          type: "object",
          additionalProperties: false,
          required: ["document_ids"],
          properties: {
            document_ids: { type: "array", minItems: 1, maxItems: LIMIT.listItems, items: boundedString(LIMIT.name), description: "ids of stored documents" },
          },
        },
        "multipart/form-data": multipartUpload(),
      }),
      onRequest: async (request, reply) => admission.admitUpload(request, reply),
      schema: {
        tags,
        summary: "Add documents: JSON {document_ids} of stored documents, or multipart/form-data with one `file`",
        description:
          "An uploaded file is parsed and stored (or reused when the same bytes were uploaded before). " +
          "Only the added document is ever processed for the collection: the others keep their chunks.",
        params: idParams("collection_id"),
        consumes: ["application/json", "multipart/form-data"],
      },
    },
    async (request) => {
      const collectionId = (request.params as { collection_id: string }).collection_id;
      await chunkeval.getCollection(collectionId); // 404 before the upload is parsed
      if (request.isMultipart()) {
        const { file } = await readMultipartUpload(request, ["file"], chunkeval.config.maxUploadMb);
        if (!file) throw new ValidationError("the multipart body has no `file` part");
        return toWire(await chunkeval.addToCollection(collectionId, [file]));
      }
      const ids = parseDocumentIds(request.body);
      for (const id of ids) await chunkeval.getDocument(id);
      return toWire(
        await chunkeval.addToCollection(
          collectionId,
          ids.map((id) => ({ id })),
        ),
      );
    },
  );

  app.delete(
    "/collections/:collection_id/documents/:doc_id",
    {
      schema: {
        tags,
        summary: "Take a document out of a collection (the document, its chunks and vectors stay; DELETE /documents/{id} deletes them)",
        params: {
          type: "object",
          required: ["collection_id", "doc_id"],
          properties: { collection_id: boundedString(LIMIT.name), doc_id: boundedString(LIMIT.name) },
        },
      },
    },
    async (request) => {
      const { collection_id, doc_id } = request.params as { collection_id: string; doc_id: string };
      return toWire(await chunkeval.removeFromCollection(collection_id, doc_id));
    },
  );

  app.delete(
    "/collections/:collection_id",
    { schema: { tags, summary: "Delete a collection (its documents stay)", params: idParams("collection_id") } },
    async (request) => toWire(await chunkeval.deleteCollection((request.params as { collection_id: string }).collection_id)),
  );
}

/** The JSON form of an add: validated here because the route also takes multipart, which a body schema would refuse. */
function parseDocumentIds(body: unknown): string[] {
  const ids = (body as { document_ids?: unknown } | null)?.document_ids;
  const extra = body && typeof body === "object" ? Object.keys(body).filter((k) => k !== "document_ids") : [];
  if (extra.length > 0) throw new ValidationError(`unknown field "${extra[0]}" (fields: document_ids)`);
  if (!Array.isArray(ids) || ids.length === 0 || !ids.every((id) => typeof id === "string" && id.length > 0)) {
    throw new ValidationError("the body must be {document_ids: [...]}, a non-empty list of document ids, or multipart/form-data with a `file`");
  }
  return ids as string[];
}
