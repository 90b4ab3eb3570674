import { writeOutputFile } from "./output.js";
import { writeFile } from "node:fs/promises";
import { cliIo } from "./io.js";
import { relative } from "node:path";
import type { Chunkeval } from "../../chunkeval.js";
import type { ExperimentRecord, QuestionResult } from "../../domain/experiment.js";
import type { GateOutcome } from "../../domain/gate-outcome.js";
import { ValidationError } from "../../errors.js";
import { renderCiSummary } from "../../reports/ci-summary.js";
import { renderJunit } from "../../reports/junit.js";
import {
  baselineDeltas,
  baselineFromExperiment,
  compositeDifferences,
  isBaselineFile,
  readBaselineFile,
  runDifferences,
  saveBaselineFile,
  type Baseline,
} from "../../services/benchmarking/baseline.js";
import {
  floorOutcomes,
  parseMaxDrop,
  parseRegressionTargets,
  regressionOutcomes,
  type Gate,
  type MaxDrop,
  type RegressionTarget,
} from "../../services/benchmarking/gates.js";

/** The bench options a CI job uses: gates, a baseline, files for CI systems, tags. */
export interface CiOptions {
  baseline?: string;
  failOnRegression?: string | true;
  maxDrop: string[];
  saveBaseline?: string;
  junit?: string;
  summary?: string;
  tag: string[];
}

export interface CiPlan {
  regression: RegressionTarget[];
  drops: MaxDrop[];
  tags: Record<string, string>;
}

const TAG_KEY = /^[A-Za-z0-9_.-]{1,64}$/;

/** `--tag key=value` (repeatable): a key of letters, digits, `_`, `.` or `-`, and any value, which may be empty (`pr=` on a push build). */
export function parseTags(raw: string[]): Record<string, string> {
  const tags: Record<string, string> = {};
  for (const item of raw) {
    const equals = item.indexOf("=");
    const key = equals < 0 ? "" : item.slice(0, equals);
    if (!TAG_KEY.test(key)) throw new ValidationError(`--tag takes key=value with a key of letters, digits, _ . or - (at most 64); got "${item}"`);
    if (key in tags) throw new ValidationError(`--tag ${key} is given twice`);
    tags[key] = item.slice(equals + 1);
  }
  return tags;
}

/** Checks the CI options before anything runs: every mistake is a usage error (exit 2) naming the option. */
export function planCi(options: CiOptions): CiPlan {
  const regression = options.failOnRegression === undefined ? [] : parseRegressionTargets(options.failOnRegression);
  const drops = options.maxDrop.map(parseMaxDrop);
  if ((regression.length > 0 || drops.length > 0) && !options.baseline) {
    throw new ValidationError(`${regression.length > 0 ? "--fail-on-regression" : "--max-drop"} compares with a baseline: add --baseline FILE_OR_ID`);
  }
  return { regression, drops, tags: parseTags(options.tag) };
}

/** `--baseline FILE_OR_ID`: a baseline file (ends in .json, or exists), otherwise a stored experiment. */
export async function loadBaseline(app: Chunkeval, spec: string): Promise<Baseline> {
  if (isBaselineFile(spec)) return readBaselineFile(spec);
  return baselineFromExperiment(await app.getExperiment(spec), await app.experimentResults(spec));
}

/** Where a reader of the summary finds a report: the CI job's artifacts when the job says where they are, else the file name. */
function artifactLink(file: string): string | null {
  const env = cliIo().env;
  if (env.CI_JOB_URL) return `${env.CI_JOB_URL}/artifacts/file/${relative(process.cwd(), file).split("\\").join("/")}`;
  if (env.GITHUB_SERVER_URL && env.GITHUB_REPOSITORY && env.GITHUB_RUN_ID)
    return `${env.GITHUB_SERVER_URL}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}#artifacts`;
  return null;
}

/** This run in the baseline's form, and against the baseline: each metric's change and what is not like for like. */
export interface RunComparison {
  current: Baseline;
  baseline?: { source: string; deltas: Record<string, Record<string, number | null>>; notes: string[]; loaded: Baseline };
}

export function compareRun(experiment: ExperimentRecord, results: Record<string, QuestionResult[]>, baseline: Baseline | undefined): RunComparison {
  const current = baselineFromExperiment(experiment, results);
  if (!baseline) return { current };
  const scoring = { weights: experiment.details.weights, hallucinationThreshold: experiment.details.hallucinationThreshold };
  return {
    current,
    baseline: {
      source: baseline.source,
      deltas: baselineDeltas(experiment, current, baseline, scoring),
      notes: [...runDifferences(current, baseline), ...compositeDifferences(current, baseline)],
      loaded: baseline,
    },
  };
}

/** Every gate asked for, checked on the finished run: the floors, then the comparisons with the baseline. */
export function gateOutcomes(experiment: ExperimentRecord, run: RunComparison, plan: CiPlan, floors: Gate[]): GateOutcome[] {
  const scoring = { weights: experiment.details.weights, hallucinationThreshold: experiment.details.hallucinationThreshold };
  return [
    ...floorOutcomes(experiment, floors),
    ...(run.baseline ? regressionOutcomes(experiment, run.current, run.baseline.loaded, plan.regression, plan.drops, scoring) : []),
  ];
}

/** After the run: writes the JUnit XML, the Markdown summary and the baseline file asked for. */
export async function writeCiFiles(
  experiment: ExperimentRecord,
  run: RunComparison,
  outcomes: GateOutcome[],
  options: CiOptions & { reports: string[] },
): Promise<void> {
  const again = `; the experiment ${experiment.experimentId} is stored`;
  if (options.junit) await writeOutputFile("--junit", options.junit, () => writeFile(options.junit!, renderJunit({ experiment, outcomes })), again);
  if (options.summary) {
    const reports = options.reports.map((file) => ({ label: file, href: artifactLink(file) }));
    await writeOutputFile(
      "--summary",
      options.summary,
      () => writeFile(options.summary!, renderCiSummary({ experiment, outcomes, reports, baseline: run.baseline })),
      again,
    );
  }
  if (options.saveBaseline) await writeOutputFile("--save-baseline", options.saveBaseline, () => saveBaselineFile(options.saveBaseline!, run.current), again);
}
