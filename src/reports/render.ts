import { NO_CHANGES_AGAINST_BASELINE } from "../domain/baseline-words.js";
import { fixed, signedFixed } from "../domain/number-words.js";
import { fileURLToPath } from "node:url";
import { describeNegativeControls } from "../domain/negative-controls.js";
import type nunjucks from "nunjucks";
import { lazyRequire } from "../lazy-require.js";
import type { AggregateMetrics, ExperimentRecord, QuestionResult } from "../domain/experiment.js";
import { ValidationError } from "../errors.js";
import { listWords } from "../domain/list-words.js";
import { winnerThere } from "../domain/group-winner.js";
import { gatesHeadline, type GateOutcome } from "../domain/gate-outcome.js";
import { compositeBasis } from "./composite-basis.js";
import { MIN_PAIRED_QUESTIONS } from "../domain/statistics.js";
import { barChart, escape, histogram, scatterChart } from "./charts.js";
import { buildChunkMap, type ChunkMapSource } from "./chunk-map.js";
import type { PageSpan } from "../domain/pages.js";
import { sweepFamilies } from "./sweep.js";
import { axisTables } from "./axis-tables.js";
import { rankTable } from "./rank-table.js";
import { sectionsOf } from "./sections.js";
import { parseVariantKey } from "../domain/variant-key.js";
import { pageLabel } from "../domain/pages.js";
import { metricName, metricValue, type MetricDefinition } from "../domain/metric-catalogue.js";
import type { MetricRegistry } from "../domain/metric-registry/registry.js";
import { REFERENCE_CHAT_MODEL, referenceCost } from "../generators/pricing.js";

export const REPORT_VIEWS = ["managerial", "technical"] as const;
export type ReportView = (typeof REPORT_VIEWS)[number];

/** Each HTML view's title: the question it answers. */
const VIEW_TITLES: Record<ReportView, string> = {
  managerial: "Which chunking strategy should we use?",
  technical: "Chunking strategy benchmark: technical report",
};

export interface ReportInput {
  experiment: ExperimentRecord;
  /** The metrics of the composition that renders: their columns, formats and definitions. */
  metrics: MetricRegistry;
  results: Record<string, QuestionResult[]>;
  /** Per strategy and metric: current minus baseline (from compareWithBaseline). */
  baseline?: { id: string; deltas: Record<string, Record<string, number | null>>; notes?: string[] };
  /** The document text and chunks behind the technical view's chunk map (no map without it). */
  chunkMap?: ChunkMapSource | null;
  /** The page spans of each document of the experiment (PDF documents; empty for other formats), for the drill-down. */
  documentPages?: Record<string, PageSpan[]>;
  /** The document's file name, for experiments that did not record it (details.documentName). */
  documentName?: string;
  /** The gates the run that made the report checked (bench's CI options): their result comes first. */
  gates?: GateOutcome[];
}

// Templates stay in src/reports/templates, found the same way from src/ (tsx) and dist/ (built).
const TEMPLATES = fileURLToPath(new URL("../../src/reports/templates/", import.meta.url));
const environments = new Map<"html" | "markdown", nunjucks.Environment>();
/** The template engine, loaded when a report is first rendered. */
const nunjucksLibrary = lazyRequire<typeof nunjucks>("nunjucks");

/** The templates' environment: HTML escapes what it prints; Markdown prints text as it is (`document's`, never `document&#39;s`). */
function env(kind: "html" | "markdown" = "html"): nunjucks.Environment {
  let environment = environments.get(kind);
  if (!environment) {
    const engine = nunjucksLibrary();
    environment = new engine.Environment(new engine.FileSystemLoader(TEMPLATES), { autoescape: kind === "html", throwOnUndefined: false });
    environments.set(kind, environment);
    environment.addFilter("num", (v: number | null | undefined, digits = 2) =>
      v === null || v === undefined || !Number.isFinite(v) ? "n/a" : fixed(v, digits),
    );
    environment.addFilter("pct", (v: number | null | undefined) => (v === null || v === undefined ? "n/a" : `${(100 * v).toFixed(1)}%`));
    environment.addFilter("usd", usd);
    environment.addFilter("metric", function (this: TemplateContext, v: number | null | undefined, key: string) {
      return formatMetric(v, definitionIn(this, key));
    });
    environment.addFilter("key", (key: string) => new engine.runtime.SafeString(keyHtml(key)));
    environment.addFilter("change", function (this: TemplateContext, v: number | null | undefined, key: string) {
      return formatChange(v, definitionIn(this, key));
    });
  }
  return environment;
}

