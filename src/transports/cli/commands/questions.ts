import type { Command } from "commander";
import { ExitCode, ValidationError } from "../../../errors.js";
import { leakWords } from "../../../domain/question-set.js";
import { toWire } from "../../serialize.js";
import { parseInteger, withChunkeval, type GlobalOptions } from "../context.js";
import { printJson, printLine, printNote } from "../output.js";
import { startProgress } from "../progress.js";
import { requireArgument } from "../prompts.js";
import { questionsFileFor, refuseExistingOutput, targetName } from "../questions-out.js";
import { cliIo } from "../io.js";
import type { QuestionGenerationMetadata } from "../../../api/index.js";
import { loadQuestionsFile, writeFileWhole } from "../../../api/questions.js";

interface GenerateOptions {
  collection?: string;
  count: number;
  out?: string;
  maxCalls?: number;
  minExcerptSimilarity?: number;
  duplicateSimilarity?: number;
  template?: boolean;
  maxLeak?: number;
  keepLeaky?: boolean;
  negatives?: number;
  multiHop?: number;
  force?: boolean;
}

/** What the leak screen did: questions reworded, rewordings refused, questions dropped or kept flagged. */
function copiedWordingLine(m: QuestionGenerationMetadata): string {
  const { leak } = m;
  const at = `≥ ${(100 * leak.threshold).toFixed(0)} %`;
  const dropped = m.counts.dropped.copies_excerpt;
  const outcome = leak.keepLeaky ? `${leak.above} kept, flagged (--keep-leaky)` : `${dropped} dropped`;
  if (m.kind === "template") {
    const left = leak.keepLeaky ? outcome : `${dropped} left out for other sections`;
    return `copied wording: template questions copy their topic words by construction; ${at}: ${left}`;
  }
  const reworded = leak.paraphrases.filter((p) => p.kept).length;
  return `copied wording (${at}): ${reworded} reworded, ${leak.paraphrases.length - reworded} rewordings refused, ${outcome}`;
}

function parseFraction(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!(n > 0 && n <= 1)) throw new ValidationError(`${name} must be a number in (0, 1], got "${value}"`);
    return n;
  };
}

