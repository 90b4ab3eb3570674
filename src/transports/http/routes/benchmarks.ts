import type { FastifyInstance } from "fastify";
import { experimentBody } from "../../experiment-body.js";
import type { RouteDeps } from "../route-deps.js";
import { backgroundQuery, benchmarkBody, ciQuery, idParams, pageQuery, reportQuery } from "../schemas.js";
import { toWire } from "../../serialize.js";
import { withRequestCallBudget } from "../../request-call-budget.js";
import { ValidationError } from "../../../errors.js";
import { checkQueueRoom, enqueueBody } from "./jobs.js";
import { DEFAULTS } from "../../../config/defaults.js";
import { REQUEST_LIMITS } from "../request-limits.js";
import type { SearchMode } from "../../../domain/variant-key.js";
import { refuseClientEmbedders } from "../client-embedders.js";
import { chunksFromList, eachImport } from "../../../api/imported-chunks.js";
import type { ReportFormat, ReportView } from "../../../api/index.js";
import { questionsFromRequest } from "../../../api/question-set.js";

/** The variant limit of a request: its max_variants, which may not pass the server's http_max_variants (the default is capped to it). */
function variantLimit(asked: number | undefined, serverLimit: number): number {
  if (asked !== undefined && asked > serverLimit) {
    throw new ValidationError(`max_variants is at most ${serverLimit} on this server (its http_max_variants), got ${asked}`);
  }
  return asked ?? Math.min(DEFAULTS.maxSweepVariants, serverLimit);
}

/** The gates a request asks for, or none: checked on the finished run and returned in the experiment's `gates`. */
function gateRequestOf(body: {
  fail_under?: string[];
  fail_over?: string[];
  baseline_experiment_id?: string;
  fail_on_regression?: string;
  max_drop?: string[];
}) {
  const request = {
    failUnder: body.fail_under,
    failOver: body.fail_over,
    baselineExperimentId: body.baseline_experiment_id,
    failOnRegression: body.fail_on_regression,
    maxDrop: body.max_drop,
  };
  return Object.values(request).some((v) => v !== undefined) ? request : undefined;
}

