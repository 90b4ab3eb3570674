import type { FastifyInstance } from "fastify";
import type { RouteDeps } from "../route-deps.js";
import { idParams, queryBody } from "../schemas.js";
import { toWire } from "../../serialize.js";
import { withRequestCallBudget } from "../../request-call-budget.js";
import { refuseClientEmbedders } from "../client-embedders.js";

export function queryRoutes(app: FastifyInstance, { chunkeval }: RouteDeps): void {
  app.get("/strategies", { schema: { tags: ["strategies"], summary: "List the chunking strategies" } }, async () => ({ strategies: chunkeval.strategies() }));

  app.post(
    "/queries",
    { schema: { tags: ["queries"], summary: "Ask a question about a document with one strategy", body: queryBody } },
    async (request, reply) => {
      const body = request.body as { document_id: string; strategy: string; question: string; top_k?: number };
      refuseClientEmbedders(chunkeval.config.embedder, { variants: body.strategy });
      const query = await withRequestCallBudget(chunkeval.config, () =>
        chunkeval.ask({ documentId: body.document_id, strategy: body.strategy, question: body.question, topK: body.top_k }),
      );
      return reply.status(201).send(toWire(query));
    },
  );

  app.get("/queries/:query_id", { schema: { tags: ["queries"], summary: "Fetch a past query", params: idParams("query_id") } }, async (request) => {
    return toWire(await chunkeval.getQuery((request.params as { query_id: string }).query_id));
  });
}
