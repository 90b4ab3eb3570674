// What the HTTP app is built over and what its routes are given (./app.ts builds one from the other).
import type { JobQueue } from "../../domain/ports/job-queue.js";
import type { Admission } from "./admission.js";
import type { Chunkeval } from "../../api/index.js";

export interface HttpDeps {
  chunkeval: Chunkeval;
  jobs: JobQueue;
}

/** What the routes are given: the app's dependencies and the server's load budgets. */
export interface RouteDeps extends HttpDeps {
  admission: Admission;
}
