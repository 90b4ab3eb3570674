// A gate without @STRATEGY checks the highest composite, and its line names it as the verdict
import { BUILT_IN_METRICS } from "../../src/domain/metric-registry/registry.js";
// allows: never as a recommendation the headline did not make (issue 39, item 1).
import { test } from "node:test";
import assert from "node:assert/strict";
import { aggregate } from "../../src/domain/aggregate.js";
import type { ExperimentRecord, VerdictStatus } from "../../src/domain/experiment.js";
import { defaultWeights } from "../../src/domain/scoring.js";
import { floorOutcomes, parseGate } from "../../src/services/benchmarking/gates.js";
import { questionResult } from "../helpers/question-result.js";

const options = { metrics: BUILT_IN_METRICS, weights: defaultWeights(BUILT_IN_METRICS), hallucinationThreshold: 5, costUsd: 0, unmeasurable: {} };

function experiment(verdictStatus: VerdictStatus): ExperimentRecord {
  const semantic = aggregate(
    [0.5, 0.5, 0.5, 0.5].map((recall) => questionResult({ recall })),
    options,
  );
  return { bestStrategy: "semantic", verdictStatus, aggregateMetrics: { semantic } } as unknown as ExperimentRecord;
}

test("a floor names the recommended strategy plainly, and the highest composite as such under no clear winner", () => {
  const gates = [parseGate(BUILT_IN_METRICS, "fail-under", "avg_recall=0.9"), parseGate(BUILT_IN_METRICS, "fail-under", "avg_recall=0.25")];
  const [missed, met] = floorOutcomes(experiment("recommendation"), gates);
  assert.equal(missed!.detail, "semantic has avg_recall 0.5000, below the bound 0.9");
  assert.equal(met!.detail, "semantic has avg_recall 0.5000");
  const unclear = floorOutcomes(experiment("no_clear_winner"), gates);
  assert.deepEqual(
    unclear.map((o) => [o.passed, o.detail]),
    [
      [false, "semantic (highest composite; no clear winner) has avg_recall 0.5000, below the bound 0.9"],
      [true, "semantic (highest composite; no clear winner) has avg_recall 0.5000"],
    ],
  );
});
