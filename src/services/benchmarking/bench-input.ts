// What a benchmark is asked (`BenchInput`), and the checks made of it before any work: the
// variants it plans, refused with the caller's input named, and what a refusal takes back.
import { BenchmarkError, ValidationError } from "../../errors.js";
import type { RunOptions } from "../../domain/types.js";
import type { QuestionInput } from "../../evaluators/questions.js";
import type { QuestionsOrigin } from "../../evaluators/question-set.js";
import type { ServiceContext } from "../context.js";
import { planGateRequest, type GateRequest } from "./ci-gates.js";
import { requireDocument } from "../corpus/documents.js";
import { collectionDocuments, requireCollection, type Corpus, type CorpusTarget } from "../corpus/collections.js";
import type { ProcessingUnits } from "./processing-units.js";
import { planVariants, type VariantPlan } from "../corpus/variants.js";
import type { SearchMode } from "../../domain/variant-key.js";
import type { ChunksImport } from "../../strategies/imported-chunks.js";
import { withImportedChunks } from "../corpus/imported-chunks.js";
import { locateOffThread } from "../corpus/locate-off-thread.js";

/**
 * `document`: an existing document id, or a file to upload (reused if the same bytes were
 * uploaded before). Or `collection` by id or name, searched as one: each question ranks the
 * chunks of all its documents together; with `add`, the files are uploaded (or reused) and
 * added first, and the collection is created if it does not exist.
 */
export interface BenchInput extends RunOptions, CorpusTarget {
  questions: QuestionInput[];
  /** Where the questions came from, for the report and error messages. */
  questionsSource: string;
  /** The generator the questions file records (`questions generate` metadata), for the verdict's basis; absent: none recorded. */
  questionsOrigin?: QuestionsOrigin | null;
  /** Names and variants (`recursive@chunk_size=128`), or `all`; docs/benchmarks.md "Variants and sweeps". */
  strategies?: string | string[];
  /** Sweep shorthands, each expanding to a grid of variants: `recursive:chunk_size=128,256`. */
  sweep?: string[];
  /** One top-k, or several to run every variant at each. */
  topK?: number | number[];
  /** Search modes to run every variant under (`--retrievers dense,keyword,hybrid`); the verdict says whether it holds under each. */
  retrievers?: SearchMode[];
  /** Embedders to run every variant with (`--embedders use,hash`); the verdict says whether it holds with each. */
  embedders?: string[];
  /** Refuse a grid of more variants than this (default: the configuration's max_sweep_variants). */
  maxVariants?: number;
  dryRun?: boolean;
  /** Stop after this many failed questions (all strategies together). */
  maxErrors?: number;
  judge?: string;
  /**
   * The composite's weights by term name (default: the configuration file's, else each metric's default); a metric the
   * composition added that they do not name keeps its default weight.
   */
  weights?: Record<string, number>;
  /**
   * Chunks a user's own pipeline made (docs/strategies.md "Your own chunks"), each benchmarked for this run as
   * a strategy named after it, beside `strategies`.
   */
  chunks?: ChunksImport[];
  /** Labels stored with the experiment (git commit, branch, pull request), shown in reports. */
  tags?: Record<string, string>;
  /** Where the processing units run (a background benchmark on PostgreSQL: the shared queue); default this process. */
  units?: ProcessingUnits;
  /**
   * A run expected to take longer than this many seconds reports its estimate before any work, as
   * an `estimate` progress event (the CLI prints it); absent, no estimate is made.
   */
  announceEstimateAbove?: number;
  /**
   * The gates (bench's CI options, the HTTP request's `fail_under`, …), as data so that they travel
   * with a background job: parsed and the baseline loaded before any work, checked on the finished
   * run, their outcomes stored with it (`details.gates`), so `report` says them first later too.
   */
  gates?: GateRequest;
}

/**
 * The checks a benchmark request passes before any work starts: a background request runs
 * them before its 202, so it is refused exactly as the synchronous one would be.
 */
export async function checkBenchInput(ctx: ServiceContext, input: BenchInput): Promise<VariantPlan> {
  const planned = await checkPlannedInput(withImportedChunks(ctx, input), input);
  if (input.gates) await planGateRequest(ctx, input.gates);
  return planned;
}

/**
 * The variant keys a bench would compare, with an unknown strategy refused as invalid input
 * (a ValidationError) rather than as a benchmark that cannot run: the CLI checks its
 * `--strategies` with this before it reads or uploads anything (docs/cli.md "Exit codes").
 */
export async function planBenchVariants(
  ctx: ServiceContext,
  input: Pick<BenchInput, "strategies" | "sweep" | "topK" | "chunks" | "maxVariants" | "retrievers" | "embedders">,
): Promise<string[]> {
  const run = withImportedChunks(ctx, input);
  const plan = await planVariants(run.ctx, { ...variantPlanInput(input), strategies: run.strategies });
  return plan.variants.map((v) => v.key);
}

/** What planVariants reads of a benchmark's input (the strategies come from withImportedChunks). */
const variantPlanInput = (input: Pick<BenchInput, "sweep" | "topK" | "maxVariants" | "retrievers" | "embedders">) => ({
  sweep: input.sweep,
  topK: input.topK,
  maxVariants: input.maxVariants,
  retrievers: input.retrievers,
  embedders: input.embedders,
});

/** `checkBenchInput` in the run's context (imported chunks registered): what `runBenchmark` plans with. */
export async function checkPlannedInput(run: ReturnType<typeof withImportedChunks>, input: BenchInput): Promise<VariantPlan> {
  const { ctx } = run;
  const plan = await planVariants(ctx, { ...variantPlanInput(input), strategies: run.strategies }, BenchmarkError);
  if (input.questions.length === 0) throw new BenchmarkError("the benchmark has no questions");
  if (input.maxErrors !== undefined && (!Number.isInteger(input.maxErrors) || input.maxErrors < 1))
    throw new ValidationError("max_errors must be a whole number >= 1");
  if (!input.document === !input.collection) throw new ValidationError("a benchmark takes one document or one collection");
  // Documents already stored are checked now (questions, imported chunks); uploads once they are read, still before any processing.
  const known =
    input.document && "id" in input.document
      ? [await requireDocument(ctx, input.document.id)]
      : input.collection && !input.collection.add
        ? await collectionDocuments(ctx, await requireCollection(ctx, input.collection.name))
        : null;
  if (known) await locateOffThread(input.questionsSource, input.questions, input.chunks, known);
  return plan;
}

/** Runs a check of a run's input against its corpus; when it throws, what resolving the corpus stored is taken back. */
export async function refusedBeforeWork<T>(corpus: Corpus, check: () => Promise<T>): Promise<T> {
  try {
    return await check();
  } catch (error) {
    // The refusal is what the caller must see, whatever taking back meets.
    await corpus.undo().catch(() => undefined);
    throw error;
  }
}
