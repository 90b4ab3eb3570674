// The /v1 surface of one process: its points collection and its ingestion service, opened on first
// use (so `serve` starts without loading a model), its readiness, and an ingestion job as a tenant
// sees it.
import { describeError, NotFoundError } from "../../errors.js";
import type { IngestionRepo } from "../../domain/ports/ingestion.js";
import type { JobsRepo } from "../../domain/ports/jobs.js";
import type { OriginalsStore } from "../../domain/ports/originals.js";
import type { PointsStore } from "../../stores/vectors/points-store.js";
import type { JobQueue } from "../../domain/ports/job-queue.js";
import type { ServiceContext } from "../context.js";
import { once } from "../once.js";
import { IngestionService } from "./ingestion.js";

export interface V1SurfaceDeps {
  context: ServiceContext;
  repo: IngestionRepo;
  /** The /v1 points, opened on first use. */
  points: () => Promise<PointsStore>;
  originals: OriginalsStore;
  jobs: JobsRepo;
  /** Whether the metadata store answers (its data directory id can be read). */
  storeReachable: () => Promise<unknown>;
  /** Whether jobs are shared by every process on the store (PostgreSQL): then an upload is a queue job any replica may run. */
  sharedQueue: boolean;
}

export function v1Surface(deps: V1SurfaceDeps) {
  const { config } = deps.context;
  const opened: IngestionService[] = [];
  const open = once(async () => {
    const points = await deps.points();
    const embedder = await deps.context.embedder();
    // The collection's vector size is the embedder's: probe it once, then make sure it exists.
    const [probe] = await embedder.embed(["dimension probe"]);
    await points.ensureCollection(probe!.length);
    const limits = { ...config.ingestion, embedBatchSize: config.embedBatchSize };
    const ingestion = new IngestionService(deps.context, deps.repo, points, limits, deps.originals, deps.jobs);
    opened.push(ingestion);
    return { points, ingestion };
  });
  return {
    open,
    /**
     * Ingests an upload: as a job of the shared queue when jobs are shared (any replica may run it), otherwise
     * in this process (the in-process runner's queue is not for /v1 uploads).
     */
    ingest: async (tenantId: string, domain: string, filename: string, bytes: Buffer, queue?: JobQueue, clientGone?: AbortSignal) =>
      (await open()).ingestion.ingest(tenantId, domain, filename, bytes, deps.sharedQueue ? queue : undefined, clientGone),
    /** Whether an ingestion service of this process has no room for another ingestion. */
    atCapacity: () => opened.some((i) => i.atCapacity()),
    /** Ready when the metadata store answers and the points store is ready. */
    async readiness(): Promise<{ ready: boolean; reason?: string }> {
      try {
        await deps.storeReachable();
      } catch (error) {
        return { ready: false, reason: `metadata store unreachable: ${describeError(error)}` };
      }
      return open()
        .then((surface) => surface.points.readiness())
        .catch((error: Error) => ({ ready: false, reason: error.message }));
    },
    /** An ingestion job of this tenant, without the tenant id; another tenant's is not found. */
    async job(tenantId: string, jobId: string) {
      const job = await deps.repo.job(tenantId, jobId);
      if (!job) throw new NotFoundError("ingestion job not found");
      const { tenantId: _tenant, ...visible } = job;
      return visible;
    },
    /** Lets running ingestions finish (on close). */
    drain: () => Promise.all(opened.map((i) => i.drain())),
  };
}