/** What a filter is called on: the template's context, whose variables are the view model's. */
type TemplateContext = { lookup(name: string): unknown };

/** The metric named `key` in the registry of the report being rendered (the view model's `metricRegistry`). */
function definitionIn(context: TemplateContext, key: string): MetricDefinition {
  const definition = (context.lookup("metricRegistry") as MetricRegistry).definition(key);
  if (!definition) throw new Error(`the report names a metric its registry does not have: ${key}`);
  return definition;
}

function usd(v: number | null | undefined): string {
  return v === null || v === undefined ? "n/a" : `$${v.toFixed(v < 0.01 && v > 0 ? 6 : 4)}`;
}

/** A metric's value as reports show it: its registry entry's format, else a number with its scorecard digits. */
function formatMetric(v: number | null | undefined, d: MetricDefinition): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return "n/a";
  if (d.format === "percent") return `${(100 * v).toFixed(1)}%`;
  if (d.format === "usd") return usd(v);
  return v.toFixed(d.scorecardDigits ?? (d.scale === "0-10" ? 2 : 3));
}

/** A metric's change against a baseline in its value's unit: percentage points beside a percentage, else signed digits. */
function formatChange(v: number | null | undefined, d: MetricDefinition): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return "";
  if (d.format === "percent") return `${signedFixed(100 * v, 1)} pts`;
  return signedFixed(v, d.scale === "0-10" ? 2 : 3);
}

/**
 * The report scorecards' metric columns (HTML and Markdown): every metric with a `reportColumn`, in registry
 * order. A change against a baseline is shown for the scores computed from the questions (not latency or cost).
 */
function reportColumns(metrics: MetricRegistry) {
  const scores = new Set([...metrics.quality.map((m) => m.key), "composite_score"]);
  return metrics.all
    .filter((d) => d.reportColumn !== undefined)
    .map((d) => ({
      key: d.key,
      htmlHeading: d.reportColumn!,
      heading: metricName(d),
      delta: scores.has(d.key),
    }));
}

/**
 * A variant key that wraps rather than overflow its table cell, the whole key on hover. Its
 * pieces are nested inline blocks, so a line breaks at the coarsest place that makes it fit:
 * between pieces (the name with its "@", each parameter with its ":"), else after a "_" inside
 * one, else after its "=". `semantic_parent_child@breakpoint_percentile=80:child_size=64` thus
 * needs a column no wider than "percentile=80:", not its 25-character parameter, and a value
 * stays beside its name where it can.
 */
function keyHtml(key: string): string {
  const split = (s: string, separator: string) => s.match(new RegExp(`[^${separator}]*(?:[${separator}]|$)`, "g"))!.filter((p) => p.length > 0);
  const block = (inner: string) => `<span class="key-piece">${inner}</span>`;
  const breakable = split(key, "@:")
    .map((piece) =>
      block(
        split(piece, "_")
          .map((part) => block(escape(part).replace(/=/g, "=<wbr>")))
          .join("<wbr>"),
      ),
    )
    .join("<wbr>");
  return `<span class="key" title="${escape(key)}">${breakable}</span>`;
}

