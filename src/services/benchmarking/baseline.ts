import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import type { ExperimentRecord, QuestionMetrics, QuestionResult } from "../../domain/experiment.js";
import { hashBytes } from "../../domain/hash.js";
import type { MetricRegistry } from "../../domain/metric-registry/registry.js";
import { scoreOf } from "../../domain/scoring.js";
import type { ScoredQuestion } from "../../domain/metric-registry/metric.js";
import { ValidationError } from "../../errors.js";
import { CHUNKEVAL_VERSION } from "../../version.js";
import { scoresOf, type ScoringOptions } from "../../domain/aggregate.js";
import { baselineMetrics, compareWithBaseline } from "./experiments.js";
import { writeFileWhole } from "../file-write.js";

/** The baseline file's format; a file of another version is refused with the reason. */
export const BASELINE_FORMAT_VERSION = 1;

/** One strategy of a baseline: its configuration, metric values and every question's scores keyed by question. */
export interface BaselineStrategy {
  /** Chunking options. */
  options: Record<string, number>;
  search: { retrieval: string; topK: number } | null;
  /** Metric values keyed by metric (`composite_score`, `avg_recall`, …); null where not measured. */
  metrics: Record<string, number | null>;
  questions: Record<string, ScoredQuestion>;
}

/**
 * What a regression gate compares a run with: an earlier run's per-question scores and the
 * configuration they came from. Made from a stored experiment, or read from a file committed
 * next to the code (`bench --save-baseline`), so a CI runner without a data directory has one.
 */
export interface Baseline {
  /** The file or experiment id it was loaded from, for messages. */
  source: string;
  chunkevalVersion: string;
  experimentId: string;
  createdAt: string;
  tags: Record<string, string>;
  /** Hash of the question set (questions, expected answers, reference excerpts), order-free. */
  questionsHash: string;
  embedder: string;
  judge: string;
  generator: string;
  dryRun: boolean;
  weights: Record<string, number>;
  bestStrategy: string;
  strategies: Record<string, BaselineStrategy>;
}

const normalise = (text: string) => text.normalize("NFC").replace(/\s+/g, " ").trim().toLowerCase();

/**
 * A key per question that another run of the same questions file gives the same question:
 * a hash of its normalised text, with `#2`, `#3` … for a question asked twice.
 */
export function questionKeys(results: Array<Pick<QuestionResult, "question">>): string[] {
  const seen = new Map<string, number>();
  return results.map((r) => {
    const key = `q_${hashBytes(normalise(r.question)).slice(0, 16)}`;
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    return n === 1 ? key : `${key}#${n}`;
  });
}

/** Hash of the question set: each question with its expected answer and reference excerpts, in any order. */
export function questionsHash(results: Array<Pick<QuestionResult, "question" | "expectedAnswer" | "references">>): string {
  const items = results.map((r) => JSON.stringify([normalise(r.question), r.expectedAnswer ?? null, r.references.map((x) => normalise(x.text))])).sort();
  return hashBytes(JSON.stringify(items));
}

/** A stored experiment and its per-question results as a baseline (also how the current run is compared). */
export function baselineFromExperiment(
  registry: MetricRegistry,
  e: ExperimentRecord,
  results: Record<string, QuestionResult[]>,
  source = e.experimentId,
): Baseline {
  const firstResults = Object.values(results)[0] ?? [];
  const metrics = baselineMetrics(registry, e);
  return {
    source,
    chunkevalVersion: CHUNKEVAL_VERSION,
    experimentId: e.experimentId,
    createdAt: e.createdAt,
    tags: e.tags ?? {},
    questionsHash: questionsHash(firstResults),
    embedder: e.details.embedder,
    judge: e.details.judge,
    generator: e.details.generator,
    dryRun: e.details.dryRun,
    weights: e.details.weights,
    bestStrategy: e.bestStrategy,
    strategies: Object.fromEntries(
      e.strategiesUsed.map((s) => {
        const list = results[s] ?? [];
        const keys = questionKeys(list);
        return [
          s,
          {
            options: e.details.strategyOptions[s] ?? {},
            search: e.details.search?.[s] ?? null,
            metrics: metrics[s]!,
            questions: Object.fromEntries(
              list.map((r, i) => [keys[i]!, { error: r.error, answered: r.answered, metrics: r.metrics, retrievedTokens: r.retrievedTokens }]),
            ),
          },
        ];
      }),
    ),
  };
}

