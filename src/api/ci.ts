/**
 * A benchmark in CI: gates (floors and regressions against a baseline), the baseline file, and
 * the JUnit and step-summary outputs.
 */
export { gatedStrategyName, missedGates } from "../services/benchmarking/gates.js";
export { parseGateRequest } from "../services/benchmarking/ci-gates.js";
export { isBaselineFile, readBaselineFile, saveBaselineFile } from "../services/benchmarking/baseline.js";
