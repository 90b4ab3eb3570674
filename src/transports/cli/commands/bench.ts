import { existsSync } from "node:fs";
import { basename, extname } from "node:path";
import type { Command } from "commander";
import type { Chunkeval } from "../../../chunkeval.js";
import type { ExperimentRecord } from "../../../domain/experiment.js";
import { ValidationError } from "../../../errors.js";
import { loadQuestionsFile } from "../../../evaluators/questions.js";
import { COMPARABLE_METRICS, compareWithBaseline, metricValue, type ComparableMetric } from "../../../services/experiments.js";
import { parseInteger, readInputFile, withChunkeval, type GlobalOptions } from "../context.js";
import { formatNumber, printJson, printLine, printTable } from "../output.js";
import { startProgress } from "../progress.js";
import { requireArgument } from "../prompts.js";
import { writeReport, type ReportFormat } from "./report.js";

interface BenchOptions {
  questions?: string;
  strategies: string;
  topK?: number;
  dryRun?: boolean;
  out?: string;
  view: "managerial" | "technical";
  failUnder: string[];
  baseline?: string;
  maxErrors?: number;
  judge?: string;
}

/** Parses `METRIC=VALUE` thresholds; the metric must be one the scorecard has. */
function parseThresholds(values: string[]): Array<{ metric: ComparableMetric; value: number }> {
  return values.map((raw) => {
    const [metric, value] = raw.split("=");
    const n = Number(value);
    if (!metric || !COMPARABLE_METRICS.includes(metric as ComparableMetric) || value === undefined || !Number.isFinite(n)) {
      throw new ValidationError(`--fail-under expects METRIC=VALUE with METRIC one of ${COMPARABLE_METRICS.join(", ")}; got "${raw}"`);
    }
    return { metric: metric as ComparableMetric, value: n };
  });
}

function printScorecard(e: ExperimentRecord, deltas?: ReturnType<typeof compareWithBaseline>): void {
  const cell = (s: string, metric: ComparableMetric, digits = 2) => {
    const v = metricValue(e.aggregateMetrics[s]!, metric);
    const d = deltas?.[s]?.[metric];
    return (v === null ? "n/a" : v.toFixed(digits)) + (d === undefined || d === null ? "" : ` (${d >= 0 ? "+" : ""}${d.toFixed(digits)})`);
  };
  printTable(
    ["strategy", "composite", "ctx rel", "ans sim", "faithful", "halluc", "recall", "hit rate", "MRR", "s/q", "failed"],
    e.strategiesUsed.map((s) => [
      s === e.bestStrategy ? `${s} *` : s,
      cell(s, "composite_score"),
      cell(s, "avg_context_relevance"),
      cell(s, "avg_answer_similarity"),
      cell(s, "avg_faithfulness"),
      cell(s, "hallucination_rate", 3),
      cell(s, "avg_recall", 3),
      cell(s, "hit_rate", 3),
      cell(s, "mrr", 3),
      cell(s, "avg_latency_seconds", 3),
      `${e.aggregateMetrics[s]!.failedQuestions}/${e.aggregateMetrics[s]!.totalQuestions}`,
    ]),
  );
  printLine(`best strategy: ${e.bestStrategy} (*); total latency ${formatNumber(e.totalLatencySeconds)} s; estimated cost $${e.estimatedCostUsd.toFixed(4)} ($${e.details.cost.referenceUsd.toFixed(4)} on ${e.details.cost.referenceModel})`);
  if (e.details.fullRunEstimate) printLine(`dry run: the full run would cost about $${e.details.fullRunEstimate.costUsd.toFixed(4)} and take about ${e.details.fullRunEstimate.seconds.toFixed(0)} s`);
  if (e.details.stoppedEarly) printLine(e.details.stoppedEarly);
  printLine(`experiment: ${e.experimentId}${deltas ? " (changes against the baseline in brackets)" : ""}`);
}

/** A document argument: a Word file to upload (reused when uploaded before) or a stored document id. */
export async function resolveDocument(app: Chunkeval, target: string) {
  const ext = extname(target).toLowerCase();
  if (ext === ".docx" || ext === ".doc" || existsSync(target)) {
    return { filename: basename(target), bytes: await readInputFile(target, app.config.maxUploadMb) };
  }
  app.getDocument(target); // not found -> exit 3
  return { id: target };
}