/** A per-question metric's field as the file names it, in snake_case (`reciprocalRank` -> `reciprocal_rank`). */
const fileName = (field: string) => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
/** And back (`reciprocal_rank` -> `reciprocalRank`). */
const fieldName = (name: string) => name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/**
 * A question's scores in the file: every per-question metric the run scored (a plug-in's too), and the
 * tokens its answer read (what tokens retrieved per question is computed from, so that a gate can compare it too).
 */
function questionScores(q: ScoredQuestion): Record<string, number | null> {
  const scores = Object.fromEntries(Object.keys(q.metrics).map((field) => [fileName(field), scoreOf(q.metrics, field)]));
  return q.retrievedTokens === undefined ? scores : { ...scores, retrieved_tokens: q.retrievedTokens };
}

/** The baseline file's text: snake_case JSON like every other file chunkeval writes for users. */
export function baselineFileText(b: Baseline): string {
  const file = {
    chunkeval_baseline: BASELINE_FORMAT_VERSION,
    chunkeval_version: b.chunkevalVersion,
    experiment_id: b.experimentId,
    created_at: b.createdAt,
    tags: b.tags,
    questions_hash: b.questionsHash,
    embedder: b.embedder,
    judge: b.judge,
    generator: b.generator,
    dry_run: b.dryRun,
    weights: b.weights,
    best_strategy: b.bestStrategy,
    strategies: Object.fromEntries(
      Object.entries(b.strategies).map(([name, s]) => [
        name,
        {
          options: s.options,
          search: s.search && { retrieval: s.search.retrieval, top_k: s.search.topK },
          metrics: s.metrics,
          questions: Object.fromEntries(
            Object.entries(s.questions).map(([key, q]) => [key, { error: q.error, answered: q.answered, scores: questionScores(q) }]),
          ),
        },
      ]),
    ),
  };
  return JSON.stringify(file, null, 1) + "\n";
}

/** Writes the file whole or not at all (a temporary file renamed over it). */
export async function saveBaselineFile(path: string, b: Baseline): Promise<void> {
  await writeFileWhole(path, baselineFileText(b));
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const isScore = (v: unknown): v is number | null => v === null || (typeof v === "number" && Number.isFinite(v));

/** Parses a baseline file's text, naming the first thing that is wrong with it. */
export function parseBaselineFile(path: string, text: string): Baseline {
  const bad = (what: string) => new ValidationError(`baseline file ${path}: ${what}; write one with chunkeval bench … --save-baseline ${path}`);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw bad(`not JSON (${(error as Error).message})`);
  }
  if (!isObject(raw) || !("chunkeval_baseline" in raw)) throw bad("not a chunkeval baseline (no chunkeval_baseline field)");
  if (raw.chunkeval_baseline !== BASELINE_FORMAT_VERSION) {
    throw bad(`format version ${JSON.stringify(raw.chunkeval_baseline)}, this chunkeval (${CHUNKEVAL_VERSION}) reads version ${BASELINE_FORMAT_VERSION}`);
  }
  for (const field of ["chunkeval_version", "questions_hash", "embedder", "best_strategy"]) {
    if (typeof raw[field] !== "string") throw bad(`${field} must be a string`);
  }
  if (!isObject(raw.strategies) || Object.keys(raw.strategies).length === 0) throw bad("strategies must be an object with at least one strategy");
  const strategies: Record<string, BaselineStrategy> = {};
  for (const [name, s] of Object.entries(raw.strategies)) {
    if (!isObject(s) || !isObject(s.metrics) || !isObject(s.questions)) throw bad(`strategy ${name} needs metrics and questions objects`);
    const metrics: Record<string, number | null> = {};
    for (const [key, v] of Object.entries(s.metrics)) {
      if (!isScore(v)) throw bad(`strategy ${name}: metric ${key} must be a number or null`);
      metrics[key] = v;
    }
    const questions: Record<string, ScoredQuestion> = {};
    for (const [key, q] of Object.entries(s.questions)) {
      if (!isObject(q) || !isObject(q.scores) || typeof q.answered !== "boolean" || !(q.error === null || typeof q.error === "string")) {
        throw bad(`strategy ${name}: question ${key} needs error, answered and scores`);
      }
      const scores = q.scores;
      // Every score the file holds; a metric it lacks reads as not measured (scoreOf gives null).
      const values = Object.entries(scores)
        .filter(([file]) => file !== "retrieved_tokens")
        .map(([file, v]) => {
          if (!isScore(v)) throw bad(`strategy ${name}: question ${key}: ${file} must be a number or null`);
          return [fieldName(file), v];
        });
      const retrievedTokens = scores.retrieved_tokens;
      if (retrievedTokens !== undefined && typeof retrievedTokens !== "number")
        throw bad(`strategy ${name}: question ${key}: retrieved_tokens must be a number`);
      questions[key] = {
        error: q.error,
        answered: q.answered,
        metrics: Object.fromEntries(values) as unknown as QuestionMetrics,
        ...(retrievedTokens === undefined ? {} : { retrievedTokens }),
      };
    }
    const search = isObject(s.search) ? { retrieval: String(s.search.retrieval), topK: Number(s.search.top_k) } : null;
    strategies[name] = { options: (isObject(s.options) ? s.options : {}) as Record<string, number>, search, metrics, questions };
  }
  return {
    source: path,
    chunkevalVersion: raw.chunkeval_version as string,
    experimentId: typeof raw.experiment_id === "string" ? raw.experiment_id : "",
    createdAt: typeof raw.created_at === "string" ? raw.created_at : "",
    tags: (isObject(raw.tags) ? raw.tags : {}) as Record<string, string>,
    questionsHash: raw.questions_hash as string,
    embedder: raw.embedder as string,
    judge: typeof raw.judge === "string" ? raw.judge : "",
    generator: typeof raw.generator === "string" ? raw.generator : "",
    dryRun: raw.dry_run === true,
    weights: (isObject(raw.weights) ? raw.weights : {}) as Record<string, number>,
    bestStrategy: raw.best_strategy as string,
    strategies,
  };
}