/** Splits a retrieved chunk into plain and highlighted segments where it overlaps reference spans. */
function highlight(chunk: { start: number; end: number; text: string }, references: Array<{ start: number; end: number }>) {
  const marks = references
    .map((r) => ({ start: Math.max(r.start, chunk.start) - chunk.start, end: Math.min(r.end, chunk.end) - chunk.start }))
    .filter((m) => m.end > m.start)
    .sort((a, b) => a.start - b.start);
  const segments: Array<{ text: string; mark: boolean }> = [];
  let at = 0;
  for (const m of marks) {
    if (m.start < at) continue;
    if (m.start > at) segments.push({ text: chunk.text.slice(at, m.start), mark: false });
    segments.push({ text: chunk.text.slice(m.start, m.end), mark: true });
    at = m.end;
  }
  if (at < chunk.text.length) segments.push({ text: chunk.text.slice(at), mark: false });
  return segments;
}

/**
 * The managerial box's line of confidence under the answer: the highest composite with its
 * interval and how far the runner-up is behind, from measured numbers only; empty when nothing was
 * scored. Under "no clear winner" it names the nearest strategy that cannot be separated from the
 * highest (the runner-up by composite may be separated, while one further down is not).
 */
function confidenceLine(e: ExperimentRecord): string {
  const best = e.aggregateMetrics[e.bestStrategy]!;
  if (best.compositeScore === null) return "";
  const interval = best.confidenceIntervals?.composite_score;
  const range = interval ? ` (95 % interval ${fixed(interval[0])} to ${fixed(interval[1])})` : "";
  const inseparable = e.verdictStatus === "no_clear_winner" ? e.inseparableFromBest : [];
  const compared = (e.comparisons ?? []).filter((c) => c.difference !== null && (inseparable.length === 0 || inseparable.includes(c.strategy)));
  const nearest = compared.sort((a, b) => a.difference! - b.difference!)[0];
  const score = `${best.compositeScore.toFixed(2)} of 10${range}`;
  if (!nearest) return `Composite score of ${e.bestStrategy}: ${score}.`;
  const line = `Highest composite score: ${e.bestStrategy}, ${score}`;
  const ci = nearest.confidenceInterval;
  const difference = ci ? ` (interval of the difference ${fixed(ci[0])} to ${fixed(ci[1])})` : "";
  if (inseparable.length === 0) return `${line}; the runner-up, ${nearest.strategy}, ${nearest.difference!.toFixed(2)} lower${difference}.`;
  const others = inseparable.length > 1 ? `, nor can ${inseparable.length - 1} other${inseparable.length > 2 ? "s" : ""}` : "";
  return `${line}; ${nearest.strategy}, ${nearest.difference!.toFixed(2)} lower${difference}, cannot be separated from it${others}.`;
}

/** The strategies the verdict's sentence names as the answer: the recommended one, or those that cannot be separated; none otherwise. */
function answerStrategies(e: ExperimentRecord): Set<string> {
  if (e.verdictStatus === "recommendation") return new Set([e.bestStrategy]);
  if (e.verdictStatus === "no_clear_winner" && e.inseparableFromBest.length > 0) return new Set([e.bestStrategy, ...e.inseparableFromBest]);
  return new Set();
}

const DRY_RUN_NOTE = "This was a dry run: only retrieval was measured; answers and judging were not run.";

/** The box holds the answer, its line of confidence and at most this many notes; the rest is under "Why". */
const GLANCE_NOTES = 3;

/**
 * The notes that stay in the managerial box, most pressing first: chunk warnings (the comparison
 * cannot tell some strategies apart), a dry run, then what the verdict stands on.
 */
function glanceNotes(e: ExperimentRecord): { box: string[]; why: string[] } {
  const all = [...(e.details.chunkWarnings ?? []).map((w) => `Warning: ${w}`), ...(e.details.dryRun ? [DRY_RUN_NOTE] : []), ...e.verdictNotes];
  return { box: all.slice(0, GLANCE_NOTES), why: all.slice(GLANCE_NOTES) };
}

