import type { JobHandlers, JobQueue, JobRequest } from "../../domain/ports/job-queue.js";
import type { JobRecord } from "../../domain/ports/jobs.js";
import { ValidationError } from "../../errors.js";
import type { JobRunner } from "./jobs.js";

/** The SQLite queue: today's in-process JobRunner, running each job's handler in this process. */
export class InProcessJobQueue implements JobQueue {
  constructor(
    private readonly runner: JobRunner,
    private readonly handlers: JobHandlers,
  ) {}

  enqueue(request: JobRequest): Promise<JobRecord> {
    const handler = this.handlers[request.jobType];
    if (!handler) throw new ValidationError(`unknown job type: ${request.jobType}`);
    return this.runner.enqueue(request.jobType, request.params, (options) => handler(request.input, options), request.document);
  }

  cancelForDocument(documentId: string): Promise<void> {
    return this.runner.cancelForDocument(documentId);
  }

  cancel(jobId: string, reason: string): Promise<void> {
    return this.runner.cancel(jobId, reason);
  }

  shutdown(): Promise<void> {
    return this.runner.shutdown();
  }
}
