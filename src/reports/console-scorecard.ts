// The terminal's scorecard of an experiment: a renderer beside the HTML and Markdown reports
// (render.ts) and the CI summary (ci-summary.ts). It says what to print, as lines and tables; the
// CLI prints them at the terminal's width.
import { NO_CHANGES_AGAINST_BASELINE } from "../domain/baseline-words.js";
import { formatNumber, signedFixed } from "../domain/number-words.js";
import { winnerThere } from "../domain/group-winner.js";
import type { ExperimentRecord } from "../domain/experiment.js";
import { metricValue, scorecardMetrics } from "../domain/metric-catalogue.js";
import type { MetricRegistry } from "../domain/metric-registry/registry.js";
import { nameWithId } from "../domain/filenames.js";
import { describeNegativeControls } from "../domain/negative-controls.js";
import { axisTables } from "./axis-tables.js";
import { compositeBasis } from "./composite-basis.js";
import { sectionsOf, type SectionOf } from "./sections.js";

/** A line of prose, or a table with its header. */
export type ConsoleBlock = { line: string } | { head: string[]; rows: string[][] };

/** What a section of the terminal's scorecard is made from. */
interface ConsoleInput {
  e: ExperimentRecord;
  metrics: MetricRegistry;
  /** Each metric's change against a baseline, per strategy. */
  deltas?: Record<string, Record<string, number | null>>;
}

const line = (text: string): ConsoleBlock => ({ line: text });

/** The terminal's part of each section it shows (sections.ts): the type checker holds its keys to the declared list. */
const CONSOLE_SECTIONS: Record<SectionOf<"console">, (input: ConsoleInput) => ConsoleBlock[]> = {
  // The answer first (issue 39), then what qualifies it; the table below says what it stands on.
  verdict: ({ e }) => [
    line(e.headline),
    line(`verdict: ${e.verdict}`),
    ...e.verdictNotes.map(line),
    ...(e.details.chunkWarnings ?? []).map((warning) => line(`warning: ${warning}`)),
  ],
  scorecard: scorecardBlocks,
  axes: ({ e }) =>
    axisTables(e).flatMap((axis) => [
      line(`strategy × ${axis.axis}, composite (* the highest ${axis.axis === "embedder" ? "with" : "under"} that ${axis.axis}):`),
      {
        head: ["strategy", ...axis.columns],
        rows: axis.rows.map((row) => [row.chunks, ...row.cells.map((c) => (c.value === null ? "n/a" : `${c.value.toFixed(2)}${c.best ? " *" : ""}`))]),
      },
    ]),
  "per-document": ({ e, metrics }) => (e.collection && e.perDocument ? perDocumentBlocks(e, metrics) : []),
  "negative-controls": ({ e }) =>
    e.details.negativeControls ? describeNegativeControls(e.details.negativeControls).map((l) => line(`negative controls: ${l}`)) : [],
  cost: ({ e }) => {
    const { referenceUsd, referenceModel } = e.details.cost;
    const shared = e.details.sharedSeconds;
    const sharedNote = shared ? ` (${formatNumber(shared.questionEmbedding + shared.warmUp)} s of it shared: embedding the questions, warming up)` : "";
    // "best" only where the headline recommends it; otherwise the figure it is: the highest composite.
    const named = e.verdictStatus === "recommendation" ? "best strategy" : e.strategiesUsed.length > 1 ? "highest composite" : "strategy";
    const mark = e.strategiesUsed.length > 1 ? " (*)" : "";
    const blocks = [
      line(
        `${named}: ${e.bestStrategy}${mark}; total latency ${formatNumber(e.totalLatencySeconds)} s${sharedNote}; ` +
          `estimated cost $${e.estimatedCostUsd.toFixed(4)} ($${referenceUsd.toFixed(4)} on ${referenceModel})`,
      ),
    ];
    const full = e.details.fullRunEstimate;
    if (full) {
      blocks.push(
        line(
          `dry run: a full run started now would cost about $${full.costUsd.toFixed(4)} and take about ${full.seconds.toFixed(full.seconds < 10 ? 1 : 0)} s`,
        ),
      );
      if (full.includes) blocks.push(line(`  the time includes ${full.includes}`));
    }
    if (e.details.stoppedEarly) blocks.push(line(e.details.stoppedEarly));
    return blocks;
  },
  run: ({ e, deltas }) => {
    const against =
      deltas === undefined ? "" : Object.keys(deltas).length > 0 ? " (changes against the baseline in brackets)" : ` (${NO_CHANGES_AGAINST_BASELINE})`;
    return [
      line(
        e.collection
          ? `collection: ${nameWithId(e.collection.name, e.collection.id)}, ${e.collection.documents.length} documents`
          : `document: ${nameWithId(e.details.documentName, e.documentId)}`,
      ),
      line(`experiment: ${e.experimentId}${against}`),
    ];
  },
};

/**
 * The terminal's scorecard of an experiment, as the blocks `bench` prints after a run: the sections
 * declared for the console (sections.ts) in their order, with the columns of `metrics`. `deltas`:
 * each metric's change against a baseline.
 */