/** Plain-words reasons for the verdict, from measured numbers only, under the report's "Why". */
function recommendation(e: ExperimentRecord): string[] {
  const best = e.aggregateMetrics[e.bestStrategy]!;
  const lines = [e.verdict];
  const variant = parseVariantKey(e.bestStrategy);
  if (variant.parameters.length > 0) {
    const settings = variant.parameters.map(([k, v]) => `${k} ${v}`).join(", ");
    lines.push(`The highest-scoring variant is ${e.bestStrategy}: ${variant.strategy} with ${settings}, every other parameter at its default.`);
  }
  if (best.hitRate !== null) {
    const recall = best.avgRecall !== null ? ` and retrieved ${(100 * best.avgRecall).toFixed(0)}% of the reference text on average` : "";
    lines.push(`It found the passage that holds the answer for ${(100 * best.hitRate).toFixed(0)}% of the questions${recall}.`);
  }
  if (best.hallucinationRate !== null)
    lines.push(`${(100 * best.hallucinationRate).toFixed(0)}% of its answers were judged unsupported by the retrieved context.`);
  else if (best.missing?.hallucination_rate) lines.push(`Hallucination was not measured: ${best.missing.hallucination_rate}.`);
  const runnerUp = e.comparisons?.filter((c) => c.difference !== null).sort((a, b) => a.difference! - b.difference!)[0];
  if (runnerUp) {
    const ci = runnerUp.confidenceInterval;
    const range = ci ? ` (95 % interval of the difference ${fixed(ci[0])} to ${fixed(ci[1])})` : "";
    const answerable = runnerUp.answerableQuestions ?? runnerUp.questions;
    // Paired tests: the runner-up may be separated while a strategy further down is not; then the lead over it decides nothing.
    const inseparable = e.verdictStatus === "no_clear_winner" ? e.inseparableFromBest.filter((s) => s !== runnerUp.strategy) : [];
    const lead = runnerUp.significant
      ? inseparable.length > 0
        ? `a significant lead over it, but not over ${listWords(inseparable)}, ` +
          `which the questions cannot separate from ${e.bestStrategy}: hence no clear winner`
        : "a significant lead"
      : answerable < MIN_PAIRED_QUESTIONS
        ? `too few questions to tell (${answerable} answerable; at least ${MIN_PAIRED_QUESTIONS} are needed)`
        : "within noise";
    lines.push(`The runner-up, ${runnerUp.strategy}, scored ${fixed(runnerUp.difference!)} lower${range}: ${lead}.`);
  }
  return lines;
}

/**
 * Trade-offs worth a manager's attention: the fastest, the cheapest, the most faithful, the
 * most precise strategy. A metric that was not measured, or on which every strategy ties, says
 * nothing about a trade-off and is left out.
 */
function tradeOffs(e: ExperimentRecord): string[] {
  const entries = Object.entries(e.aggregateMetrics);
  const by = (key: (m: AggregateMetrics) => number | null, low: boolean) => {
    const measured = entries.filter(([, m]) => key(m) !== null);
    const values = new Set(measured.map(([, m]) => key(m)!.toFixed(6)));
    if (values.size < 2) return undefined;
    return measured.sort(([an, a], [bn, b]) => (low ? key(a)! - key(b)! : key(b)! - key(a)!) || an.localeCompare(bn))[0];
  };
  const out: string[] = [];
  const fastest = fastestLine(entries);
  if (fastest) out.push(fastest);
  if (entries.every(([, m]) => m.costUsd === 0)) {
    const leanest = by((m) => m.tokens.totalTokens, true);
    const fewest = leanest ? `; the fewest tokens, so the lowest bill on a hosted model, went to ${leanest[0]} (${leanest[1].tokens.totalTokens} tokens)` : "";
    out.push(`Every strategy cost nothing with the configured (local) providers${fewest}.`);
  } else {
    const cheapest = by((m) => m.costUsd, true);
    if (cheapest) out.push(`Lowest cost: ${cheapest[0]} ($${cheapest[1].costUsd.toFixed(4)} for this run).`);
  }
  const faithful = by((m) => m.avgFaithfulness, false);
  if (faithful) out.push(`Most faithful answers: ${faithful[0]} (${faithful[1].avgFaithfulness!.toFixed(2)} of 10).`);
  const precise = by((m) => m.avgPrecision, false);
  if (precise)
    out.push(`Least extra text retrieved (precision): ${precise[0]} (${(100 * precise[1].avgPrecision!).toFixed(1)}% of retrieved text is reference text).`);
  return out;
}

