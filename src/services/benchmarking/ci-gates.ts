// A benchmark's gates, for every transport: the floors (`fail under` / `fail over`), and the
// comparisons with a baseline (a significant regression, a drop past a bound), checked on the
// finished run and stored with it. The CLI asks with its options (`--fail-under`, `--baseline
// FILE_OR_ID`, …), the HTTP API with `fail_under`, `baseline_experiment_id`, … : both as a
// GateRequest. The files a CI system reads are ci-outputs.ts.
import type { ExperimentRecord, QuestionResult } from "../../domain/experiment.js";
import type { GateOutcome } from "../../domain/gate-outcome.js";
import type { MetricRegistry } from "../../domain/metric-registry/registry.js";
import { ValidationError } from "../../errors.js";
import type { ServiceContext } from "../context.js";
import { baselineDeltas, baselineFromExperiment, compositeDifferences, runDifferences, type Baseline } from "./baseline.js";
import { experimentResults, getExperiment } from "./experiments.js";
import { floorOutcomes, parseGate, parseMaxDrop, parseRegressionTargets, regressionOutcomes, type Gate, type MaxDrop, type RegressionTarget } from "./gates.js";

/** The comparisons with a baseline a run is gated on. */
export interface RegressionPlan {
  regression: RegressionTarget[];
  drops: MaxDrop[];
}

/** Checks the regression options before anything runs: every mistake is a usage error naming the option. */
export function planRegressionGates(
  metrics: MetricRegistry,
  options: {
    failOnRegression?: string | true;
    maxDrop: string[];
    baseline: boolean;
    /** How the caller names the baseline, for the refusal: `--baseline FILE_OR_ID`, `baseline_experiment_id`. */
    baselineOption: string;
  },
): RegressionPlan {
  const regression = options.failOnRegression === undefined ? [] : parseRegressionTargets(metrics, options.failOnRegression);
  const drops = options.maxDrop.map((raw) => parseMaxDrop(metrics, raw));
  if ((regression.length > 0 || drops.length > 0) && !options.baseline) {
    throw new ValidationError(`${regression.length > 0 ? "--fail-on-regression" : "--max-drop"} compares with a baseline: add ${options.baselineOption}`);
  }
  return { regression, drops };
}

/** The floors `--fail-under` and `--fail-over` ask for. */
export function planFloors(metrics: MetricRegistry, failUnder: string[], failOver: string[]): Gate[] {
  return [...failUnder.map((raw) => parseGate(metrics, "fail-under", raw)), ...failOver.map((raw) => parseGate(metrics, "fail-over", raw))];
}

/** A stored experiment as the baseline a run is compared with. */
export async function storedBaseline(ctx: ServiceContext, experimentId: string): Promise<Baseline> {
  return baselineFromExperiment(ctx.metrics, await getExperiment(ctx, experimentId), await experimentResults(ctx, experimentId));
}

/** This run in the baseline's form, and against the baseline: each metric's change and what is not like for like. */
export interface RunComparison {
  current: Baseline;
  baseline?: { source: string; deltas: Record<string, Record<string, number | null>>; notes: string[]; loaded: Baseline };
}

export function compareRun(
  metrics: MetricRegistry,
  experiment: ExperimentRecord,
  results: Record<string, QuestionResult[]>,
  baseline: Baseline | undefined,
): RunComparison {
  const current = baselineFromExperiment(metrics, experiment, results);
  if (!baseline) return { current };
  const scoring = { metrics, weights: experiment.details.weights, hallucinationThreshold: experiment.details.hallucinationThreshold };
  return {
    current,
    baseline: {
      source: baseline.source,
      deltas: baselineDeltas(experiment, current, baseline, scoring),
      notes: [...runDifferences(current, baseline), ...compositeDifferences(metrics, current, baseline)],
      loaded: baseline,
    },
  };
}

/** Every gate asked for, checked on the finished run: the floors, then the comparisons with the baseline. */
export function gateOutcomes(metrics: MetricRegistry, experiment: ExperimentRecord, run: RunComparison, plan: RegressionPlan, floors: Gate[]): GateOutcome[] {
  const scoring = { metrics, weights: experiment.details.weights, hallucinationThreshold: experiment.details.hallucinationThreshold };
  return [
    ...floorOutcomes(experiment, floors),
    ...(run.baseline ? regressionOutcomes(experiment, run.current, run.baseline.loaded, plan.regression, plan.drops, scoring) : []),
  ];
}

/**
 * The gates a benchmark request asks for, as data: it travels with a background job. The metric
 * syntax is the CLI's (`composite_score=0.5`, `avg_recall@recursive=0.05`).
 */
export interface GateRequest {
  failUnder?: string[];
  failOver?: string[];
  /** The stored experiment the regression gates compare with. */
  baselineExperimentId?: string;
  /**
   * A baseline the caller has loaded (the CLI's `--baseline FILE_OR_ID`), instead of
   * `baselineExperimentId`; without a gate it only gives each metric's change against it.
   */
  baseline?: Baseline;
  /** How the caller names the baseline, for a refusal: `--baseline FILE_OR_ID`; default `baseline_experiment_id`. */
  baselineOption?: string;
  /** `true`: the composite; otherwise comma-separated metrics. */
  failOnRegression?: string | true;
  maxDrop?: string[];
}

/** What a GateRequest checks, parsed, with its baseline loaded. */
export interface PlannedGates {
  floors: Gate[];
  plan: RegressionPlan;
  baseline?: Baseline;
}

/**
 * Parses a GateRequest without loading anything: every mistake is a ValidationError naming the
 * option. `baselineGiven` says whether a baseline will come (the CLI checks its options before it
 * reads the baseline file).
 */
export function parseGateRequest(
  metrics: MetricRegistry,
  request: GateRequest,
  baselineGiven = !!(request.baseline || request.baselineExperimentId),
): Omit<PlannedGates, "baseline"> {
  const floors = planFloors(metrics, request.failUnder ?? [], request.failOver ?? []);
  const plan = planRegressionGates(metrics, {
    failOnRegression: request.failOnRegression,
    maxDrop: request.maxDrop ?? [],
    baseline: baselineGiven,
    baselineOption: request.baselineOption ?? "baseline_experiment_id",
  });
  if (request.baselineExperimentId && plan.regression.length === 0 && plan.drops.length === 0) {
    throw new ValidationError("baseline_experiment_id is what fail_on_regression and max_drop compare with: add one of them, or leave it out");
  }
  return { floors, plan };
}

/** Parses a GateRequest and loads its baseline before any work: a mistake or an unknown experiment is refused then. */
export async function planGateRequest(ctx: ServiceContext, request: GateRequest): Promise<PlannedGates> {
  const parsed = parseGateRequest(ctx.metrics, request);
  const baseline = request.baseline ?? (request.baselineExperimentId ? await storedBaseline(ctx, request.baselineExperimentId) : undefined);
  return { ...parsed, baseline };
}

/** The planned gates checked on a finished run. */
export function checkPlannedGates(
  metrics: MetricRegistry,
  gates: PlannedGates,
  experiment: ExperimentRecord,
  results: Record<string, QuestionResult[]>,
): GateOutcome[] {
  return gateOutcomes(metrics, experiment, compareRun(metrics, experiment, results, gates.baseline), gates.plan, gates.floors);
}
