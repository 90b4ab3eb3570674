// The one place that says which lane each test file runs in; scripts/run-tests.mjs reads it.
// An entry ending in "/" is a folder (everything below it), any other a file.
//
// - FAST: the edit loop (`npm run test:fast`, under 2 minutes): domain, text, parsers without the
//   bombs, strategies, evaluators without the corpora embedded by the model (a few files load it
//   for a handful of sentences), reports without the browser, config, CLI parsing and layout,
//   architecture. In `npm test` these run in the parallel lane like the rest.
// - SERIAL: files whose subject is time, memory, leases, signals or kill -9. They run one at a
//   time (never two of them together), beside the parallel lane.
// - everything else: the parallel lane, as many files at once as the runner's --jobs.
// - ALONE: files that run after both lanes, one at a time, with nothing beside them.
// - MODEL: files that wait for the run's warm embedding cache.
// - POSTGRES_PASS: the files run a second time on PostgreSQL with `--postgres` (.ci/run).

const EXCEPT = (list, ...out) => ({ list, out });

export const FAST = EXCEPT(
  [
    "test/architecture/",
    "test/cli/",
    "test/config/",
    "test/domain/",
    "test/errors.test.ts",
    "test/worker-threads.test.ts",
    "test/evaluators/",
    "test/helpers/rank-correlation.test.ts",
    "test/services/gates.test.ts",
    "test/parsers/",
    "test/reports/",
    "test/retrieval/",
    "test/strategies/",
    "test/text/",
    "test/transports/",
  ],
  // signals
  "test/cli/interrupt-twice.test.ts",
  // the bundled model embeds two corpora
  "test/evaluators/context-relevance-example-corpus.test.ts",
  "test/evaluators/context-relevance-handbook.test.ts",
  "test/evaluators/context-relevance-standard.test.ts",
  "test/evaluators/negative-controls-relevance.test.ts",
  // decompression bombs and their time and memory bounds
  "test/parsers/formats.test.ts",
  // Chromium
  "test/reports/report-browser.test.ts",
  "test/reports/report-fit.test.ts",
  // the event loop's delay while a worker chunks
  "test/strategies/offload.test.ts",
);

export const SERIAL = EXCEPT([
  // signals and Ctrl-C (SIGINT mid-bench, SIGTERM mid-request, SIGKILL mid-run)
  "test/cli/interrupt-twice.test.ts",
  "test/e2e/process-interrupt-cli.test.ts",
  "test/e2e/exit-codes-cli.test.ts",
  "test/e2e/serve-cli.test.ts",
  "test/e2e/collections-cli.test.ts",
  "test/e2e/zero-column-terminal-cli.test.ts",
  // kill -9
  "test/e2e/kill9.test.ts",
  "test/services/jobs.test.ts",
  // leases of the job queues, and workers killed mid-unit
  "test/e2e/benchmark-units.test.ts",
  "test/e2e/worker-queue.test.ts",
  "test/services/ingestion-queue.test.ts",
  "test/stores/postgres-job-queue.test.ts",
  // deadlines, retry backoff measured by the clock, event-loop delay
  "test/e2e/chunk-deadline.test.ts",
  "test/services/ingestion.test.ts",
  "test/stores/scale.test.ts",
  "test/strategies/offload.test.ts",
  "test/http/locate-event-loop.test.ts",
  "test/http/v1-timeout.test.ts",
  // load budgets: requests held open and overlapped on purpose
  "test/http/overload.test.ts",
  // time and memory bounds of decompression bombs
  "test/parsers/formats.test.ts",
  // hostile files: the server's peak memory and /healthz while it refuses them
  "test/e2e/hostile-files.test.ts",
]);

// Files that run alone, after both lanes, with no other test process beside them: two serve
// replicas on an S3 stand-in did not see each other's newest /v1 version within 60 s while the
// lanes ran beside them (twice, on this two-core machine), and passed alone.
export const ALONE = EXCEPT(["test/e2e/replicas.test.ts"]);

// Files that embed the handbook or the standard corpus with the bundled model: they start once
// the runner has warmed the run's embedding cache with those texts (test/helpers/warm-cache.ts).
export const MODEL = EXCEPT([
  "test/evaluators/context-relevance-example-corpus.test.ts",
  "test/evaluators/context-relevance-handbook.test.ts",
  "test/evaluators/context-relevance-standard.test.ts",
  "test/evaluators/negative-controls-relevance.test.ts",
  "test/services/composite-basis.test.ts",
  "test/e2e/negatives-keyword-cli.test.ts",
]);

export const POSTGRES_PASS = EXCEPT(
  ["test/services/", "test/http/"],
  // the browser UI: static files over the API, whose routes the other HTTP files run on both stores
  "test/http/ui.test.ts",
);

/** Whether a lane's list names the file (and its exceptions do not). */
export function matches(lane, file) {
  const named = (entry) => (entry.endsWith("/") ? file.startsWith(entry) : file === entry);
  return lane.list.some(named) && !lane.out.some(named);
}