/**
 * Which strategy answers fastest, as far as the measured spread can tell: the strategies whose
 * 95 % latency interval over questions overlaps the fastest one's are as fast within noise, and
 * when that is all of them no strategy is named. An experiment without recorded intervals (from
 * before they were, when the first strategy also carried the shared work) names none.
 */
export function fastestLine(entries: Array<[string, AggregateMetrics]>): string | undefined {
  const measured = entries
    .filter(([, m]) => m.avgLatencySeconds !== null)
    .sort(([an, a], [bn, b]) => a.avgLatencySeconds! - b.avgLatencySeconds! || an.localeCompare(bn));
  if (measured.length < 2) return undefined;
  const [name, fastest] = measured[0]!;
  const spread = fastest.latencyInterval;
  // Sorted by mean, so a slower strategy's interval overlaps the fastest's when it begins below the fastest's end.
  const within = measured.slice(1).filter(([, m]) => !spread || !m.latencyInterval || m.latencyInterval[0] <= spread[1]);
  const seconds = (v: number) => v.toFixed(4);
  const means = measured.map(([, m]) => m.avgLatencySeconds!);
  if (within.length === measured.length - 1) {
    return (
      `Answer time does not separate the strategies: their means (${seconds(Math.min(...means))}-${seconds(Math.max(...means))} s per question) ` +
      `lie within one another's measured spread${spread ? " (95 % intervals over questions overlap)" : " (no spread was recorded for this experiment)"}.`
    );
  }
  const mean = `${seconds(fastest.avgLatencySeconds!)} s per question on average, 95 % interval ${seconds(spread![0])}-${seconds(spread![1])} s`;
  if (within.length === 0) return `Fastest answers: ${name} (${mean}; every other strategy's interval lies above it).`;
  return `Fastest answers: ${name} (${mean}), with ${listWords(within.map(([n]) => n))} within its measured spread (their 95 % intervals overlap).`;
}

/** Metrics missing for some strategy, with the reason, once per distinct reason. */
function missingMetrics(e: ExperimentRecord): Array<{ metrics: string[]; reason: string }> {
  const byReason = new Map<string, Set<string>>();
  for (const m of Object.values(e.aggregateMetrics)) {
    for (const [metric, reason] of Object.entries(m.missing ?? {})) byReason.set(reason, (byReason.get(reason) ?? new Set()).add(metric));
  }
  return [...byReason].map(([reason, metrics]) => ({ metrics: [...metrics], reason }));
}

/**
 * Strategies per table in tables with a column per strategy: beside the metric's name, five
 * columns of keys broken between their parameters fit a printed A4 page; beside a collection's
 * document, question count and winner, four. A larger run is shown as several such tables.
 */
const STRATEGY_COLUMNS = { everyMetric: 5, perDocument: 4 };

/** The strategies in blocks of `size`, with each block's place in the full list (to slice per-strategy cells). */
function strategyBlocks(strategies: string[], size: number): Array<{ strategies: string[]; start: number; end: number }> {
  const blocks = [];
  for (let start = 0; start < strategies.length; start += size) {
    const end = Math.min(strategies.length, start + size);
    blocks.push({ strategies: strategies.slice(start, end), start, end });
  }
  return blocks;
}

type MetricCell = { span: number; reason: string } | { span: number; reason?: undefined; value: number | null; interval: [number, number] | null };

