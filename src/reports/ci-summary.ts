import { NO_CHANGES_AGAINST_BASELINE } from "../domain/baseline-words.js";
import { signedFixed } from "../domain/number-words.js";
import type { ExperimentRecord } from "../domain/experiment.js";
import { gatesHeadline, type GateOutcome } from "../domain/gate-outcome.js";
import { compositeBasis } from "./composite-basis.js";
import { sectionsOf, type SectionOf } from "./sections.js";
import { metricValue, scorecardMetrics } from "../domain/metric-catalogue.js";
import type { MetricRegistry } from "../domain/metric-registry/registry.js";

export interface CiSummaryInput {
  experiment: ExperimentRecord;
  /** The metrics of the composition that renders: the scorecard's columns. */
  metrics: MetricRegistry;
  outcomes: GateOutcome[];
  /** The baseline's name (file or experiment id) and each metric's change against it, per strategy. */
  baseline?: { source: string; deltas: Record<string, Record<string, number | null>>; notes: string[] };
  /** The reports written, with where a reader finds them (a CI artifact link, or the file name). */
  reports: Array<{ label: string; href: string | null }>;
}

/** A table cell: pipes and line breaks would break the row, `<` would be read as HTML. */
const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/</g, "&lt;").replace(/\r?\n/g, " ");
const code = (text: string) => "`" + text.replace(/`/g, "'") + "`";

/** The CI summary's part of each section it shows (sections.ts), as Markdown lines: the type checker holds its keys to the declared list. */
const CI_SECTIONS: Record<SectionOf<"ci-summary">, (input: CiSummaryInput) => string[]> = {
  // Each gate's result first, under the title that sums them up.
  gates: ({ outcomes }) =>
    outcomes.length === 0
      ? []
      : [
          "| result | gate | strategy | figures |",
          "|---|---|---|---|",
          ...outcomes.map((o) => `| ${o.passed ? "✅ passed" : "❌ failed"} | ${code(o.gate)} | ${cell(o.strategy)} | ${cell(o.detail)} |`),
          "",
        ],
  // The headline says what the verdict may claim (a recommendation, no clear winner, a smoke test) and the notes what it stands on:
  // a pull request must not read "X is best" from template questions or a lead within noise. Older experiments have neither.
  verdict: ({ experiment: e }) => [
    ...(e.headline ? [`**${cell(e.headline)}**`, ""] : []),
    `**Verdict:** ${cell(e.verdict)}`,
    "",
    ...(e.verdictNotes?.length ? [...e.verdictNotes.map((n) => `- ${cell(n)}`), ""] : []),
  ],
  scorecard: scorecardLines,
  run: ({ experiment: e }) => {
    const tags = Object.entries(e.tags).map(([k, v]) => code(`${k}=${v}`));
    const strategies = `${e.strategiesUsed.length} ${e.strategiesUsed.length === 1 ? "strategy" : "strategies"}`;
    return [
      `Experiment ${code(e.experimentId)} · ${strategies} × ${e.questionsCount} questions · ${cell(e.details.embedder)} embedder` +
        (tags.length > 0 ? ` · tags: ${tags.join(" ")}` : ""),
      "",
    ];
  },
  reports: ({ reports }) =>
    reports.length === 0 ? [] : ["### Reports", "", ...reports.map((r) => (r.href ? `- [${cell(r.label)}](${r.href})` : `- ${code(r.label)}`)), ""],
};

/**
 * A Markdown summary of a benchmark for `$GITHUB_STEP_SUMMARY` or a pull-request comment, under a title
 * that sums up the gates: the sections declared for it (sections.ts) in their order. The gates with their
 * figures, the verdict's headline and what it stands on, the scorecard with changes against the
 * baseline (which metrics the composites hold, what differs from the baseline), the run, and links to the reports.
 */
export function renderCiSummary(input: CiSummaryInput): string {
  const gates = gatesHeadline(input.outcomes);
  const failed = input.outcomes.some((o) => !o.passed);
  const headline = gates === null ? "ℹ️ chunkeval: benchmark ran, no gates were set" : `${failed ? "❌" : "✅"} chunkeval: ${gates}`;
  return [`## ${headline}`, "", ...sectionsOf("ci-summary").flatMap((section) => CI_SECTIONS[section](input))].join("\n");
}

/** The scorecard: the metrics some strategy measured, each with its change against the baseline, then what is not like for like with it. */
function scorecardLines(input: CiSummaryInput): string[] {
  const e = input.experiment;
  const lines: string[] = [];
  const columns = scorecardMetrics(input.metrics).filter(([key]) =>
    e.strategiesUsed.some((s) => metricValue(input.metrics, e.aggregateMetrics[s]!, key) !== null),
  );
  const header = (key: string) => {
    const d = input.metrics.definition(key)!;
    return `${d.label} (${d.scale} ${d.direction === "higher" ? "↑" : "↓"})`;
  };
  lines.push(`| strategy | ${columns.map(([key]) => header(key)).join(" | ")} | failed |`, `|---|${columns.map(() => "---|").join("")}---|`);
  for (const s of e.strategiesUsed) {
    const m = e.aggregateMetrics[s]!;
    const values = columns.map(([key, digits]) => {
      const v = metricValue(input.metrics, m, key);
      const d = input.baseline?.deltas[s]?.[key];
      return (v === null ? "n/a" : v.toFixed(digits)) + (d === undefined || d === null ? "" : ` (${signedFixed(d, digits)})`);
    });
    // One strategy benchmarked leads nothing: no row is marked.
    const marked = s === e.bestStrategy && e.strategiesUsed.length > 1;
    lines.push(`| ${cell(s)}${marked ? " ★" : ""} | ${values.join(" | ")} | ${m.failedQuestions}/${m.totalQuestions} |`);
  }
  const against = !input.baseline
    ? ""
    : Object.keys(input.baseline.deltas).length > 0
      ? `; changes in brackets against the baseline ${code(input.baseline.source)}`
      : `; baseline ${code(input.baseline.source)}: ${NO_CHANGES_AGAINST_BASELINE}`;
  const star = e.strategiesUsed.length > 1 ? "★ highest composite (the headline says whether that is a recommendation); " : "";
  const basis = compositeBasis(e, input.metrics);
  lines.push("", `${star}↑ higher is better, ↓ lower is better${against}.${basis ? ` ${cell(basis)}.` : ""}`, "");
  const notes = [...new Set([...(input.baseline?.notes ?? []), ...input.outcomes.flatMap((o) => o.notes)])];
  if (notes.length > 0) lines.push("### Not like for like with the baseline", "", ...notes.map((n) => `- ${cell(n)}`), "");
  return lines;
}
