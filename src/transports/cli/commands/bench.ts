import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import type { Command } from "commander";
import { CancelledError, ExitCode, ValidationError } from "../../../errors.js";
import type { ProgressEvent } from "../../../domain/types.js";
import { DEFAULTS } from "../../../config/defaults.js";
import { BUILT_IN_METRICS } from "../../../domain/metric-registry/registry.js";
import { gatesHeadline } from "../../../domain/gate-outcome.js";
import { gateRequestOf, loadBaseline, planCi, writeCiFiles, type CiOptions } from "../bench-ci.js";
import { parseInteger, withChunkeval, type GlobalOptions } from "../context.js";
import { printJson, printLine, printTable, printNote } from "../output.js";
import { printDocumentWarnings } from "../document-warnings.js";
import { startProgress } from "../progress.js";
import { confirm, requireArgument } from "../prompts.js";
import { reportFormatOf, writeReport } from "./report.js";
import { interruptible } from "../interrupt.js";
import { refuseOutputClashes, refuseUnwritableOutputs } from "../output-clash.js";
import { cliIo } from "../io.js";
import { SEARCH_MODES, type SearchMode } from "../../../domain/variant-key.js";
import { consoleScorecard, experimentView } from "../../../api/benchmarks.js";
import { gatedStrategyName, missedGates } from "../../../api/ci.js";
import type { Chunkeval, ChunksImport, EstimateInput } from "../../../api/index.js";
import { loadQuestionsFile } from "../../../api/questions.js";

interface BenchOptions extends CiOptions {
  questions?: string;
  collection?: string;
  strategies?: string;
  sweep: string[];
  topK?: number[];
  retrievers?: SearchMode[];
  embedders?: string[];
  yes?: boolean;
  maxVariants?: number;
  dryRun?: boolean;
  out?: string;
  view: "managerial" | "technical";
  failUnder: string[];
  failOver: string[];
  maxErrors?: number;
  judge?: string;
  chunks: string[];
}

/** How far the answers got: the answer stage's events, one per question and strategy, sent before each answer. */
interface AnswerTally {
  started: number;
  total: number;
}

/** What Ctrl-C left behind, in one line: where the run stopped, what is kept, and that a re-run goes on from there. */
function interruptedLine(last: ProgressEvent | undefined, answers: AnswerTally): string {
  const where =
    last === undefined
      ? "before any work"
      : last.stage === "answer"
        ? // The answer under way when the signal came is not kept.
          `after ${Math.max(answers.started - 1, 0)} of ${answers.total} answers`
        : last.stage === "upload"
          ? last.done === last.total
            ? `after reading the ${last.total} documents`
            : `while uploading ${last.message}`
          : last.stage === "plan"
            ? "while estimating the run's time and cost"
            : last.stage === "score"
              ? `while scoring (${last.message}), after all ${answers.total} answers`
              : `while processing ${last.strategy ?? last.stage} (${last.message})`;
  return (
    `chunkeval: interrupted ${where}; no experiment was stored. Kept: the documents, the strategies already processed, ` +
    `cached embeddings and model replies. Run the same command again to resume: it reuses them and asks the questions again.`
  );
}

/** The variant syntax, for --help (docs/benchmarks.md "Variants and sweeps" has the long form). */
const VARIANT_HELP = `Variants and sweeps:
  A variant is a strategy at given parameters: name@param=value:param=value. Every strategy
  takes its own chunking parameters (see chunkeval strategies), embedder=SPEC (the embedder its
  chunks are embedded and searched with: its own index) and two search parameters:
  retrieval=dense|keyword|hybrid and top_k=N. Results are keyed by the variant; parameters at
  their defaults are left out of the key, so recursive@chunk_size=256 is plain recursive.
    --strategies recursive,recursive@chunk_size=128,recursive@chunk_size=512:chunk_overlap=0
    --strategies semantic@breakpoint_percentile=95,recursive@retrieval=hybrid
    --sweep recursive:chunk_size=128,256,512:chunk_overlap=0,32     (6 variants)
    --sweep recursive:retrieval=dense,keyword,hybrid --top-k 3,5,10  (9 variants)
    --strategies recursive,structure --embedders use,hash --retrievers dense (4 variants)
  A sweep prints its size and estimated cost and time first; above ${DEFAULTS.confirmSweepVariants} variants, $${DEFAULTS.confirmSweepUsd}
  or ${DEFAULTS.confirmSweepSeconds} s it asks in a terminal (--yes skips; without a terminal --yes is required),
  and above --max-variants (default ${DEFAULTS.maxSweepVariants}) it is refused.`;