/** `--baseline FILE_OR_ID` names a file when it ends in .json or a file of that name exists; otherwise an experiment id. */
export function isBaselineFile(spec: string): boolean {
  return spec.toLowerCase().endsWith(".json") || existsSync(spec);
}

export async function readBaselineFile(path: string): Promise<Baseline> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new ValidationError(`baseline file ${path}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  return parseBaselineFile(path, text);
}

/** A strategy of this run and the baseline's strategy it is compared with, over the questions both asked. */
export interface Pairing {
  strategy: string;
  baselineStrategy: string;
  current: ScoredQuestion[];
  baseline: ScoredQuestion[];
  /** Metrics not measured on one side or the other: they drop out of both composites. */
  unmeasurable: Record<string, string>;
  /** Why the comparison is not like for like, in words (printed, and in the summary and JUnit). */
  notes: string[];
}

const describeOptions = (options: Record<string, unknown>, search: BaselineStrategy["search"]) =>
  JSON.stringify({ ...options, ...(search ? { retrieval: search.retrieval, top_k: search.topK } : {}) });

/** What differs between two strategies' configurations, as "top_k 5 → 1"; empty when they match. */
function configurationChanges(before: BaselineStrategy, after: BaselineStrategy): string[] {
  const a = JSON.parse(describeOptions(before.options, before.search)) as Record<string, unknown>;
  const b = JSON.parse(describeOptions(after.options, after.search)) as Record<string, unknown>;
  return [...new Set([...Object.keys(a), ...Object.keys(b)])]
    .filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]))
    .map((k) => `${k} ${a[k] ?? "unset"} → ${b[k] ?? "unset"}`);
}

/**
 * Each metric's change per strategy against the baseline, as the regression gates measure it:
 * the quality metrics and the composite rescored from both sides' per-question scores over the
 * questions both asked, with this run's weights and only the metrics both runs measured; the
 * rest (latency, cost) from the stored figures (`compareWithBaseline`). A strategy that cannot be
 * paired (no question in common, or none of that name in the baseline) has no changes: figures
 * over other questions are not a change.
 */
export function baselineDeltas(
  experiment: ExperimentRecord,
  current: Baseline,
  baseline: Baseline,
  scoring: Pick<ScoringOptions, "metrics" | "weights" | "hallucinationThreshold">,
): Record<string, Record<string, number | null>> {
  const deltas = compareWithBaseline(scoring.metrics, experiment, Object.fromEntries(Object.entries(baseline.strategies).map(([s, b]) => [s, b.metrics])));
  for (const [strategy, change] of Object.entries(deltas)) {
    const pairing = pairStrategy(scoring.metrics, current, baseline, strategy, true);
    if ("refused" in pairing) {
      delete deltas[strategy];
      continue;
    }
    const options = { ...scoring, unmeasurable: pairing.unmeasurable };
    const [now, before] = [scoresOf(pairing.current, options), scoresOf(pairing.baseline, options)];
    for (const definition of scoring.metrics.all) {
      if (!(definition.field in now)) continue;
      const [a, b] = [now[definition.field as keyof typeof now] ?? null, before[definition.field as keyof typeof before] ?? null];
      change[definition.key] = a === null || b === null ? null : a - b;
    }
    change.composite_score = now.compositeScore === null || before.compositeScore === null ? null : now.compositeScore - before.compositeScore;
  }
  return deltas;
}

/**
 * Where the two runs' composites hold different metrics (one measured what the other did not:
 * context relevance under another embedder or retriever, say), in words, per strategy paired;
 * their changes above are then over the metrics both measured.
 */
export function compositeDifferences(metrics: MetricRegistry, current: Baseline, baseline: Baseline): string[] {
  const terms = metrics.composite.map((m) => m.key);
  const notes: string[] = [];
  for (const strategy of Object.keys(current.strategies)) {
    const pairing = pairStrategy(metrics, current, baseline, strategy, true);
    if ("refused" in pairing) continue;
    const [now, before] = [current.strategies[strategy]!.metrics, baseline.strategies[pairing.baselineStrategy]!.metrics];
    const onlyNow = terms.filter((k) => (now[k] ?? null) !== null && (before[k] ?? null) === null);
    const onlyBefore = terms.filter((k) => (now[k] ?? null) === null && (before[k] ?? null) !== null);
    if (onlyNow.length + onlyBefore.length === 0) continue;
    const parts = [
      ...(onlyBefore.length > 0 ? [`${onlyBefore.join(", ")} in the baseline's only`] : []),
      ...(onlyNow.length > 0 ? [`${onlyNow.join(", ")} in this run's only`] : []),
    ];
    notes.push(`${strategy}: the composites hold different metrics (${parts.join("; ")}): its changes are over the metrics both runs measured`);
  }
  return notes;
}

