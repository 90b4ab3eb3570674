// What a CI system reads of a finished benchmark, for every transport: its gates' outcomes (stored
// with the experiment), the run against a baseline, the JUnit XML (one test case per gate), the
// Markdown summary (for $GITHUB_STEP_SUMMARY or a pull-request comment) and the run in the baseline
// file's form (`--save-baseline`). The CLI writes them beside its report; the HTTP API returns them
// (`GET /benchmarks/{id}/ci`). The gates themselves are planned and checked in ci-gates.ts.
import type { ExperimentRecord } from "../../domain/experiment.js";
import type { GateOutcome } from "../../domain/gate-outcome.js";
import { renderCiSummary } from "../../reports/ci-summary.js";
import { renderJunit } from "../../reports/junit.js";
import type { ServiceContext } from "../context.js";
import { baselineFileText, type Baseline } from "./baseline.js";
import { compareRun, storedBaseline, type RunComparison } from "./ci-gates.js";
import { experimentResults, getExperiment } from "./experiments.js";

export interface CiOutputsInput {
  experimentId: string;
  /** A baseline the caller loaded (the CLI's `--baseline FILE_OR_ID`), or a stored experiment's id. */
  baseline?: Baseline;
  baselineExperimentId?: string;
}

/** A report the summary links, with where a reader finds it (a CI artifact link, or null for the file name alone). */
export interface LinkedReport {
  label: string;
  href: string | null;
}

export interface CiOutputs {
  experiment: ExperimentRecord;
  /** The gates' outcomes, as checked on the finished run and stored with it (empty: no gates were set). */
  outcomes: GateOutcome[];
  /** The run in the baseline's form, and against the baseline when one is given. */
  comparison: RunComparison;
  junit: string;
  /** The Markdown summary, linking the reports given (the CLI knows them only once they are written). */
  summary: (reports: LinkedReport[]) => string;
  /** The run as a baseline file, for a later run's `--baseline`. */
  baselineFile: string;
}

/** A finished benchmark's CI outputs, from what is stored: nothing is re-run or re-judged. */
export async function ciOutputs(ctx: ServiceContext, input: CiOutputsInput): Promise<CiOutputs> {
  const experiment = await getExperiment(ctx, input.experimentId);
  const baseline = input.baseline ?? (input.baselineExperimentId === undefined ? undefined : await storedBaseline(ctx, input.baselineExperimentId));
  const comparison = compareRun(ctx.metrics, experiment, await experimentResults(ctx, input.experimentId), baseline);
  const outcomes = experiment.details.gates ?? [];
  return {
    experiment,
    outcomes,
    comparison,
    junit: renderJunit({ experiment, outcomes }),
    summary: (reports) => renderCiSummary({ experiment, metrics: ctx.metrics, outcomes, reports, baseline: comparison.baseline }),
    baselineFile: baselineFileText(comparison.current),
  };
}