export function benchmarkRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const { chunkeval, jobs, admission } = deps;
  app.post(
    "/benchmarks",
    { schema: { tags: ["benchmarks"], summary: "Run a benchmark (202 with a job when background=true)", querystring: backgroundQuery, body: benchmarkBody } },
    async (request, reply) => {
      const body = request.body as {
        document_id?: string;
        collection_id?: string;
        strategies?: string[];
        sweep?: string[];
        retrievers?: SearchMode[];
        embedders?: string[];
        max_variants?: number;
        questions_file?: string;
        questions?: unknown;
        top_k?: number;
        dry_run: boolean;
        chunks?: Record<string, unknown>;
        fail_under?: string[];
        fail_over?: string[];
        baseline_experiment_id?: string;
        fail_on_regression?: string;
        max_drop?: string[];
      };
      refuseClientEmbedders(chunkeval.config.embedder, { variants: body.strategies, sweeps: body.sweep, embedders: body.embedders });
      const { questions, source, origin } = await questionsFromRequest(chunkeval.config.questionsDir, {
        questionsFile: body.questions_file,
        questions: body.questions,
      });
      if (!body.document_id === !body.collection_id) throw new ValidationError("give document_id or collection_id (one of them)");
      const maxVariants = variantLimit(body.max_variants, chunkeval.config.http.maxVariants);
      const inlineChunks = Object.values(body.chunks ?? {}).reduce<number>((n, list) => n + (Array.isArray(list) ? list.length : 0), 0);
      if (inlineChunks > REQUEST_LIMITS.chunks) throw new ValidationError(`chunks: ${inlineChunks} chunks in all, more than ${REQUEST_LIMITS.chunks}`);
      const named = body.document_id
        ? { document_name: (await chunkeval.getDocument(body.document_id)).filename }
        : { collection_name: (await chunkeval.getCollection(body.collection_id!)).name };
      const input = {
        ...(body.document_id ? { document: { id: body.document_id } } : { collection: { name: body.collection_id! } }),
        questions,
        questionsSource: source,
        questionsOrigin: origin,
        strategies: body.strategies ?? (body.sweep ? undefined : "all"),
        sweep: body.sweep,
        retrievers: body.retrievers,
        embedders: body.embedders,
        maxVariants,
        topK: body.top_k,
        dryRun: body.dry_run,
        chunks: await eachImport(Object.entries(body.chunks ?? {}), ([name, list]) => chunksFromList(name, `chunks.${name}`, list)),
        gates: gateRequestOf(body),
      };
      if (!(request.query as { background: boolean }).background) {
        return reply
          .status(201)
          .send(
            experimentBody(
              await admission.runSync(reply, (signal) => withRequestCallBudget(chunkeval.config, () => chunkeval.bench({ ...input, signal }))),
              chunkeval.metrics,
            ),
          );
      }
      await chunkeval.checkBench(input); // refused now exactly as the synchronous request, not as a failed job later
      await checkQueueRoom(deps);
      const params = {
        document_id: body.document_id ?? null,
        collection_id: body.collection_id ?? null,
        ...named,
        strategies: input.strategies ?? null,
        sweep: body.sweep ?? null,
        retrievers: body.retrievers ?? null,
        embedders: body.embedders ?? null,
        questions_file: body.questions_file ?? null,
        top_k: body.top_k ?? null,
        dry_run: body.dry_run,
        chunks: body.chunks ? Object.keys(body.chunks) : null,
      };
      const job = await jobs.enqueue({
        jobType: "benchmark",
        params,
        input,
        // Deleting the document cancels the job; a collection job is no one document's (it fails on its own if one goes).
        document: body.document_id ? { id: body.document_id, filename: named.document_name! } : undefined,
      });
      return reply.status(202).send(enqueueBody(job));
    },
  );

  app.get(
    "/benchmarks/:experiment_id",
    { schema: { tags: ["benchmarks"], summary: "Fetch an experiment", params: idParams("experiment_id") } },
    async (request) => {
      return experimentBody(await chunkeval.getExperiment((request.params as { experiment_id: string }).experiment_id), chunkeval.metrics);
    },
  );

  app.get(
    "/benchmarks/:experiment_id/report",
    {
      schema: {
        tags: ["benchmarks"],
        summary:
          "Report: HTML (view=managerial|technical, the default), Markdown or the JSON export (format=html|md|json), optionally against a baseline experiment",
        params: idParams("experiment_id"),
        querystring: reportQuery,
        produces: ["text/html", "text/markdown", "application/json"],
      },
    },
    async (request, reply) => {
      const id = (request.params as { experiment_id: string }).experiment_id;
      const query = request.query as { view: ReportView; format: ReportFormat; baseline?: string };
      const { contentType, body } = await chunkeval.renderReport(id, { view: query.view, format: query.format, baselineId: query.baseline });
      return reply.type(contentType).send(typeof body === "string" ? body : toWire(body));
    },
  );

  app.get(
    "/benchmarks/:experiment_id/ci",
    {
      schema: {
        tags: ["benchmarks"],
        summary:
          "What a CI system reads of a finished benchmark, as `bench --junit/--summary/--save-baseline` writes it: its gates (stored with the run) " +
          "as JUnit XML, the Markdown summary (optionally against a baseline experiment), or the run as a baseline file",
        params: idParams("experiment_id"),
        querystring: ciQuery,
        produces: ["application/xml", "text/markdown", "application/json"],
      },
    },
    async (request, reply) => {
      const id = (request.params as { experiment_id: string }).experiment_id;
      const query = request.query as { format: "junit" | "summary" | "baseline"; baseline?: string };
      const outputs = await chunkeval.ciOutputs({ experimentId: id, baselineExperimentId: query.baseline });
      if (query.format === "junit") return reply.type("application/xml; charset=utf-8").send(outputs.junit);
      if (query.format === "baseline") return reply.type("application/json; charset=utf-8").send(outputs.baselineFile);
      const report = { label: "report", href: `/benchmarks/${encodeURIComponent(id)}/report` };
      return reply.type("text/markdown; charset=utf-8").send(outputs.summary([report]));
    },
  );

  app.get("/experiments", { schema: { tags: ["benchmarks"], summary: "List experiments, newest first", querystring: pageQuery } }, async (request) => {
    return toWire(await chunkeval.listExperiments(request.query as { offset: number; limit: number }));
  });
}