export function registerQuestionsCommand(program: Command): void {
  const questions = program.command("questions").description("questions files: generate one for your own document, check one before a run");
  questions
    .command("generate")
    .description("write a questions file for a document or a collection: with an LLM (--generator openai:<model>) or, offline, template questions")
    .argument(
      "[targets...]",
      "a document (id, stored file name, or file), or a collection: a folder, several documents or files, " +
        "a quoted glob, a collection id or name (questions spread by length)",
    )
    .option("--collection <name>", "write questions for this collection (with files: add them to it first, creating it if needed)")
    .option("-n, --count <n>", "questions wanted", parseInteger("--count"), 10)
    .option("--out <file>", "questions file to write (default: <document or collection name>.questions.json)")
    .option("--force", "overwrite the questions file when it exists (without it, an existing file is refused, exit 2)")
    .option("--max-calls <n>", "chat calls allowed in all (default: 3 per question)", parseInteger("--max-calls"))
    .option(
      "--min-excerpt-similarity <x>",
      "least similarity (0-1] at which an excerpt counts as found in the document (default 0.85)",
      parseFraction("--min-excerpt-similarity"),
    )
    .option(
      "--duplicate-similarity <x>",
      "embedding cosine (0-1] from which a question duplicates a kept one (default 0.9)",
      parseFraction("--duplicate-similarity"),
    )
    .option(
      "--max-leak <x>",
      "share (0-1] of a question's content words copied from its excerpt from which it is reworded by the LLM (one more call), " +
        "then dropped if the rewording still copies (default 0.75)",
      parseFraction("--max-leak"),
    )
    .option("--keep-leaky", "keep the questions that still copy their excerpt, flagged in the file, instead of dropping them")
    .option(
      "--negatives <n>",
      'also write n negative controls: questions the document cannot answer ("answerable": false, no references); bench scores whether answers abstain on them',
      parseInteger("--negatives"),
    )
    .option(
      "--multi-hop <n>",
      "with an LLM: also write n questions whose answer needs two related passages, with references in both",
      parseInteger("--multi-hop"),
    )
    .option("--template", "use the offline template generator even when an LLM is configured")
    .option("--json", "print only the file's metadata (prompt, model, thresholds, counts) as JSON on stdout")
    .addHelpText(
      "after",
      "\nThe LLM is the global --generator (or CHUNKEVAL_GENERATOR); without one, template questions are written and labelled as such." +
        "\nEvery question carries its leak in the file; template questions copy their topic words by construction, and one at --max-leak is" +
        "\nleft out for another section's (kept, flagged, with --keep-leaky). Then: chunkeval bench DOC --questions FILE",
    )
    .action(async (targetArgs: string[], options: GenerateOptions, command: Command) => {
      const targets =
        targetArgs.length > 0 || options.collection
          ? targetArgs
          : [await requireArgument(undefined, "doc", "Document id, file or folder to write questions for:")];
      const globals = command.optsWithGlobals<GlobalOptions>();
      await withChunkeval(command, async (app) => {
        const { resolveCorpusArgs } = await import("../corpus-args.js"); // brings the parsers: not for --help
        const { skipped: _skipped, ...target } = await resolveCorpusArgs(app, targets, options.collection);
        // Refused before any chat call is paid for; checked again when the file is written.
        refuseExistingOutput(options.out ?? questionsFileFor(await targetName(app, target)), options.force);
        const progress = await startProgress("generating questions", globals);
        const file = await app
          .generateQuestions({
            ...target,
            count: options.count,
            generator: options.template ? "template" : undefined,
            maxCalls: options.maxCalls,
            minExcerptSimilarity: options.minExcerptSimilarity,
            duplicateSimilarity: options.duplicateSimilarity,
            maxLeak: options.maxLeak,
            keepLeaky: options.keepLeaky,
            negatives: options.negatives,
            multiHop: options.multiHop,
            onProgress: progress.onProgress,
          })
          .catch((error) => {
            progress.fail();
            throw error;
          });
        const m = file.metadata;
        // Named after the document's (or collection's) name, as uploaded: `questions generate <id>` too.
        const out = options.out ?? questionsFileFor(m.document.filename);
        refuseExistingOutput(out, options.force);
        await writeFileWhole(out, JSON.stringify(toWire(file), null, 2) + "\n", { overwrite: Boolean(options.force) }).catch((error: NodeJS.ErrnoException) => {
          if (error.code === "EEXIST") refuseExistingOutput(out, false);
          throw error;
        });
        progress.succeed(`${file.questions.length} questions written to ${out}`);
        if (globals.json) return printJson({ out, ...m });
        if (m.notice) printLine(`NOTE: ${m.notice}`);
        printLine(`generator: ${m.generator}; kept ${m.counts.kept} of ${m.counts.requested} requested`);
        if (m.kind === "llm") {
          const d = m.counts.dropped;
          printLine(
            `${m.counts.calls} chat calls (${m.counts.cachedReplies} from the cache, ${m.counts.malformedReplies} malformed replies); ` +
              `dropped ${d.poor_excerpt} with excerpts not located (similarity < ${m.thresholds!.minExcerptSimilarity}), ` +
              `${d.duplicate} near-duplicates (cosine >= ${m.thresholds!.duplicateSimilarity}, ${m.duplicateEmbedder}), ` +
              `${d.malformed} after malformed replies`,
          );
          printLine(`tokens ${m.tokenUsage.totalTokens}; cost $${m.costUsd.toFixed(4)}`);
        }
        if (m.multiHop.requested > 0) printLine(`multi-hop: ${m.multiHop.kept} of ${m.multiHop.requested} written (references in two passages)`);
        if (m.negatives.requested > 0) {
          const how =
            m.kind === "llm" ? "the model's word that the document does not answer them" : "a section asked about a subject the document never mentions";
          printLine(`negative controls: ${m.negatives.kept} of ${m.negatives.requested} written ("answerable": false; ${how})`);
        }
        if (m.counts.kept < m.counts.requested) {
          const why = m.kind === "llm" ? " survived within the call budget (raise --max-calls)" : ": the document has no more sections";
          printNote(`chunkeval: warning: only ${m.counts.kept} of ${m.counts.requested} questions${why}`);
        }
        printLine(`vocabulary leak: ${leakWords(m.leak)}`);
        printLine(copiedWordingLine(m));
        printLine(`wrote ${out}`);
        if (m.collection) {
          const spread = m.collection.documents.map((d) => `${d.filename} ${d.questions}${d.skipped ? ` (skipped: ${d.skipped})` : ""}`);
          printLine(`per document: ${spread.join("; ")}`);
        }
        printLine(`next: chunkeval bench ${m.collection ? `--collection ${m.collection.name}` : targets.join(" ")} --questions ${out}`);
      });
    });
  registerValidateCommand(questions);
}