/**
 * The technical view's "every metric" table, one row per metric and one column per strategy, in
 * blocks of strategies; neighbouring cells of a row missing for the same reason are merged into
 * one cell that gives the reason once.
 */
function everyMetricBlocks(e: ExperimentRecord, metrics: MetricRegistry) {
  return strategyBlocks(e.strategiesUsed, STRATEGY_COLUMNS.everyMetric).map((block) => ({
    ...block,
    rows: metrics.all.map((d) => {
      const cells: MetricCell[] = [];
      for (const s of block.strategies) {
        const m = e.aggregateMetrics[s]!;
        const reason = m.missing?.[d.key];
        const last = cells.at(-1);
        if (reason && last?.reason === reason) last.span++;
        else cells.push(reason ? { span: 1, reason } : { span: 1, value: metricValue(metrics, m, d.key), interval: m.confidenceIntervals?.[d.key] ?? null });
      }
      return { key: d.key, cells };
    }),
  }));
}

/** A collection's per-document rows: every strategy's composite and recall there, with intervals. */
function perDocumentRows(e: ExperimentRecord) {
  return (e.perDocument ?? []).map((d) => ({
    ...d,
    winnerThere: winnerThere(d, e.strategiesUsed.length),
    cells: e.strategiesUsed.map((s) => {
      const m = d.aggregateMetrics[s];
      return {
        strategy: s,
        // Marked only where the group's questions separate it from every other strategy.
        best: s === d.winner,
        composite: m?.compositeScore ?? null,
        compositeInterval: m?.confidenceIntervals?.composite_score ?? null,
        recall: m?.avgRecall ?? null,
        recallInterval: m?.confidenceIntervals?.avg_recall ?? null,
      };
    }),
  }));
}

