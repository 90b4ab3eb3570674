import type { FastifyInstance } from "fastify";
import { ValidationError } from "../../../errors.js";
import type { RouteDeps } from "../route-deps.js";
import { backgroundQuery, idParams, pageQuery, processBody, uploadQuery } from "../schemas.js";
import { boundedString, REQUEST_LIMITS } from "../request-limits.js";
import { documentedBody, multipartUpload } from "../upload-body.js";
import { toWire } from "../../serialize.js";
import { withRequestCallBudget } from "../../request-call-budget.js";
import { checkQueueRoom, enqueueBody } from "./jobs.js";
import type { ProcessJobInput } from "../../job-handlers.js";
import { readMultipartUpload } from "../multipart.js";
import { refuseClientEmbedders } from "../client-embedders.js";
import { SUPPORTED_FORMATS_TEXT } from "../../../api/about.js";

export function documentRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const { chunkeval, jobs, admission } = deps;
  app.get("/documents", { schema: { tags: ["documents"], summary: "List documents, newest first", querystring: pageQuery } }, async (request) => {
    return toWire(await chunkeval.listDocuments(request.query as { offset: number; limit: number }));
  });

  app.post(
    "/documents",
    {
      config: documentedBody({ "multipart/form-data": multipartUpload() }),
      onRequest: async (request, reply) => admission.admitUpload(request, reply),
      schema: {
        tags: ["documents"],
        summary: `Upload a document: ${SUPPORTED_FORMATS_TEXT} (multipart/form-data, part \`file\`)`,
        description:
          "201 with the new document (`already_stored: false`). Bytes already stored are not stored again: 200 with the document " +
          "that holds them (`already_stored: true`, its own file name and id; of several stored copies, the newest with the uploaded file's name, " +
          "else the newest). `new=true` stores a new document whatever is stored (201).",
        consumes: ["multipart/form-data"],
        querystring: uploadQuery,
      },
    },
    async (request, reply) => {
      const { file } = await readMultipartUpload(request, ["file"], chunkeval.config.maxUploadMb);
      if (!file) throw new ValidationError("the multipart body has no `file` part");
      const document = await chunkeval.upload(file, { forceNew: (request.query as { new: boolean }).new });
      return reply.status(document.alreadyStored ? 200 : 201).send(toWire(document));
    },
  );

  app.get(
    "/documents/:doc_id",
    { schema: { tags: ["documents"], summary: "A document with its extracted text and blocks (kind, level, offsets, page)", params: idParams("doc_id") } },
    async (request) => toWire(await chunkeval.getDocument((request.params as { doc_id: string }).doc_id)),
  );

  app.get(
    "/documents/:doc_id/chunks",
    {
      schema: {
        tags: ["documents"],
        summary: "A processed strategy's (or variant's) chunks of the document: offsets, page, tokens, text",
        params: idParams("doc_id"),
        querystring: {
          type: "object",
          required: ["strategy"],
          additionalProperties: false,
          properties: { strategy: boundedString(REQUEST_LIMITS.variant, { description: "a strategy or variant: recursive, recursive@chunk_size=128" }) },
        },
      },
    },
    async (request) => {
      const { doc_id: documentId } = request.params as { doc_id: string };
      const { strategy } = request.query as { strategy: string };
      refuseClientEmbedders(chunkeval.config.embedder, { variants: strategy });
      return toWire(await chunkeval.documentChunks(documentId, strategy));
    },
  );

  app.delete(
    "/documents/:doc_id",
    { schema: { tags: ["documents"], summary: "Delete a document and its vectors", params: idParams("doc_id") } },
    async (request) => {
      const documentId = (request.params as { doc_id: string }).doc_id;
      await chunkeval.getDocument(documentId); // 404 before anything is cancelled
      await jobs.cancelForDocument(documentId); // first, so its jobs fail saying why, not "not found" midway
      return toWire(await chunkeval.deleteDocument(documentId));
    },
  );

  app.post(
    "/documents/:doc_id/process",
    {
      schema: {
        tags: ["documents"],
        summary: "Run chunking strategies (202 with a job when background=true)",
        params: idParams("doc_id"),
        querystring: backgroundQuery,
        body: processBody,
      },
    },
    async (request, reply) => {
      const documentId = (request.params as { doc_id: string }).doc_id;
      const strategies = (request.body as { strategies?: string[] } | undefined)?.strategies ?? "all";
      refuseClientEmbedders(chunkeval.config.embedder, { variants: strategies });
      if (!(request.query as { background: boolean }).background) {
        return toWire(
          await admission.runSync(reply, (signal) => withRequestCallBudget(chunkeval.config, () => chunkeval.process(documentId, strategies, { signal }))),
        );
      }
      await chunkeval.checkProcess(documentId, strategies); // refused now exactly as the synchronous request, not as a failed job later
      await checkQueueRoom(deps);
      const filename = (await chunkeval.getDocument(documentId)).filename;
      const input: ProcessJobInput = { documentId, strategies };
      const job = await jobs.enqueue({
        jobType: "process",
        params: { document_id: documentId, document_name: filename, strategies },
        input,
        document: { id: documentId, filename },
      });
      return reply.status(202).send(enqueueBody(job));
    },
  );
}
