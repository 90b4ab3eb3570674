import { signedFixed as signed } from "../../domain/number-words.js";
import { pairedResampleDifference, resampleScorer, type PairedDifference, type ResampleScorer, type ScoringOptions } from "../../domain/aggregate.js";
import type { ExperimentRecord } from "../../domain/experiment.js";
import type { GateOutcome } from "../../domain/gate-outcome.js";
import { definedMetricValue, type MetricDefinition } from "../../domain/metric-catalogue.js";
import type { MetricRegistry } from "../../domain/metric-registry/registry.js";
import { BOOTSTRAP_RESAMPLES, MIN_PAIRED_QUESTIONS } from "../../domain/statistics.js";
import { ValidationError } from "../../errors.js";
import { pairStrategy, runDifferences, type Baseline } from "./baseline.js";

/** `--fail-under` gates higher-is-better metrics, `--fail-over` lower-is-better ones. */
export type GateKind = "fail-under" | "fail-over";

export interface Gate {
  kind: GateKind;
  metric: MetricDefinition;
  value: number;
}

const gateFor = (direction: MetricDefinition["direction"]): GateKind => (direction === "higher" ? "fail-under" : "fail-over");

/**
 * Parses `METRIC=VALUE` for a gate. A metric gated the wrong way (a floor on a lower-is-better
 * metric, which a perfect score would fail) is a usage error naming the right option.
 */
export function parseGate(metrics: MetricRegistry, kind: GateKind, raw: string): Gate {
  const [name, value, ...rest] = raw.split("=");
  const metric = name ? metrics.definition(name) : undefined;
  const n = Number(value);
  const valid = metrics.all.filter((m) => gateFor(m.direction) === kind).map((m) => m.key);
  if (!metric || value === undefined || value.trim() === "" || rest.length > 0 || !Number.isFinite(n)) {
    throw new ValidationError(`--${kind} expects METRIC=VALUE with METRIC one of ${valid.join(", ")}; got "${raw}"`);
  }
  const right = gateFor(metric.direction);
  if (right !== kind) {
    throw new ValidationError(`${metric.key}: ${metric.direction} is better, so gate it with --${right} ${metric.key}=${value}, not --${kind}`);
  }
  return { kind, metric, value: n };
}

/**
 * The strategy a gate without `@STRATEGY` checks, named as the verdict allows: the highest
 * composite, called just by its name when the verdict recommends it and "semantic (highest
 * composite; no clear winner)" when the questions cannot tell it from the others, so that a gate
 * line never reads as a recommendation the headline did not make.
 */
export function gatedStrategyName(experiment: Pick<ExperimentRecord, "bestStrategy" | "verdictStatus">): string {
  return experiment.verdictStatus === "no_clear_winner" ? `${experiment.bestStrategy} (highest composite; no clear winner)` : experiment.bestStrategy;
}

/** The gates the highest composite misses; a metric that could not be measured misses every gate. */
export function missedGates(experiment: ExperimentRecord, gates: Gate[]): Array<Gate & { actual: number | null }> {
  const best = experiment.aggregateMetrics[experiment.bestStrategy]!;
  return gates
    .map((gate) => ({ ...gate, actual: definedMetricValue(best, gate.metric) }))
    .filter((g) => g.actual === null || (g.kind === "fail-under" ? g.actual < g.value : g.actual > g.value));
}

/** The gate outcome of a floor, for JUnit and the summary: every gate asked for, passed or not. */
export function floorOutcomes(experiment: ExperimentRecord, gates: Gate[]): GateOutcome[] {
  const missed = missedGates(experiment, gates);
  const best = experiment.aggregateMetrics[experiment.bestStrategy]!;
  return gates.map((gate) => {
    const actual = definedMetricValue(best, gate.metric);
    const miss = missed.find((m) => m.kind === gate.kind && m.metric.key === gate.metric.key && m.value === gate.value);
    const bound = gate.kind === "fail-under" ? "below" : "above";
    const found = actual === null ? `n/a (${best.missing?.[gate.metric.key] ?? "not measured"})` : actual.toFixed(4);
    return {
      gate: `--${gate.kind} ${gate.metric.key}=${gate.value}`,
      strategy: experiment.bestStrategy,
      passed: !miss,
      detail: `${gatedStrategyName(experiment)} has ${gate.metric.key} ${found}${miss && actual !== null ? `, ${bound} the bound ${gate.value}` : ""}`,
      notes: [],
    };
  });
}

/** Metrics a regression gate can compare: those computed from per-question scores (the quality metrics and their composite). */
const regressionMetrics = (metrics: MetricRegistry) => [metrics.definition("composite_score")!, ...metrics.quality];

/** A metric compared with the baseline, for the highest composite (`strategy` undefined) or a named one. */
export interface RegressionTarget {
  metric: MetricDefinition;
  strategy?: string;
}

/** `METRIC` or `METRIC@STRATEGY` (the strategy may itself be a variant: `avg_recall@recursive@chunk_size=128`). */
function parseTarget(metrics: MetricRegistry, option: string, raw: string): RegressionTarget {
  const at = raw.indexOf("@");
  const name = (at < 0 ? raw : raw.slice(0, at)).trim();
  const strategy = at < 0 ? undefined : raw.slice(at + 1).trim();
  const metric = regressionMetrics(metrics).find((m) => m.key === name);
  if (!metric || strategy === "") {
    throw new ValidationError(
      `${option} takes METRIC or METRIC@STRATEGY with METRIC one of ${regressionMetrics(metrics)
        .map((m) => m.key)
        .join(", ")}; got "${raw}"`,
    );
  }
  return { metric, strategy };
}