/** `--chunks name=FILE`: the file read and checked line by line (docs/strategies.md "Your own chunks"). */
async function loadChunks(spec: string): Promise<ChunksImport> {
  const equals = spec.indexOf("=");
  if (equals < 1 || equals === spec.length - 1) throw new ValidationError(`--chunks takes name=FILE.jsonl, got "${spec}"`);
  const name = spec.slice(0, equals).trim();
  const file = spec.slice(equals + 1).trim();
  let content: string;
  try {
    content = await readFile(file, "utf8");
  } catch (error) {
    throw new ValidationError(`chunks file ${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  // Loaded here, not at the top: it brings the tokenizer, which `bench --help` does not need.
  const { parseChunksJsonl } = await import("../../../api/imported-chunks.js");
  return parseChunksJsonl(name, file, content);
}

function parseIntegerList(name: string) {
  const one = parseInteger(name);
  return (value: string): number[] => value.split(",").map((v) => one(v.trim()));
}

/** A comma-separated option's distinct items, blanks dropped. */
function distinctItems(value: string): string[] {
  return [
    ...new Set(
      value
        .split(",")
        .map((item) => item.trim())
        .filter(Boolean),
    ),
  ];
}

/** `--retrievers dense,keyword`: search modes, each once; an unknown one is bad usage. */
function parseRetrievers(value: string): SearchMode[] {
  const modes = distinctItems(value);
  const unknown = modes.find((m) => !SEARCH_MODES.includes(m as SearchMode));
  if (modes.length === 0 || unknown !== undefined)
    throw new ValidationError(`--retrievers takes ${SEARCH_MODES.join(", ")} (comma-separated), not "${unknown ?? value}"`);
  return modes as SearchMode[];
}

/** `--embedders use,hash`: embedder specs, each once (checked against the registry when the variants are planned). */
function parseEmbedders(value: string): string[] {
  const specs = distinctItems(value);
  if (specs.length === 0) throw new ValidationError(`--embedders takes embedder specs (comma-separated: use,hash,openai:MODEL,hf:MODEL), not "${value}"`);
  return specs;
}

/** A run that compares parameter settings, not just strategies: it is estimated and bounded first. */
function isSweep(options: BenchOptions): boolean {
  return (
    options.sweep.length > 0 ||
    (options.topK?.length ?? 0) > 1 ||
    (options.retrievers?.length ?? 0) > 1 ||
    (options.embedders?.length ?? 0) > 1 ||
    (options.strategies ?? "").includes("@")
  );
}

/**
 * Prints the grid and its estimate on stderr (stdout stays for the results) and decides,
 * before anything is spent, whether it runs: below the thresholds it does; above, it asks in a
 * terminal, runs with --yes, and is a usage error otherwise.
 */
async function confirmSweep(app: Chunkeval, input: EstimateInput, options: BenchOptions): Promise<void> {
  const estimate = await app.estimateBench(input);
  printNote(
    `sweep: ${estimate.variants.length} variant${estimate.variants.length === 1 ? "" : "s"} ` +
      `(${estimate.indexesToBuild} of ${estimate.indexes} indexes to build) ` +
      `× ${estimate.questions} questions = ${estimate.runs} runs; ` +
      `estimated ~${estimate.seconds.toFixed(estimate.seconds < 10 ? 1 : 0)} s and ~$${estimate.costUsd.toFixed(4)}${input.dryRun ? " (dry run)" : ""}\n` +
      `  the time includes ${estimate.includes}\n` +
      `  ${estimate.variants.join(", ")}`,
  );
  const { sweepDecision } = await import("../../../api/sweep.js");
  const decision = sweepDecision(estimate, { yes: options.yes === true, interactive: cliIo().stdinIsTTY });
  if (!decision.run) throw new ValidationError(decision.reason);
  if (decision.ask && !(await confirm(`Run ${estimate.variants.length} variants (~$${estimate.costUsd.toFixed(4)}, ~${estimate.seconds.toFixed(0)} s)?`))) {
    throw new CancelledError("the sweep was not confirmed; nothing was run");
  }
}

export function registerBenchCommand(program: Command): void {
  program
    .command("bench")
    .description("benchmark strategies over a questions file; stores an experiment, prints a scorecard, optionally writes a report")
    .argument(
      "[targets...]",
      "a document (id, stored file name, or file), or a collection: a folder, several documents or files, " +
        "a quoted glob (docs/*.md), a collection id or name (files uploaded as needed)",
    )
    .option("--questions <file>", "questions file (.json, .jsonl, .yaml)")
    .option("--collection <name>", "benchmark this collection (with files: add them to it first, creating it if needed)")
    .option("-s, --strategies <list>", "comma-separated strategy names or variants (name@param=value:param=value), or all (the default without --sweep)")
    .option("--sweep <name:param=v1,v2:param=v1,v2>", "benchmark every combination of the values (repeatable)", (v: string, all: string[]) => [...all, v], [])
    .option("-k, --top-k <k[,k…]>", "chunks retrieved per question; several values run every variant at each", parseIntegerList("--top-k"))
    .option(
      "--retrievers <list>",
      "run every strategy under each search mode (dense,keyword,hybrid): the verdict says whether the winner holds under each",
      parseRetrievers,
    )
    .option(
      "--embedders <list>",
      "run every strategy with each embedder (use,hash,openai:MODEL,hf:MODEL), each its own index and cache: " +
        "the verdict says whether the winner holds with each " +
        "(the bundled embedders are searched by keyword unless --retrievers or @retrieval= says otherwise)",
      parseEmbedders,
    )
    .option("-y, --yes", "run a large sweep without asking (needed without a terminal)")
    .option("--max-variants <n>", `refuse a benchmark of more variants than this (default ${DEFAULTS.maxSweepVariants})`, parseInteger("--max-variants"))
    .option("--dry-run", "retrieval metrics only, no answers or judging; estimates the full run's cost and time")
    .option("--out <file>", "write the report to this file (.html, .md or .json by extension)")
    .option("--view <view>", "report view: managerial or technical", "managerial")
    .option(
      "--fail-under <metric=value>",
      "exit 4 when the highest composite's higher-is-better metric is below value (the recommended strategy, or the highest under no clear winner; repeatable)",
      (v: string, all: string[]) => [...all, v],
      [],
    )
    .option(
      "--fail-over <metric=value>",
      "exit 4 when the highest composite's lower-is-better metric is above value (repeatable)",
      (v: string, all: string[]) => [...all, v],
      [],
    )
    .option("--baseline <file_or_id>", "a baseline file (--save-baseline) or an earlier experiment id: show each metric's change against it")
    .option(
      "--fail-on-regression [metrics]",
      "exit 4 when a metric dropped significantly (paired bootstrap, 95 %) against --baseline: default composite_score; METRIC@STRATEGY names a strategy",
    )
    .option(
      "--max-drop <metric=v>",
      "exit 4 when a metric dropped against --baseline by more than v (rose, if lower is better); METRIC@STRATEGY=v for a named strategy (repeatable)",
      (v: string, all: string[]) => [...all, v],
      [],
    )
    .option("--save-baseline <file>", "write this run as a baseline file to commit (per-question scores, questions' hash, configuration, version)")
    .option("--junit <file>", "write JUnit XML: a test case per strategy and per gate, with the figures in failure messages")
    .option("--summary <file>", "write a Markdown summary (verdict, scorecard, gates, changes against the baseline, report links) for $GITHUB_STEP_SUMMARY")
    .option(
      "--tag <key=value>",
      "a label stored with the experiment and shown in reports and summaries (repeatable: sha, branch, pr)",
      (v: string, all: string[]) => [...all, v],
      [],
    )
    .option("--max-errors <n>", "stop after this many failed questions", parseInteger("--max-errors"))
    .option("--judge <spec>", "embedding | openai:<model> (env CHUNKEVAL_JUDGE)")
    .option(
      "--chunks <name=file.jsonl>",
      "benchmark chunks your own pipeline made, as strategy name (repeatable; docs/strategies.md: Your own chunks)",
      (v: string, all: string[]) => [...all, v],
      [],
    )
    .option("--json", "print only the Experiment JSON on stdout")
    .addHelpText(
      "after",
      `\n${VARIANT_HELP}\n\nMetrics (scale, direction):\n` +
        `${BUILT_IN_METRICS.all.map((m) => `  ${m.key.padEnd(22)} ${m.scale.padEnd(8)} ${m.direction} is better`).join("\n")}\n` +
        `--fail-under takes the higher-is-better ones, --fail-over the lower-is-better ones; a metric that could not be measured fails its gate.\n` +
        `--fail-on-regression and --max-drop take the quality metrics (not latency or cost). A failed gate exits 4: the run succeeded and was stored.`,
    )
    .action(async (targetArgs: string[], options: BenchOptions, command: Command) => {
      const targets =
        targetArgs.length > 0 || options.collection ? targetArgs : [await requireArgument(undefined, "doc", "Document id, file or folder to benchmark:")];
      const questionsPath = await requireArgument(options.questions, "questions", "Questions file:");
      if (!["managerial", "technical"].includes(options.view)) throw new ValidationError(`--view must be managerial or technical, got "${options.view}"`);
      const ci = planCi(options);
      const gates = ci.floors;
      const reportFormat = options.out === undefined ? undefined : reportFormatOf(options.out);
      const globals = command.optsWithGlobals<GlobalOptions>();
      const questions = await loadQuestionsFile(questionsPath);
      // Loaded here, not at start: it stems words, which `--help` does not need (cli-start.test.ts).
      const { loadQuestionsOrigin } = await import("../../../api/question-set.js");
      const questionsOrigin = await loadQuestionsOrigin(questionsPath);
      const { eachImport } = await import("../../../api/imported-chunks.js");
      const chunks = await eachImport(options.chunks, loadChunks);
      const outputs = [
        { flag: "--out", path: options.out },
        { flag: "--junit", path: options.junit },
        { flag: "--summary", path: options.summary },
        { flag: "--save-baseline", path: options.saveBaseline },
      ];
      refuseUnwritableOutputs(outputs);
      await withChunkeval(command, async (app) => {
        refuseOutputClashes(outputs, [
          { what: "the questions file", path: questionsPath },
          ...targets.map((path) => ({ what: "the document", path })),
          ...(options.baseline ? [{ what: "the baseline file", path: options.baseline }] : []),
          ...options.chunks.map((spec) => ({ what: "the chunks file", path: spec.slice(spec.indexOf("=") + 1) })),
        ]);
        const selection = {
          strategies: options.strategies ?? (options.sweep.length > 0 ? undefined : "all"),
          sweep: options.sweep,
          topK: options.topK?.length === 1 ? options.topK[0] : options.topK,
          retrievers: options.retrievers,
          embedders: options.embedders,
          chunks,
        };
        // A misspelt strategy is bad usage, refused before a file is read or a line of progress printed.
        const planned = await app.planBench({ ...selection, maxVariants: options.maxVariants });
        const baseline = options.baseline ? await loadBaseline(app, options.baseline) : undefined;
        const { resolveCorpusArgs } = await import("../corpus-args.js");
        const { skipped, ...target } = await resolveCorpusArgs(app, targets, options.collection);
        if (skipped.length > 0 && !globals.quiet) {
          printNote(`chunkeval: skipped ${skipped.length} file(s) of no supported format: ${skipped.slice(0, 5).join(", ")}${skipped.length > 5 ? ", …" : ""}`);
        }
        if (target.collection?.add && !options.collection && !globals.quiet) {
          printNote(
            `chunkeval: ${target.collection.add.length} documents benchmarked together as collection ${target.collection.name} ` +
              `(every question searches all of them; --collection NAME names it)`,
          );
        }
        if (isSweep(options))
          await confirmSweep(app, { ...selection, ...target, questions, dryRun: options.dryRun, maxVariants: options.maxVariants }, options);
        const progress = await startProgress("benchmarking", globals);
        let last: ProgressEvent | undefined;
        const answers: AnswerTally = { started: 0, total: planned.length * questions.length };
        const run = await interruptible((signal) =>
          app.bench({
            ...target,
            questions,
            questionsSource: basename(questionsPath),
            questionsOrigin,
            ...selection,
            maxVariants: options.maxVariants,
            dryRun: options.dryRun,
            maxErrors: options.maxErrors,
            judge: options.judge,
            tags: ci.tags,
            // Checked on the finished run and stored with it, as an HTTP request's gates are.
            gates: gateRequestOf(options, baseline),
            signal,
            // A sweep said its estimate already (confirmSweep); a plain bench says it when the run looks long.
            // Not made where nothing would show it (-q, or --json without --progress json).
            ...(isSweep(options) || globals.quiet || (globals.json && globals.progress !== "json")
              ? {}
              : { announceEstimateAbove: DEFAULTS.announceEstimateSeconds }),
            onProgress: (event) => {
              if (event.stage === "estimate") return progress.note(`estimate: ${event.message}`);
              last = event;
              if (event.stage === "answer" && event.message.startsWith("question ")) answers.started++;
              progress.onProgress(event);
            },
          }),
        ).catch((error) => {
          progress.fail();
          throw error;
        });
        if (run.interrupted) {
          progress.fail();
          printNote(`${interruptedLine(last, answers)}`);
          cliIo().exitCode = ExitCode.interrupted;
          return;
        }
        const experiment = run.value;
        progress.succeed(`experiment ${experiment.experimentId}`);
        // Pages a document's upload left out (unreadable text) are missing from what was benchmarked:
        // said at every run, under -q too, as upload says them. (A document deleted since the run has nothing to say.)
        printDocumentWarnings(experiment.collection?.documents ?? [await app.getDocument(experiment.documentId).catch(() => ({ filename: "", warnings: [] }))]);
        const ciRun = await app.ciOutputs({ experimentId: experiment.experimentId, baseline });
        const { comparison: compared, outcomes } = ciRun;
        const deltas = compared.baseline?.deltas;
        // The report first: the summary links it only once it is written.
        let reportWritten = false;
        if (options.out && reportFormat) {
          reportWritten = (
            await writeReport(app, experiment.experimentId, {
              format: reportFormat,
              view: options.view,
              out: options.out,
              baseline: compared.baseline && { id: compared.baseline.source, deltas: compared.baseline.deltas, notes: compared.baseline.notes },
              // A gated run's report says the gates' result first (a failed gate's HTML never mentioned it).
              gates: outcomes,
            })
          ).written;
        }
        await writeCiFiles(ciRun, { ...options, reports: reportWritten ? [options.out!] : [] });
        if (globals.json) {
          // stdout holds only the JSON; the warnings the scorecard would print go to stderr.
          for (const warning of experiment.details.chunkWarnings ?? []) printNote(`warning: ${warning}`);
          printJson({
            ...experimentView(experiment, app.metrics),
            details: experiment.details,
            ...(compared.baseline ? { baselineDeltas: compared.baseline.deltas, baselineNotes: compared.baseline.notes } : {}),
            ...(outcomes.length > 0 ? { gates: outcomes } : {}),
          });
        } else {
          // A gated run's result is its gates': each one's first (a failure is said again on stderr at the end).
          if (outcomes.length > 0) printLine(`gates: ${gatesHeadline(outcomes)}`);
          for (const o of outcomes) {
            printLine(`gate ${o.passed ? "passed" : "failed"}: ${o.gate}: ${o.detail}`);
            for (const note of o.notes) printLine(`  note: ${note}`);
          }
          for (const block of consoleScorecard(experiment, app.metrics, deltas)) {
            if ("line" in block) printLine(block.line);
            else printTable(block.head, block.rows);
          }
          for (const note of compared.baseline?.notes ?? []) printLine(`baseline: ${note}`);
          if (reportWritten) printLine(`report: ${options.out}`);
        }
        const missed = missedGates(experiment, gates);
        for (const g of missed) {
          const bound = g.kind === "fail-under" ? "below" : "above";
          const reason = experiment.aggregateMetrics[experiment.bestStrategy]!.missing?.[g.metric.key] ?? "not measured";
          const found = g.actual === null ? `n/a (${reason})` : `${g.actual.toFixed(4)}, ${bound} the bound`;
          printNote(`chunkeval: --${g.kind} ${g.metric.key}=${g.value} missed: ${gatedStrategyName(experiment)} has ${found}`);
        }
        for (const o of outcomes.slice(gates.length).filter((g) => !g.passed)) {
          printNote(`chunkeval: ${o.gate} failed: ${o.detail}`);
          for (const note of o.notes) printNote(`chunkeval:   note: ${note}`);
        }
        if (outcomes.some((o) => !o.passed)) cliIo().exitCode = ExitCode.gateFailed;
        // Nothing was measured: say why (the first error) instead of a scorecard of n/a and exit 0.
        const metrics = Object.values(experiment.aggregateMetrics);
        if (metrics.every((m) => m.totalQuestions > 0 && m.failedQuestions === m.totalQuestions)) {
          const first = Object.values(await app.experimentResults(experiment.experimentId))
            .flat()
            .find((r) => r.error)?.error;
          printNote(`chunkeval: every question failed${first ? `; the first error: ${first}` : ""}`);
          cliIo().exitCode = 1;
        }
      });
    });
}