export function registerBenchCommand(program: Command): void {
  program
    .command("bench")
    .description("benchmark strategies over a questions file; stores an experiment, prints a scorecard, optionally writes a report")
    .argument("[doc]", "document id, or a .docx/.doc file (uploaded and processed if needed)")
    .option("--questions <file>", "questions file (.json, .jsonl, .yaml)")
    .option("-s, --strategies <list>", "comma-separated strategy names, or all", "all")
    .option("-k, --top-k <k>", "chunks retrieved per question", parseInteger("--top-k"))
    .option("--dry-run", "retrieval metrics only, no answers or judging; estimates the full run's cost and time")
    .option("--out <file>", "write the report to this file (.html, .md or .json by extension)")
    .option("--view <view>", "report view: managerial or technical", "managerial")
    .option("--fail-under <metric=value>", "exit 1 when the best strategy's metric is below value (repeatable)", (v: string, all: string[]) => [...all, v], [])
    .option("--baseline <experiment_id>", "show each metric's change against an earlier experiment")
    .option("--max-errors <n>", "stop after this many failed questions", parseInteger("--max-errors"))
    .option("--judge <spec>", "embedding | openai:<model> (env CHUNKEVAL_JUDGE)")
    .option("--json", "print only the Experiment JSON on stdout")
    .addHelpText("after", `\nMetrics for --fail-under and --baseline: ${COMPARABLE_METRICS.join(", ")}.`)
    .action(async (docArg: string | undefined, options: BenchOptions, command: Command) => {
      const target = await requireArgument(docArg, "doc", "Document id or Word file to benchmark:");
      const questionsPath = await requireArgument(options.questions, "questions", "Questions file:");
      if (!["managerial", "technical"].includes(options.view)) throw new ValidationError(`--view must be managerial or technical, got "${options.view}"`);
      const thresholds = parseThresholds(options.failUnder);
      const globals = command.optsWithGlobals<GlobalOptions>();
      const questions = await loadQuestionsFile(questionsPath);
      await withChunkeval(command, async (app) => {
        const baseline = options.baseline ? app.getExperiment(options.baseline) : undefined;
        const document = await resolveDocument(app, target);
        const progress = await startProgress("benchmarking", { quiet: globals.quiet || globals.json });
        const experiment = await app
          .bench({
            document,
            questions,
            questionsSource: basename(questionsPath),
            strategies: options.strategies,
            topK: options.topK,
            dryRun: options.dryRun,
            maxErrors: options.maxErrors,
            judge: options.judge,
            onProgress: progress.onProgress,
          })
          .catch((error) => {
            progress.fail();
            throw error;
          });
        progress.succeed(`experiment ${experiment.experimentId}`);
        const deltas = baseline ? compareWithBaseline(experiment, baseline) : undefined;
        const { experimentId, documentId, strategiesUsed, questionsCount, aggregateMetrics, bestStrategy, totalLatencySeconds, estimatedCostUsd, createdAt } = experiment;
        if (globals.json) printJson({ experimentId, documentId, strategiesUsed, questionsCount, aggregateMetrics, bestStrategy, totalLatencySeconds, estimatedCostUsd, createdAt, ...(deltas ? { baselineDeltas: deltas } : {}) });
        else printScorecard(experiment, deltas);
        if (options.out) {
          const format: ReportFormat = options.out.endsWith(".md") ? "md" : options.out.endsWith(".json") ? "json" : "html";
          await writeReport(app, experiment.experimentId, { format, view: options.view, out: options.out, baselineId: options.baseline });
          if (!globals.json) printLine(`report: ${options.out}`);
        }
        const best = experiment.aggregateMetrics[experiment.bestStrategy]!;
        const missed = thresholds.filter((t) => {
          const v = metricValue(best, t.metric);
          return v === null || v < t.value;
        });
        for (const t of missed) {
          const v = metricValue(best, t.metric);
          process.stderr.write(`chunkeval: --fail-under ${t.metric}=${t.value} missed: ${experiment.bestStrategy} has ${v === null ? "n/a" : v.toFixed(4)}\n`);
        }
        if (missed.length > 0) process.exitCode = 1;
      });
    });
}

