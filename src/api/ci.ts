/**
 * A benchmark in CI: gates (floors and regressions against a baseline), the baseline file, and
 * the JUnit and step-summary outputs.
 */
export { gatedStrategyName, missedGates } from "../services/benchmarking/gates.js";
export { compareRun, gateOutcomes, planFloors, planRegressionGates } from "../services/benchmarking/ci-gates.js";
export { isBaselineFile, readBaselineFile, saveBaselineFile } from "../services/benchmarking/baseline.js";
export { renderCiSummary } from "../reports/ci-summary.js";
export { renderJunit } from "../reports/junit.js";