/** `questions validate FILE TARGET…`: the check of services/questions/questions-check.ts, printed; exit 1 when a problem was found. */
function registerValidateCommand(questions: Command): void {
  questions
    .command("validate")
    .description("check a questions file against its document or collection before a run: references located, duplicates, questions that copy their excerpt")
    .argument("<file>", "the questions file (JSON, JSONL or YAML)")
    .argument("[targets...]", "a document id or file, or a collection: a folder, several files, a quoted glob, a collection id or name")
    .option("--collection <name>", "check against this collection")
    .option("--json", "print the check (located counts, problems, copying questions, vocabulary leak) as JSON on stdout")
    .addHelpText("after", "\nExit 1 when a reference is not found or a question is repeated (each listed with the closest passage to paste).")
    .action(async (file: string, targetArgs: string[], options: { collection?: string; json?: boolean }, command: Command) => {
      const items = await loadQuestionsFile(file);
      const { loadQuestionsOrigin } = await import("../../../api/question-set.js");
      const origin = await loadQuestionsOrigin(file);
      await withChunkeval(command, async (app) => {
        const { resolveCorpusArgs } = await import("../corpus-args.js"); // brings the parsers: not for --help
        const { skipped: _skipped, ...target } = await resolveCorpusArgs(app, targetArgs, options.collection);
        const check = await app.checkQuestions({ ...target, questions: items, origin });
        if (check.problems.length > 0 || check.smokeTest) cliIo().exitCode = ExitCode.failed;
        if (options.json) return printJson(check);
        const { exact, normalised, words } = check.located;
        const notFound = check.problems.filter((p) => p.kind === "reference_not_found").length;
        printLine(
          `${check.questions} questions, ${check.references} references: ${exact} found as written, ${normalised} up to white space or typography, ` +
            `${words} as the same words (markup or punctuation between them), ${notFound} not found`,
        );
        for (const p of check.problems) {
          printLine(`problem: item ${p.item} ("${p.question}"): ${p.detail}`);
          if (p.closest) printLine(`  closest passage in ${p.closest.document} (similarity ${p.closest.similarity.toFixed(2)}), to paste: "${p.closest.text}"`);
        }
        for (const p of check.copying) printLine(`copies its excerpt: item ${p.item} ("${p.question}"): ${p.detail}`);
        printLine(`vocabulary leak: ${leakWords(check.leak)}`);
        if (check.smokeTest) printLine(`problem: a benchmark on these questions would be a smoke test, not a recommendation: ${check.smokeTest}`);
        printLine(check.problems.length > 0 || check.smokeTest ? `${check.problems.length + (check.smokeTest ? 1 : 0)} problem(s)` : "no problem found");
      });
    });
}
