import type { FastifyInstance } from "fastify";
import type { RouteDeps } from "../route-deps.js";
import { idParams, jobsQuery } from "../schemas.js";
import { toWire } from "../../serialize.js";
import type { JobRecord } from "../../../api/index.js";
import { presentJob } from "../../../api/jobs.js";

/** Refuses (503) a background request when max_queued_jobs are already waiting to run (every process's, on a shared queue). */
export async function checkQueueRoom({ chunkeval, admission }: RouteDeps): Promise<void> {
  admission.checkQueueRoom(await chunkeval.queuedRequests());
}

/** The 202 body of a background request (SPEC §4). */
export function enqueueBody(job: JobRecord) {
  return { job_id: job.jobId, job_type: job.jobType, status: job.status, poll_url: `/jobs/${job.jobId}` };
}

export function jobRoutes(app: FastifyInstance, { chunkeval, jobs }: RouteDeps): void {
  app.get("/jobs", { schema: { tags: ["jobs"], summary: "List jobs, newest first", querystring: jobsQuery } }, async (request) => {
    const q = request.query as { offset: number; limit: number; job_type?: string; status?: string };
    const page = await chunkeval.listJobs({ jobType: q.job_type, status: q.status }, q);
    return toWire({ ...page, items: page.items.map(presentJob) });
  });

  app.get("/jobs/:job_id", { schema: { tags: ["jobs"], summary: "Poll a job", params: idParams("job_id") } }, async (request) => {
    return toWire(presentJob(await chunkeval.getJob((request.params as { job_id: string }).job_id)));
  });

  app.post(
    "/jobs/:job_id/cancel",
    {
      schema: {
        tags: ["jobs"],
        summary: "Cancel a job that has not ended: failed at once with the reason, stopped wherever it runs (409 when it has ended)",
        params: idParams("job_id"),
      },
    },
    async (request) => toWire(presentJob(await chunkeval.cancelJob((request.params as { job_id: string }).job_id, jobs))),
  );
}
