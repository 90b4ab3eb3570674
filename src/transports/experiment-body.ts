// The wire form of an experiment, shared by the HTTP routes and the background job that runs a benchmark.
import type { ExperimentRecord } from "../domain/experiment.js";
import type { MetricRegistry } from "../domain/metric-registry/registry.js";
import { toWire } from "./serialize.js";
import { experimentView } from "../api/benchmarks.js";

/** The Experiment of SPEC §2 with its verdict and metric definitions, on the wire. */
export function experimentBody(e: ExperimentRecord, metrics: MetricRegistry) {
  return toWire(experimentView(e, metrics));
}