/** "recursive wins on a.pdf and b.md; semantic on c.html." — which strategy wins where. */
function winsWhere(e: ExperimentRecord): string[] {
  const byWinner = new Map<string, string[]>();
  for (const d of e.perDocument ?? []) if (d.documentId !== null && d.winner) byWinner.set(d.winner, [...(byWinner.get(d.winner) ?? []), d.filename]);
  return [...byWinner].map(
    ([strategy, names]) => `${strategy} wins on ${names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`}.`,
  );
}

function viewModel(input: ReportInput, view: ReportView) {
  const e = input.experiment;
  const registry = input.metrics;
  const strategies = e.strategiesUsed;
  // In a collection, references and chunks are named by their document's file name, and paged by their document's pages.
  const documentName = new Map((e.collection?.documents ?? []).map((d) => [d.id, d.filename]));
  const pagesOf = (documentId: string | undefined) =>
    (documentId ? input.documentPages?.[documentId] : undefined) ??
    input.chunkMap?.documents.find((d) => d.document === undefined || d.document.id === documentId)?.pages ??
    [];
  const agg = (s: string) => e.aggregateMetrics[s]!;
  // The highest composite, marked in tables and charts only where there is something it leads.
  const highest = strategies.length > 1 ? e.bestStrategy : null;
  const bars = (metric: string, marked: (s: string) => boolean = (s) => s === highest) =>
    strategies.map((s) => ({
      label: s,
      value: metricValue(registry, agg(s), metric),
      interval: agg(s).confidenceIntervals?.[metric] ?? null,
      missing: agg(s).missing?.[metric],
      highlight: marked(s),
    }));
  const answer = answerStrategies(e);
  // A bounded scale is drawn to its top; an open one (tokens) to its largest bar.
  const SCALE_TOPS: Partial<Record<MetricDefinition["scale"], number>> = { "0-10": 10, "0-1": 1 };
  const metricChart = (metric: string) => {
    const d = registry.definition(metric)!;
    return barChart(`${d.label} (${d.scale}, ${d.direction} is better; whiskers: 95 % CI)`, bars(metric), { max: SCALE_TOPS[d.scale] });
  };
  // With only local providers every cost is 0; price the same tokens on the reference model instead.
  const local = strategies.every((s) => agg(s).costUsd === 0);
  const costOfStrategy = (s: string) => (local ? referenceCost(REFERENCE_CHAT_MODEL, agg(s).tokens) : agg(s).costUsd);
  const costAxis = local ? `cost of the answers on ${REFERENCE_CHAT_MODEL} (USD)` : "cost of the run (USD)";
  // A strategy without a composite (or without the x value) is left off a scatter chart, never drawn at 0.
  const plotted = (x: (s: string) => number | null | undefined) =>
    strategies.flatMap((s) => {
      const [xv, y] = [x(s), agg(s).compositeScore];
      // Marked as the box's picture marks them: the answer (the recommended strategy, or those that cannot be separated).
      return xv === null || xv === undefined || y === null || y === undefined ? [] : [{ label: s, x: xv, y, highlight: answer.has(s) }];
    });
  const charts =
    view === "managerial"
      ? {
          composite: barChart(
            "Composite score per strategy (0-10, higher is better; whiskers: 95 % CI)" +
              (answer.size === 0 ? "" : `; marked: ${answer.size > 1 ? "cannot be separated" : "the answer"}`),
            bars("composite_score", (s) => answer.has(s)),
            { max: 10 },
          ),
          qualityCost: scatterChart(
            "Quality against cost",
            plotted((s) => costOfStrategy(s)),
            { x: costAxis, y: "composite score (0-10)", xBounds: { min: 0 }, yBounds: { min: 0, max: 10 } },
          ),
          qualityLatency: scatterChart(
            "Quality against latency",
            plotted((s) => agg(s).avgLatencySeconds),
            { x: "seconds per question", y: "composite score (0-10)", xBounds: { min: 0 }, yBounds: { min: 0, max: 10 } },
          ),
        }
      : {
          metrics: registry.quality
            .map((m) => m.key)
            // A metric no strategy could measure has nothing to draw; its reason stands under the scorecard.
            .filter((metric) => strategies.some((s) => metricValue(registry, agg(s), metric) !== null))
            .map(metricChart),
          sizes: e.details.indexing.map((x) => ({ strategy: x.strategy, svg: histogram(`${x.strategy}: chunk sizes`, x.tokenSizes) })),
        };
  const chunkStats = e.details.indexing.map((x) => ({
    ...x,
    mean: x.tokenSizes.length ? x.tokenSizes.reduce((a, b) => a + b, 0) / x.tokenSizes.length : 0,
    min: x.tokenSizes.length ? Math.min(...x.tokenSizes) : 0,
    max: x.tokenSizes.length ? Math.max(...x.tokenSizes) : 0,
  }));
  const latency = strategies.map((s) => {
    const list = input.results[s] ?? [];
    const avg = (k: "embedSeconds" | "searchSeconds" | "answerSeconds" | "totalSeconds") =>
      list.length ? list.reduce((n, r) => n + r.latency[k], 0) / list.length : null;
    return {
      strategy: s,
      embed: avg("embedSeconds"),
      search: avg("searchSeconds"),
      answer: avg("answerSeconds"),
      total: avg("totalSeconds"),
      interval: agg(s).latencyInterval ?? null,
    };
  });
  const questions = (input.results[strategies[0]!] ?? []).map((first, i) => ({
    question: first.question,
    expectedAnswer: first.expectedAnswer,
    references: first.references.map((ref) => ({
      ...ref,
      documentName: ref.documentId ? documentName.get(ref.documentId) : undefined,
      pages: pageLabel(pagesOf(ref.documentId), ref.start, ref.end),
    })),
    perStrategy: strategies
      .map((s) => {
        const r = input.results[s]?.[i];
        if (!r) return null;
        const chunks = r.retrieved.map((c, rank) => ({
          ...c,
          rank: rank + 1,
          documentName: c.documentId ? documentName.get(c.documentId) : undefined,
          // Pages of the chunk's own document.
          pages: pageLabel(pagesOf(c.documentId), c.start, c.end),
          // Only references of the chunk's own document can overlap it.
          segments: highlight(
            c,
            r.references.filter((ref) => ref.documentId === c.documentId),
          ),
        }));
        return { strategy: s, ...r, chunks };
      })
      .filter(Boolean),
  }));
  return {
    e,
    view,
    strategies,
    agg: e.aggregateMetrics,
    details: e.details,
    highest,
    dryRunNote: DRY_RUN_NOTE,
    recommendation: recommendation(e),
    confidence: confidenceLine(e),
    notes: glanceNotes(e),
    tradeOffs: tradeOffs(e),
    missing: missingMetrics(e),
    negativeControls: e.details.negativeControls ? describeNegativeControls(e.details.negativeControls) : [],
    metricRegistry: registry,
    metricDefinitions: registry.all,
    reportColumns: reportColumns(registry),
    // The metric each composite weight is the weight of, by the weight's name.
    compositeTermKeys: Object.fromEntries(registry.composite.map((m) => [m.composite.weight, m.key])),
    // Each question's scores in the technical view, under the metric's report heading (else its label).
    questionMetrics: registry.perQuestion.map((d) => ({
      key: d.key,
      field: d.perQuestion.field,
      label: metricName(d),
    })),
    value: (m: AggregateMetrics, key: string) => metricValue(registry, m, key),
    scale: (key: string) => {
      const d = registry.definition(key);
      return d ? `${d.scale} ${d.direction === "higher" ? "↑" : "↓"}` : "";
    },
    charts,
    sweeps: sweepFamilies(e, registry),
    axisTables: axisTables(e),
    perDocument: e.perDocument ? perDocumentRows(e) : null,
    perDocumentBlocks: strategyBlocks(strategies, STRATEGY_COLUMNS.perDocument),
    everyMetric: view === "technical" ? everyMetricBlocks(e, registry) : [],
    winsWhere: winsWhere(e),
    ranking: rankTable(e, registry),
    chunkStats,
    latency,
    // Older experiments embedded each question in the first strategy's searches: their embed column stays.
    latencyEmbedColumn: latency.some((l) => (l.embed ?? 0) > 0),
    shared: e.details.sharedSeconds ?? null,
    documentName: e.details.documentName ?? input.documentName ?? null,
    questions,
    baseline: input.baseline,
    // No strategy paired with the baseline (no question in common): said instead of an empty "changes in brackets".
    baselineUnpaired: input.baseline && Object.keys(input.baseline.deltas).length === 0 ? NO_CHANGES_AGAINST_BASELINE : null,
    gates: input.gates ?? [],
    gatesHeadline: gatesHeadline(input.gates ?? []),
    gatesFailed: (input.gates ?? []).some((g) => !g.passed),
    compositeBasis: compositeBasis(e, registry),
    chunkMap: view === "technical" && input.chunkMap ? buildChunkMap(input.chunkMap, strategies, input.results) : null,
    configLine:
      `${e.questionsCount} questions from ${e.details.questionsSource}; top_k ${e.details.topK}; embedder ${e.details.embedder}; ` +
      `generator ${e.details.generator}; judge ${e.details.judge}${e.details.dryRun ? "; dry run" : ""}`,
  };
}

/** Renders an experiment as one self-contained HTML page (inline CSS and SVG, no network). */
export function renderHtmlReport(input: ReportInput, view: ReportView = "managerial"): string {
  if (!REPORT_VIEWS.includes(view)) throw new ValidationError(`view must be one of ${REPORT_VIEWS.join(", ")}, got "${view}"`);
  return env().render("report.njk", { ...viewModel(input, view), title: VIEW_TITLES[view], sections: sectionsOf(view) });
}

/** A Markdown summary: the scorecard and the recommendation. */
export function renderMarkdownReport(input: ReportInput): string {
  return env("markdown").render("report.md.njk", { ...viewModel(input, "managerial"), sections: sectionsOf("markdown") });
}