/** What differs between the runs as a whole (embedder, judge, weights, questions), in words. */
export function runDifferences(current: Baseline, baseline: Baseline): string[] {
  const notes: string[] = [];
  if (current.questionsHash !== baseline.questionsHash) notes.push("the questions differ from the baseline's (another question set hash)");
  if (current.embedder !== baseline.embedder) notes.push(`the embedder differs: ${baseline.embedder} in the baseline, ${current.embedder} now`);
  if (current.judge !== baseline.judge) notes.push(`the judge differs: ${baseline.judge} in the baseline, ${current.judge} now`);
  if (current.generator !== baseline.generator) notes.push(`the generator differs: ${baseline.generator} in the baseline, ${current.generator} now`);
  if (JSON.stringify(current.weights) !== JSON.stringify(baseline.weights)) {
    notes.push("the composite weights differ from the baseline's: both sides' composites are recomputed with this run's weights");
  }
  if (current.chunkevalVersion !== baseline.chunkevalVersion)
    notes.push(`the baseline was made by chunkeval ${baseline.chunkevalVersion}, this is ${current.chunkevalVersion}`);
  return notes;
}

/**
 * Pairs a strategy of this run with the baseline's: the strategy of the same name, or when the
 * baseline has none, the baseline's best (said in the notes). Only questions both runs asked are
 * paired. Returns a reason instead when nothing can be paired.
 */
export function pairStrategy(metrics: MetricRegistry, current: Baseline, baseline: Baseline, strategy: string, named: boolean): Pairing | { refused: string } {
  const now = current.strategies[strategy];
  if (!now) return { refused: `this run has no strategy ${strategy}` };
  const notes: string[] = [];
  let baselineStrategy = strategy;
  if (!baseline.strategies[strategy]) {
    if (named) return { refused: `the baseline ${baseline.source} has no strategy ${strategy} (it has ${Object.keys(baseline.strategies).join(", ")})` };
    baselineStrategy = baseline.bestStrategy;
    notes.push(`the baseline has no strategy ${strategy}: compared with the baseline's best, ${baselineStrategy}`);
  }
  const before = baseline.strategies[baselineStrategy]!;
  const changes = configurationChanges(before, now);
  if (changes.length > 0) notes.push(`${strategy}: its configuration differs from the baseline's (${changes.join(", ")})`);
  const keys = Object.keys(now.questions).filter((k) => k in before.questions);
  const total = Object.keys(now.questions).length;
  const baselineTotal = Object.keys(before.questions).length;
  if (keys.length === 0) return { refused: `no question of this run was asked in the baseline (${total} now, ${baselineTotal} in the baseline)` };
  if (keys.length < total || keys.length < baselineTotal) {
    notes.push(`paired the ${keys.length} questions both runs asked (${total} now, ${baselineTotal} in the baseline)`);
  }
  const unmeasurable = Object.fromEntries(
    metrics.all
      .filter((m) => (now.metrics[m.key] ?? null) === null || (before.metrics[m.key] ?? null) === null)
      .map((m) => [m.key, "not measured in both runs"]),
  );
  return { strategy, baselineStrategy, current: keys.map((k) => now.questions[k]!), baseline: keys.map((k) => before.questions[k]!), unmeasurable, notes };
}
