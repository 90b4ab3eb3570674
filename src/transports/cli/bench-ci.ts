import { writeOutputFile } from "./output.js";
import { writeFile } from "node:fs/promises";
import { cliIo } from "./io.js";
import { relative } from "node:path";
import { ValidationError } from "../../errors.js";
import { BUILT_IN_METRICS } from "../../domain/metric-registry/registry.js";
import { isBaselineFile, parseGateRequest, readBaselineFile, saveBaselineFile } from "../../api/ci.js";
import type { Baseline, Chunkeval, CiOutputs, Gate, GateRequest } from "../../api/index.js";

/** The bench options a CI job uses: gates, a baseline, files for CI systems, tags. */
export interface CiOptions {
  failUnder: string[];
  failOver: string[];
  baseline?: string;
  failOnRegression?: string | true;
  maxDrop: string[];
  saveBaseline?: string;
  junit?: string;
  summary?: string;
  tag: string[];
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

/** bench's gate options as the request every transport makes (the HTTP API's `fail_under`, …), with the baseline loaded. */
export function gateRequestOf(options: CiOptions, baseline?: Baseline): GateRequest {
  return {
    failUnder: options.failUnder,
    failOver: options.failOver,
    failOnRegression: options.failOnRegression,
    maxDrop: options.maxDrop,
    baseline,
    baselineOption: "--baseline FILE_OR_ID",
  };
}

/** Checks the CI options before anything runs (every mistake is a usage error, exit 2, naming the option): the floors and the tags. */
export function planCi(options: CiOptions): { floors: Gate[]; tags: Record<string, string> } {
  return { floors: parseGateRequest(BUILT_IN_METRICS, gateRequestOf(options), !!options.baseline).floors, tags: parseTags(options.tag) };
}

/** `--baseline FILE_OR_ID`: a baseline file (ends in .json, or exists), otherwise a stored experiment. */
export async function loadBaseline(app: Chunkeval, spec: string): Promise<Baseline> {
  if (isBaselineFile(spec)) return readBaselineFile(spec);
  return app.storedBaseline(spec);
}

/** Where a reader of the summary finds a report: the CI job's artifacts when the job says where they are, else the file name. */
function artifactLink(file: string): string | null {
  const env = cliIo().env;
  if (env.CI_JOB_URL) return `${env.CI_JOB_URL}/artifacts/file/${relative(process.cwd(), file).split("\\").join("/")}`;
  if (env.GITHUB_SERVER_URL && env.GITHUB_REPOSITORY && env.GITHUB_RUN_ID)
    return `${env.GITHUB_SERVER_URL}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}#artifacts`;
  return null;
}

/** After the run: writes the JUnit XML, the Markdown summary and the baseline file asked for. */
export async function writeCiFiles(outputs: CiOutputs, options: CiOptions & { reports: string[] }): Promise<void> {
  const again = `; the experiment ${outputs.experiment.experimentId} is stored`;
  if (options.junit) await writeOutputFile("--junit", options.junit, () => writeFile(options.junit!, outputs.junit), again);
  if (options.summary) {
    const reports = options.reports.map((file) => ({ label: file, href: artifactLink(file) }));
    await writeOutputFile("--summary", options.summary, () => writeFile(options.summary!, outputs.summary(reports)), again);
  }
  if (options.saveBaseline)
    await writeOutputFile("--save-baseline", options.saveBaseline, () => saveBaselineFile(options.saveBaseline!, outputs.comparison.current), again);
}