export function consoleScorecard(e: ExperimentRecord, metrics: MetricRegistry, deltas?: Record<string, Record<string, number | null>>): ConsoleBlock[] {
  return sectionsOf("console").flatMap((section) => CONSOLE_SECTIONS[section]({ e, metrics, deltas }));
}

/** The scorecard table, its legend, what the composites hold, and the notes on what a figure stands on. */
function scorecardBlocks({ e, metrics, deltas }: ConsoleInput): ConsoleBlock[] {
  const cell = (s: string, metric: string, digits: number) => {
    const m = e.aggregateMetrics[s]!;
    const v = metricValue(metrics, m, metric);
    const d = deltas?.[s]?.[metric];
    const interval = metric === "composite_score" ? m.confidenceIntervals?.[metric] : undefined;
    return (
      (v === null ? "n/a" : v.toFixed(digits)) +
      (interval ? ` [${interval[0].toFixed(digits)}, ${interval[1].toFixed(digits)}]` : "") +
      (d === undefined || d === null ? "" : ` (${signedFixed(d, digits)})`)
    );
  };
  const header = (key: string) => {
    const definition = metrics.definition(key)!;
    return `${definition.label}\n${definition.scale} ${definition.direction === "higher" ? "↑" : "↓"}`;
  };
  const blocks: ConsoleBlock[] = [
    {
      head: ["strategy", "retrieval", ...scorecardMetrics(metrics).map(([key]) => header(key)), "failed"],
      rows: e.strategiesUsed.map((s) => [
        // One strategy benchmarked leads nothing: no row is marked.
        s === e.bestStrategy && e.strategiesUsed.length > 1 ? `${s} *` : s,
        e.retrievalModes[s] ?? "n/a",
        ...scorecardMetrics(metrics).map(([key, digits]) => cell(s, key, digits)),
        `${e.aggregateMetrics[s]!.failedQuestions}/${e.aggregateMetrics[s]!.totalQuestions}`,
      ]),
    },
    line("↑ higher is better, ↓ lower is better; composite with its 95 % confidence interval over questions"),
  ];
  const basis = compositeBasis(e, metrics);
  if (basis) blocks.push(line(basis));
  const located = e.details.referencesLocated ?? {};
  const notAsWritten = (located.words ?? 0) + (located.relocated ?? 0);
  if (notAsWritten > 0) {
    blocks.push(
      line(
        `note: ${notAsWritten} reference excerpt(s) were not in the extracted text as written: ${located.words ?? 0} found as the same words ` +
          `(markup, punctuation or quotes differ), ${located.relocated ?? 0} away from offsets that pointed elsewhere`,
      ),
    );
  }
  return [...blocks, ...missingMetricLines(e).map(line)];
}

/** A collection's results per document: which strategy wins where, with its composite and recall there. */
function perDocumentBlocks(e: ExperimentRecord, metrics: MetricRegistry): ConsoleBlock[] {
  const intro = `collection ${e.collection!.name}: ${e.collection!.documents.length} documents searched together; pooled above, per document below`;
  const value = (m: ExperimentRecord["aggregateMetrics"][string] | undefined, key: string, digits: number) => {
    const v = m ? metricValue(metrics, m, key) : null;
    return v === null ? "n/a" : v.toFixed(digits);
  };
  // One strategy leads nothing: its figures per document, no "highest" anywhere.
  if (e.strategiesUsed.length === 1) {
    const head = ["document", "questions", "winner there", `${e.bestStrategy}: composite`, "recall"];
    const rows = e.perDocument!.map((d) => [
      d.filename,
      String(d.questions),
      winnerThere(d, 1),
      value(d.aggregateMetrics[e.bestStrategy], "composite_score", 2),
      value(d.aggregateMetrics[e.bestStrategy], "avg_recall", 3),
    ]);
    return [line(intro), { head, rows }];
  }
  const head = ["document", "questions", "winner there", "highest there", "composite", "recall", `${e.bestStrategy} (pooled highest)`];
  const rows = e.perDocument!.map((d) => [
    d.filename,
    String(d.questions),
    winnerThere(d, e.strategiesUsed.length),
    d.bestStrategy,
    value(d.aggregateMetrics[d.bestStrategy], "composite_score", 2),
    value(d.aggregateMetrics[d.bestStrategy], "avg_recall", 3),
    value(d.aggregateMetrics[e.bestStrategy], "composite_score", 2),
  ]);
  return [line(intro), { head, rows }];
}

/** "n/a — <reason> (avg_faithfulness, hallucination_rate)", one line per distinct reason. */
function missingMetricLines(e: ExperimentRecord): string[] {
  const byReason = new Map<string, Set<string>>();
  for (const m of Object.values(e.aggregateMetrics)) {
    for (const [metric, reason] of Object.entries(m.missing ?? {})) byReason.set(reason, (byReason.get(reason) ?? new Set()).add(metric));
  }
  return [...byReason].map(([reason, metrics]) => `n/a — ${reason} (${[...metrics].join(", ")})`);
}