/** `--fail-on-regression` alone gates the composite; with a value, the comma-separated metrics. */
export function parseRegressionTargets(metrics: MetricRegistry, raw: string | true): RegressionTarget[] {
  if (raw === true) return [{ metric: metrics.definition("composite_score")! }];
  return raw.split(",").map((item) => parseTarget(metrics, "--fail-on-regression", item));
}

export interface MaxDrop extends RegressionTarget {
  value: number;
}

/** `METRIC[@STRATEGY]=V`: V is on the metric's scale, and a rise for lower-is-better metrics. */
export function parseMaxDrop(metrics: MetricRegistry, raw: string): MaxDrop {
  const equals = raw.lastIndexOf("=");
  const value = Number(raw.slice(equals + 1));
  if (equals < 1 || raw.slice(equals + 1).trim() === "" || !Number.isFinite(value) || value < 0) {
    throw new ValidationError(`--max-drop takes METRIC=V or METRIC@STRATEGY=V with V a number of 0 or more; got "${raw}"`);
  }
  return { ...parseTarget(metrics, "--max-drop", raw.slice(0, equals)), value };
}

/** A bootstrap p-value has a resolution of 1/BOOTSTRAP_RESAMPLES: none of the resamples on the other side reads as below that. */
const formatP = (p: number | null) => (p === null ? "n/a" : p === 0 ? `< ${(1 / BOOTSTRAP_RESAMPLES).toFixed(4)}` : `= ${p.toFixed(3)}`);

/**
 * Checks each regression target (paired bootstrap: it fails when the 95 % interval of the
 * change lies wholly on the worse side) and each maximum drop (it fails when the paired change
 * is worse than the bound) against the baseline. A comparison that cannot be made fails its
 * gate with the reason, as a floor on an unmeasured metric does.
 */
export function regressionOutcomes(
  experiment: ExperimentRecord,
  current: Baseline,
  baseline: Baseline,
  targets: RegressionTarget[],
  drops: MaxDrop[],
  scoring: Pick<ScoringOptions, "metrics" | "weights" | "hallucinationThreshold">,
): GateOutcome[] {
  const run = runDifferences(current, baseline);
  const check = (target: RegressionTarget, gate: string, decide: (change: PairedDifference) => { passed: boolean; detail: string }): GateOutcome => {
    const strategy = target.strategy ?? experiment.bestStrategy;
    const pairing = pairStrategy(scoring.metrics, current, baseline, strategy, target.strategy !== undefined);
    if ("refused" in pairing) return { gate, strategy, passed: false, detail: `not compared: ${pairing.refused}`, notes: run };
    const field = target.metric.field as keyof ReturnType<ResampleScorer>;
    const options = { ...scoring, unmeasurable: pairing.unmeasurable };
    const [scoreCurrent, scoreBaseline] = [resampleScorer(pairing.current, options), resampleScorer(pairing.baseline, options)];
    const change = pairedResampleDifference(
      pairing.current.length,
      (indices) => scoreCurrent(indices)[field] ?? null,
      (indices) => scoreBaseline(indices)[field] ?? null,
    );
    const notes = [...run, ...pairing.notes];
    if (change.difference === null) {
      return { gate, strategy, passed: false, detail: `not compared: ${target.metric.key} was not measured in both runs`, notes };
    }
    const versus = pairing.baselineStrategy === strategy ? "" : ` (baseline: ${pairing.baselineStrategy})`;
    const { passed, detail } = decide(change);
    const named = target.strategy ?? gatedStrategyName(experiment);
    return { gate, strategy, passed, detail: `${named}${versus}: ${detail}`, notes };
  };
  const digits = (m: MetricDefinition) => (m.scale === "0-10" ? 2 : 3);
  const interval = (c: PairedDifference, m: MetricDefinition) =>
    c.confidenceInterval ? `[${signed(c.confidenceInterval[0], digits(m))}, ${signed(c.confidenceInterval[1], digits(m))}]` : "n/a";
  return [
    ...targets.map((t) =>
      check(t, `--fail-on-regression ${t.metric.key}${t.strategy ? `@${t.strategy}` : ""}`, (c) => {
        const worse = c.significant && (t.metric.direction === "higher" ? c.confidenceInterval![1] < 0 : c.confidenceInterval![0] > 0);
        const tooFew = c.questions < MIN_PAIRED_QUESTIONS ? `; fewer than ${MIN_PAIRED_QUESTIONS} questions paired, so no change can be significant` : "";
        return {
          passed: !worse,
          detail:
            `${t.metric.key} changed ${signed(c.difference!, digits(t.metric))}, ` +
            `95 % interval ${interval(c, t.metric)} over ${c.questions} paired questions, p ${formatP(c.pValue)}: ` +
            `${worse ? "significantly worse" : "no significant drop"}${tooFew}`,
        };
      }),
    ),
    ...drops.map((d) =>
      check(d, `--max-drop ${d.metric.key}${d.strategy ? `@${d.strategy}` : ""}=${d.value}`, (c) => {
        const drop = d.metric.direction === "higher" ? -c.difference! : c.difference!;
        const allowed = `at most ${d.value} ${d.metric.direction === "higher" ? "lower" : "higher"} allowed`;
        return {
          passed: drop <= d.value,
          detail: `${d.metric.key} changed ${signed(c.difference!, digits(d.metric))} over ${c.questions} paired questions (${allowed})`,
        };
      }),
    ),
  ];
}
